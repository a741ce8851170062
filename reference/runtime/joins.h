// Ops whose output shape depends on several inputs or on data: cat and nonzero.
#ifndef TDCONFORM_REFERENCE_RUNTIME_JOINS_H_
#define TDCONFORM_REFERENCE_RUNTIME_JOINS_H_

#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// torch.cat: promotes dtypes; legacy 1-D empty tensors are skipped as torch does.
Tensor Cat(const std::vector<Tensor>& tensors, int64_t dim);
// torch.nonzero: an int64 [count, dim] tensor of the indices of nonzero elements.
Tensor Nonzero(const Tensor& t);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_JOINS_H_
