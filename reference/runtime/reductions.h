// Reductions over all dims or a dim list. Their summation order differs from torch's
// vectorized cascade, so their results are compared within the tolerance table.
#ifndef TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_
#define TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_

#include <utility>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

enum class ReduceOp { kSum, kMean, kAmax };

// dims empty = every dim (torch's dim=None, and amax's dim=()).
Tensor Reduce(ReduceOp op, const Tensor& t, const Shape& dims, bool keepdim);

// reductions_max_norm.cc.
// torch.max(t): the maximum element as a 0-dim tensor (NaN wins); an empty t raises.
Tensor MaxAll(const Tensor& t);
// torch.max(t, dim, keepdim): (values, int64 indices), the first maximum's index (the first
// NaN's when there is one); a reduced dim of size 0 raises IndexError.
std::pair<Tensor, Tensor> MaxDim(const Tensor& t, int64_t dim, bool keepdim);
// torch.linalg.vector_norm(t, ord, dims, keepdim) of a floating tensor, accumulated in
// double: ord 0 counts nonzeros, ±inf is max/min |x|, else (sum |x|^ord)^(1/ord).
Tensor VectorNorm(const Tensor& t, double ord, const Shape& dims, bool keepdim);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_
