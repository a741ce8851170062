#include "reference/runtime/joins.h"

#include <string>

#include "reference/runtime/promotion.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

// A 1-D tensor of size 0 is skipped by cat whatever its shape (legacy behaviour).
bool IsLegacyEmpty(const Tensor& t) { return t.dim() == 1 && t.sizes[0] == 0; }

}  // namespace

Tensor Cat(const std::vector<Tensor>& tensors, int64_t dim) {
  if (tensors.empty())
    throw TorchError("RuntimeError", "torch.cat(): expected a non-empty list of Tensors");
  std::vector<Operand> operands;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].dim() == 0) {
      throw TorchError("RuntimeError", "zero-dimensional tensor (at position " + std::to_string(i) +
                                           ") cannot be concatenated");
    }
    operands.push_back({OperandKind::kTensor, tensors[i].dtype});
  }
  DType dtype = ResultType(operands);
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!IsLegacyEmpty(t)) {
      ref = &t;
      break;
    }
  }
  if (!ref) return EmptyTensor(dtype, {0});
  dim = WrapDim(dim, ref->dim());
  Shape shape = ref->sizes;
  shape[dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (IsLegacyEmpty(t)) continue;
    if (t.dim() != ref->dim()) {
      throw TorchError("RuntimeError", "Tensors must have same number of dimensions: got " +
                                           std::to_string(ref->dim()) + " and " +
                                           std::to_string(t.dim()));
    }
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d != dim && t.sizes[d] != ref->sizes[d]) {
        throw TorchError("RuntimeError", "Sizes of tensors must match except in dimension " +
                                             std::to_string(dim) + ". Expected size " +
                                             std::to_string(ref->sizes[d]) + " but got size " +
                                             std::to_string(t.sizes[d]) + " for tensor number " +
                                             std::to_string(i) + " in the list.");
      }
    }
    shape[dim] += t.sizes[dim];
  }
  Tensor out = EmptyTensor(dtype, shape);
  int64_t at = 0;
  for (const Tensor& t : tensors) {
    if (IsLegacyEmpty(t)) continue;
    // Copy each input into its slice of the output (a strided view of out).
    Tensor slice = out;
    slice.sizes[dim] = t.sizes[dim];
    slice.storage_offset = at * out.strides[dim];
    CopyInto(slice, t);
    at += t.sizes[dim];
  }
  return out;
}

Tensor Nonzero(const Tensor& t) {
  std::vector<Scalar> flat;
  int64_t count = 0;
  Shape index(t.dim(), 0);
  for (int64_t off : t.ElementOffsets()) {
    if (t.Load(off).AsBool()) {
      ++count;
      for (int64_t i : index) flat.push_back(Scalar::Int(i));
    }
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.sizes[d]) break;
      index[d] = 0;
    }
  }
  // torch fills the result transposed: shape [count, dim] with strides (1, count).
  Tensor out = Transpose(TensorFromValues(DType::kInt64, {t.dim(), count}, {}), 0, 1);
  std::vector<int64_t> offsets = out.ElementOffsets();
  for (size_t k = 0; k < offsets.size(); ++k) out.Store(offsets[k], flat[k]);
  return out;
}

}  // namespace tdc::runtime
