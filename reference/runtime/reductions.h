// Reductions over all dims or a dim list. Their summation order differs from torch's
// vectorized cascade, so their results are compared within the tolerance table.
#ifndef TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_
#define TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

enum class ReduceOp { kSum, kMean, kAmax };

// dims empty = every dim (torch's dim=None, and amax's dim=()).
Tensor Reduce(ReduceOp op, const Tensor& t, const Shape& dims, bool keepdim);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_REDUCTIONS_H_
