// torch.matmul on CPU: dot, mv, mm, bmm and batch broadcasting, with torch's shape rules.
// Its accumulation order differs from BLAS, so results are compared within tolerance.
#ifndef TDCONFORM_REFERENCE_RUNTIME_MATMUL_H_
#define TDCONFORM_REFERENCE_RUNTIME_MATMUL_H_

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

Tensor Matmul(const Tensor& a, const Tensor& b);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_MATMUL_H_
