#include "reference/runtime/views.h"

#include <algorithm>
#include <numeric>

#include "reference/runtime/tensor_budget.h"

namespace tdc::runtime {
namespace {

// Every view computes its numel as torch's TensorImpl does when its sizes are set, with
// torch's error when that overflows (an expand to 2**32 x 2**32).
Tensor Restrided(const Tensor& t, Shape sizes, Shape strides) {
  CheckedNumel(sizes);
  Tensor v = t;
  v.sizes = std::move(sizes);
  v.strides = std::move(strides);
  return v;
}

// ATen's infer_dense_strides: order dims by stride (ties by size; a zero stride is
// ambiguous and never forces a swap), then lay them out densely in that order.
Shape InferDenseStrides(const Tensor& t) {
  int64_t n = t.dim();
  std::vector<int64_t> perm(n);
  for (int64_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
  auto should_swap = [&](int64_t a, int64_t b) {
    int64_t sa = t.strides[a], sb = t.strides[b];
    if (sa == 0 || sb == 0) return 0;
    if (sa < sb) return -1;
    if (sa > sb) return 1;
    return t.sizes[a] > t.sizes[b] ? 1 : 0;
  };
  for (int64_t i = 1; i < n; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Shape strides(n);
  int64_t curr = 1;
  for (int64_t i = 0; i < n; ++i) {
    strides[perm[i]] = curr;
    curr *= std::max<int64_t>(t.sizes[perm[i]], 1);
  }
  return strides;
}

}  // namespace

Shape InferSize(const Shape& shape, int64_t numel) {
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer) throw TorchError("RuntimeError", "only one dimension can be inferred");
      infer = d;
    } else if (shape[d] >= 0) {
      known *= shape[d];
    } else {
      throw TorchError("RuntimeError", "invalid shape dimension " + std::to_string(shape[d]));
    }
  }
  Shape out = shape;
  // -1 cannot be inferred when the known dims multiply to 0 (torch: "is invalid").
  bool ok = infer ? (known != 0 && numel % known == 0) : numel == known;
  if (!ok) {
    throw TorchError("RuntimeError", "shape '" + ShapeText(shape) +
                                         "' is invalid for input of size " + std::to_string(numel));
  }
  if (infer) out[*infer] = numel / known;
  return out;
}

// ATen's computeStride (TensorUtils.cpp), chunk by chunk of mutually contiguous dims.
std::optional<Shape> ComputeViewStrides(const Tensor& t, const Shape& sizes) {
  Shape newstride(sizes.size());
  if (t.numel() == 0) {
    // Stride is arbitrary for an empty tensor: keep it when the shape is unchanged.
    if (t.sizes == sizes) return t.strides;
    return ContiguousStrides(sizes);
  }
  int64_t view_d = static_cast<int64_t>(sizes.size()) - 1;
  int64_t chunk_base_stride = t.strides.empty() ? 1 : t.strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = t.dim() - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= t.sizes[tensor_d];
    if (tensor_d == 0 || (t.sizes[tensor_d - 1] != 1 &&
                          t.strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = t.strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  // A 0-dim input: every remaining view dim has size 1.
  while (view_d >= 0 && sizes[view_d] == 1) newstride[view_d--] = 1;
  if (view_d != -1) return std::nullopt;
  return newstride;
}

Tensor View(const Tensor& t, const Shape& shape) {
  Shape sizes = InferSize(shape, t.numel());
  std::optional<Shape> strides = ComputeViewStrides(t, sizes);
  if (!strides) {
    throw TorchError("RuntimeError",
                     "view size is not compatible with input tensor's size and stride (at "
                     "least one dimension spans across two contiguous subspaces). Use "
                     ".reshape(...) instead.");
  }
  return Restrided(t, sizes, *strides);
}

Tensor Reshape(const Tensor& t, const Shape& shape) {
  Shape sizes = InferSize(shape, t.numel());
  if (std::optional<Shape> strides = ComputeViewStrides(t, sizes))
    return Restrided(t, sizes, *strides);
  Tensor copy = EmptyTensor(t.dtype, t.sizes);
  CopyInto(copy, t);
  return Restrided(copy, sizes, ContiguousStrides(sizes));
}

Tensor Transpose(const Tensor& t, int64_t dim0, int64_t dim1) {
  dim0 = WrapDim(dim0, t.dim());
  dim1 = WrapDim(dim1, t.dim());
  if (t.dim() == 0) return t;
  Tensor v = t;
  std::swap(v.sizes[dim0], v.sizes[dim1]);
  std::swap(v.strides[dim0], v.strides[dim1]);
  return v;
}

Tensor Permute(const Tensor& t, const Shape& dims) {
  if (static_cast<int64_t>(dims.size()) != t.dim()) {
    throw TorchError("RuntimeError",
                     "permute(sparse_coo): number of dimensions in the tensor input does not "
                     "match the length of the desired ordering of dimensions i.e. input.dim() = " +
                         std::to_string(t.dim()) +
                         " is not equal to len(dims) = " + std::to_string(dims.size()));
  }
  Shape sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = WrapDim(dims[i], t.dim());
    if (seen[d]) throw TorchError("RuntimeError", "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = t.sizes[d];
    strides[i] = t.strides[d];
  }
  return Restrided(t, sizes, strides);
}

// ATen's inferExpandGeometry: new leading dims get stride 0, as do expanded size-1 dims.
Tensor Expand(const Tensor& t, const Shape& shape) {
  int64_t ndim = static_cast<int64_t>(shape.size());
  if (ndim < t.dim()) {
    throw TorchError("RuntimeError",
                     "expand(torch." + TorchTypeName(t.dtype) + "Tensor{" + ShapeText(t.sizes) +
                         "}, size=" + ShapeText(shape) + "): the number of sizes provided (" +
                         std::to_string(ndim) +
                         ") must be greater or equal to the number of dimensions in the tensor (" +
                         std::to_string(t.dim()) + ")");
  }
  Shape sizes(ndim), strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t offset = ndim - 1 - i;
    int64_t dim = t.dim() - 1 - offset;
    int64_t size = dim >= 0 ? t.sizes[dim] : 1;
    int64_t stride = dim >= 0 ? t.strides[dim] : 0;
    int64_t target = shape[i];
    if (target == -1) {
      if (dim < 0) {
        throw TorchError("RuntimeError",
                         "The expanded size of the tensor (-1) isn't allowed in a "
                         "leading, non-existing dimension " +
                             std::to_string(i));
      }
      target = size;
    }
    if (size != target) {
      if (size != 1) {
        throw TorchError("RuntimeError",
                         "The expanded size of the tensor (" + std::to_string(target) +
                             ") must match the existing size (" + std::to_string(size) +
                             ") at non-singleton dimension " + std::to_string(i) +
                             ".  Target sizes: " + ShapeText(shape) +
                             ".  Tensor sizes: " + ShapeText(t.sizes));
      }
      stride = 0;
    }
    sizes[i] = target;
    strides[i] = stride;
  }
  return Restrided(t, sizes, strides);
}

Tensor Squeeze(const Tensor& t) {
  Shape sizes, strides;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes[d] == 1) continue;
    sizes.push_back(t.sizes[d]);
    strides.push_back(t.strides[d]);
  }
  return Restrided(t, sizes, strides);
}

