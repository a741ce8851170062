#include "reference/runtime/advanced_index.h"

#include <algorithm>
#include <numeric>

#include "reference/runtime/joins.h"
#include "reference/runtime/promotion.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

bool IsMask(const Tensor& t) { return t.dtype == DType::kBool || t.dtype == DType::kUInt8; }

// checkIndexTensorTypes, then expandTensors: each mask becomes one long index per mask dim.
std::vector<std::optional<Tensor>> ExpandMasks(const Tensor& self,
                                               const std::vector<std::optional<Tensor>>& given) {
  std::vector<std::optional<Tensor>> out;
  for (const std::optional<Tensor>& index : given) {
    if (!index) {
      out.push_back(std::nullopt);
      continue;
    }
    const DType dtype = index->dtype;
    if (dtype != DType::kInt64 && dtype != DType::kInt32 && !IsMask(*index)) {
      throw TorchError("IndexError",
                       "tensors used as indices must be long, int, byte or bool tensors");
    }
    if (!IsMask(*index)) {
      out.push_back(index);
      continue;
    }
    for (int64_t j = 0; j < index->dim(); ++j) {
      const auto at = static_cast<int64_t>(out.size()) + j;
      if (at >= self.dim() || index->sizes[j] != self.sizes[at]) {
        throw TorchError("IndexError", "The shape of the mask " + ShapeText(index->sizes) +
                                           " at index " + std::to_string(j) +
                                           " does not match the shape of the indexed tensor " +
                                           ShapeText(self.sizes) + " at index " +
                                           std::to_string(at));
      }
    }
    const Tensor nonzero = Nonzero(*index);
    for (int64_t j = 0; j < index->dim(); ++j) out.push_back(Select(nonzero, 1, j));
  }
  return out;
}

// The broadcast shape of the defined indices, with make_info's IndexError.
Shape BroadcastIndices(const std::vector<std::optional<Tensor>>& indices) {
  std::optional<Shape> shape;
  for (const auto& index : indices) {
    if (!index) continue;
    try {
      shape = shape ? BroadcastShapes(*shape, index->sizes) : index->sizes;
    } catch (const TorchError&) {
      std::string shapes;
      for (const auto& each : indices) {
        if (!each) continue;
        shapes += (shapes.empty() ? "" : ", ") + ShapeText(each->sizes);
      }
      throw TorchError("IndexError",
                       "shape mismatch: indexing tensors could not be broadcast together with "
                       "shapes " +
                           shapes);
    }
  }
  return *shape;
}

