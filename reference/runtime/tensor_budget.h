// The sizes a tensor may have: torch's own checks where torch raises (negative sizes,
// sizes whose element count or byte count overflows), and the reference's budget where
// torch would allocate or iterate: a tensor torch can make but the reference will not
// hold (its outcome depends on the machine's memory and time: DefaultCPUAllocator's
// "can't allocate memory" or a long computation) is refused as not modeled (DESIGN D13),
// never answered with a guess.
#ifndef TDCONFORM_REFERENCE_RUNTIME_TENSOR_BUDGET_H_
#define TDCONFORM_REFERENCE_RUNTIME_TENSOR_BUDGET_H_

#include <cstdint>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// The most elements one tensor the reference makes or reads may have (2**24: 64 MiB of
// float32, several times that while a kernel works on it). Fixtures use tiny tensors.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 24;

// The product of `sizes`, or torch's RuntimeError "numel: integer multiplication
// overflow" (c10's TensorImpl::compute_numel, e.g. a view expanded to 2**32 x 2**32).
int64_t CheckedNumel(const Shape& sizes);

// Before fresh storage for a contiguous tensor is allocated: torch's empty_generic
// checks in its order (a negative size: "Trying to create tensor with negative dimension
// -1: [-1]"; then computeStorageNbytesContiguous: "Storage size calculation overflowed
// with sizes=[...]"; then the contiguous strides: "Stride calculation overflowed"), then the
// reference's budget.
void CheckNewStorage(const Shape& sizes, DType dtype);

// Before the reference walks every element of a tensor (possibly a view whose storage
// is small, such as an expand): the budget on elements.
void CheckElementBudget(const Shape& sizes);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_TENSOR_BUDGET_H_
