// View and layout operations: each returns a tensor aliasing its input's storage where
// torch returns a view, with the sizes and strides torch computes, and torch's errors.
#ifndef TDCONFORM_REFERENCE_RUNTIME_VIEWS_H_
#define TDCONFORM_REFERENCE_RUNTIME_VIEWS_H_

#include <optional>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// Resolves one -1 in a requested shape against numel (torch's infer_size).
Shape InferSize(const Shape& shape, int64_t numel);
// torch's computeStride: the strides that let `sizes` view `t` without a copy, if any.
std::optional<Shape> ComputeViewStrides(const Tensor& t, const Shape& sizes);

Tensor View(const Tensor& t, const Shape& shape);
// A view when ComputeViewStrides succeeds, else a contiguous copy (torch's reshape).
Tensor Reshape(const Tensor& t, const Shape& shape);
Tensor Transpose(const Tensor& t, int64_t dim0, int64_t dim1);
Tensor Permute(const Tensor& t, const Shape& dims);
Tensor Expand(const Tensor& t, const Shape& shape);
Tensor Squeeze(const Tensor& t);
Tensor Squeeze(const Tensor& t, int64_t dim);
Tensor Unsqueeze(const Tensor& t, int64_t dim);
// aten.select.int: the view at `index` (negative counts from the end) without dim `dim`.
Tensor Select(const Tensor& t, int64_t dim, int64_t index);
// aten.slice.Tensor: elements start, start+step, ... before end along dim (start and end
// wrap once when negative, then clamp to [0, size]; an end before start selects none).
Tensor Slice(const Tensor& t, int64_t dim, int64_t start, int64_t end, int64_t step);
// aten.alias.default: a view of all of `t`.
Tensor Alias(const Tensor& t);
// `t` itself when already contiguous, else a row-major copy.
Tensor Contiguous(const Tensor& t);
// torch.clone (memory_format=preserve): a non-overlapping-and-dense input keeps its
// strides exactly; any other input gets strides inferred from its stride order.
Tensor Clone(const Tensor& t);

// Helpers shared with the kernels.
bool IsNonOverlappingAndDense(const Tensor& t);
// A fresh tensor of `sizes` and `dtype` laid out like `like` (torch's empty_like with
// memory_format=preserve): like's strides when it is non-overlapping and dense.
Tensor EmptyLike(const Tensor& like, DType dtype);
// Copies src's elements (logical order) into dst, converting dtype; same numel.
void CopyInto(const Tensor& dst, const Tensor& src);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_VIEWS_H_