// The strides TensorIterator gives an output of `shape` computed from `operands` (each
// already broadcast to `shape`, stride 0 where broadcast): reorder_dimensions sorts dims
// fastest first by the first operand whose strides decide, then lays the output out
// densely in that order (row-major when the order is row-major).
Shape IteratorOutputStrides(const Shape& shape, const std::vector<Tensor>& operands) {
  const auto n = static_cast<int64_t>(shape.size());
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  if (n <= 1 || numel == 0) return ContiguousStrides(shape);
  // TensorIterator's dim k is the tensor's dim n-1-k.
  std::vector<int64_t> perm(n);
  for (int64_t k = 0; k < n; ++k) perm[k] = n - 1 - k;
  auto tensor_dim = [n](int64_t k) { return n - 1 - k; };
  auto should_swap = [&](int64_t dim0, int64_t dim1) {
    for (const Tensor& op : operands) {
      const int64_t s0 = op.strides[tensor_dim(dim0)] * ElementSize(op.dtype);
      const int64_t s1 = op.strides[tensor_dim(dim1)] * ElementSize(op.dtype);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[tensor_dim(dim0)] > shape[tensor_dim(dim1)]) return 1;
    }
    return 0;
  };
  std::vector<int64_t> order(n);  // order[i]: the TensorIterator dim at position i
  std::iota(order.begin(), order.end(), 0);
  for (int64_t i = 1; i < n; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(order[dim0], order[dim1]);
      if (c > 0) {
        std::swap(order[dim0], order[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Shape strides(n);
  int64_t next = 1;
  for (int64_t i = 0; i < n; ++i) {
    strides[tensor_dim(order[i])] = next;
    next *= shape[tensor_dim(order[i])];
  }
  bool row_major = true;
  for (int64_t i = 0; i < n; ++i) row_major = row_major && order[i] == i;
  return row_major ? ContiguousStrides(shape) : strides;
}

// `t` viewed with `sizes` and `strides` (the same storage and offset).
Tensor Restride(const Tensor& t, Shape sizes, Shape strides) {
  Tensor v = t;
  v.sizes = std::move(sizes);
  v.strides = std::move(strides);
  return v;
}

}  // namespace

Tensor Index(const Tensor& self_in, const std::vector<std::optional<Tensor>>& given) {
  if (static_cast<int64_t>(given.size()) > self_in.dim()) {
    throw TorchError("IndexError", "too many indices for tensor of dimension " +
                                       std::to_string(self_in.dim()) + " (got " +
                                       std::to_string(given.size()) + ")");
  }
  Tensor self = self_in;
  std::vector<std::optional<Tensor>> indices = ExpandMasks(self, given);
  const Shape replacement = BroadcastIndices(indices);
  while (static_cast<int64_t>(indices.size()) < self.dim()) indices.push_back(std::nullopt);
  // Indexed dims that are not adjacent go to the front, in order (transposeToFront).
  auto first = std::find_if(indices.begin(), indices.end(), [](const auto& i) { return i; });
  auto last = std::find_if(indices.rbegin(), indices.rend(), [](const auto& i) { return i; });
  const bool adjacent =
      std::all_of(first, last.base(), [](const auto& i) { return i.has_value(); });
  if (!adjacent) {
    Shape dims;
    std::vector<std::optional<Tensor>> moved;
    for (size_t d = 0; d < indices.size(); ++d) {
      if (!indices[d]) continue;
      dims.push_back(static_cast<int64_t>(d));
      moved.push_back(indices[d]);
    }
    for (size_t d = 0; d < indices.size(); ++d) {
      if (indices[d]) continue;
      dims.push_back(static_cast<int64_t>(d));
      moved.push_back(std::nullopt);
    }
    self = Permute(self, dims);
    indices = std::move(moved);
  }
  // AdvancedIndex: the dims before and after the indexed ones, and src restrided so the
  // indexed dims become the replacement shape with stride 0.
  int64_t before = 0, after = 0;
  Shape indexed_sizes, indexed_strides;
  std::vector<Tensor> index_tensors;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (!indices[d]) {
      (index_tensors.empty() ? before : after) += 1;
      continue;
    }
    indexed_sizes.push_back(self.sizes[d]);
    indexed_strides.push_back(self.strides[d]);
    index_tensors.push_back(*indices[d]);
  }
  const bool empty_dim =
      std::find(indexed_sizes.begin(), indexed_sizes.end(), 0) != indexed_sizes.end();
  if (empty_dim && std::find(replacement.begin(), replacement.end(), 0) == replacement.end()) {
    throw TorchError("IndexError", "index is out of bounds for dimension with size 0");
  }
  const auto indexed = static_cast<int64_t>(index_tensors.size());
  Shape shape(self.sizes.begin(), self.sizes.begin() + before);
  Shape src_strides(self.strides.begin(), self.strides.begin() + before);
  shape.insert(shape.end(), replacement.begin(), replacement.end());
  src_strides.insert(src_strides.end(), replacement.size(), 0);
  shape.insert(shape.end(), self.sizes.begin() + before + indexed, self.sizes.end());
  src_strides.insert(src_strides.end(), self.strides.begin() + before + indexed,
                     self.strides.end());
  const auto n = static_cast<int64_t>(shape.size());
  std::vector<Tensor> operands = {Restride(self, shape, src_strides)};
  // Each index reshaped to [1]*before + its shape + [1]*after, then broadcast to `shape`.
  for (const Tensor& index : index_tensors) {
    Shape sizes(before, 1);
    sizes.insert(sizes.end(), index.sizes.begin(), index.sizes.end());
    sizes.insert(sizes.end(), after, 1);
    Tensor reshaped = Reshape(index, sizes);
    Shape strides(n, 0);
    const int64_t lead = n - reshaped.dim();
    for (int64_t d = 0; d < reshaped.dim(); ++d) {
      if (reshaped.sizes[d] != 1 || shape[lead + d] == 1) strides[lead + d] = reshaped.strides[d];
    }
    operands.push_back(Restride(reshaped, shape, strides));
  }
  Tensor out = EmptyTensor(self.dtype, shape);
  out.strides = IteratorOutputStrides(shape, operands);
  // The elements in the order the kernel visits them (the output's fastest dim innermost);
  // an out-of-range index raises at the first element that has one.
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return out.strides[a] > out.strides[b]; });
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  Shape coord(n, 0);
  for (int64_t e = 0; e < numel; ++e) {
    int64_t rest = e;
    for (int64_t i = n - 1; i >= 0; --i) {
      coord[order[i]] = rest % shape[order[i]];
      rest /= shape[order[i]];
    }
    int64_t from = operands[0].storage_offset, to = out.storage_offset;
    for (int64_t d = 0; d < n; ++d) {
      from += coord[d] * operands[0].strides[d];
      to += coord[d] * out.strides[d];
    }
    for (int64_t j = 0; j < indexed; ++j) {
      const Tensor& op = operands[static_cast<size_t>(j) + 1];
      int64_t at = op.storage_offset;
      for (int64_t d = 0; d < n; ++d) at += coord[d] * op.strides[d];
      const int64_t value = op.Load(at).AsInt();
      const int64_t size = indexed_sizes[j];
      if (value < -size || value >= size) {
        throw TorchError("IndexError", "index " + std::to_string(value) +
                                           " is out of bounds for dimension " + std::to_string(j) +
                                           " with size " + std::to_string(size));
      }
      from += (value < 0 ? value + size : value) * indexed_strides[j];
    }
    out.Store(to, self.Load(from));
  }
  return out;
}

}  // namespace tdc::runtime