Tensor Squeeze(const Tensor& t, int64_t dim) {
  dim = WrapDim(dim, t.dim());
  if (t.dim() == 0 || t.sizes[dim] != 1) return t;
  Tensor v = t;
  v.sizes.erase(v.sizes.begin() + dim);
  v.strides.erase(v.strides.begin() + dim);
  return v;
}

Tensor Unsqueeze(const Tensor& t, int64_t dim) {
  dim = WrapDim(dim, t.dim() + 1);
  int64_t stride = dim >= t.dim() ? 1 : t.sizes[dim] * t.strides[dim];
  Tensor v = t;
  v.sizes.insert(v.sizes.begin() + dim, 1);
  v.strides.insert(v.strides.begin() + dim, stride);
  return v;
}

Tensor Select(const Tensor& t, int64_t dim, int64_t index) {
  if (t.dim() == 0) throw TorchError("IndexError", "select() cannot be applied to a 0-dim tensor.");
  dim = WrapDim(dim, t.dim());
  const int64_t size = t.sizes[dim];
  if (index < -size || index >= size) {
    throw TorchError("IndexError", "select(): index " + std::to_string(index) +
                                       " out of range for tensor of size " + ShapeText(t.sizes) +
                                       " at dimension " + std::to_string(dim));
  }
  Tensor v = t;
  v.storage_offset += (index < 0 ? index + size : index) * t.strides[dim];
  v.sizes.erase(v.sizes.begin() + dim);
  v.strides.erase(v.strides.begin() + dim);
  return v;
}

// ATen's slice (TensorShape.cpp).
Tensor Slice(const Tensor& t, int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (t.dim() == 0) throw TorchError("IndexError", "slice() cannot be applied to a 0-dim tensor.");
  if (step <= 0) throw TorchError("RuntimeError", "slice step must be positive");
  dim = WrapDim(dim, t.dim());
  const int64_t size = t.sizes[dim];
  auto wrap = [size](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + size : i, 0, size); };
  start = wrap(start);
  end = std::max(wrap(end), start);
  Tensor v = t;
  v.storage_offset += start * t.strides[dim];
  v.sizes[dim] = (end - start + step - 1) / step;
  v.strides[dim] *= step;
  return v;
}

Tensor Alias(const Tensor& t) { return t; }

Tensor Contiguous(const Tensor& t) {
  if (t.IsContiguous()) return t;
  Tensor copy = EmptyTensor(t.dtype, t.sizes);
  CopyInto(copy, t);
  return copy;
}

// ATen's compute_non_overlapping_and_dense.
bool IsNonOverlappingAndDense(const Tensor& t) {
  int64_t n = t.dim();
  if (n == 0) return true;
  if (n == 1) return t.sizes[0] < 2 || t.strides[0] == 1;
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (t.sizes[a] < 2) return false;
    if (t.sizes[b] < 2) return true;
    return t.strides[a] < t.strides[b];
  });
  int64_t require = 1;
  for (int64_t i = 0; i < n; ++i) {
    int64_t size = t.sizes[perm[i]];
    if (size < 2) return true;
    if (t.strides[perm[i]] != require) return false;
    require *= size;
  }
  return true;
}

Tensor EmptyLike(const Tensor& like, DType dtype) {
  Tensor out = EmptyTensor(dtype, like.sizes);
  out.strides = IsNonOverlappingAndDense(like) ? like.strides : InferDenseStrides(like);
  return out;
}

void CopyInto(const Tensor& dst, const Tensor& src) {
  std::vector<int64_t> to = dst.ElementOffsets(), from = src.ElementOffsets();
  for (size_t k = 0; k < to.size(); ++k) dst.Store(to[k], src.Load(from[k]));
}

Tensor Clone(const Tensor& t) {
  Tensor out = EmptyLike(t, t.dtype);
  CopyInto(out, t);
  return out;
}

}  // namespace tdc::runtime
