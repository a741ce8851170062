// The kernel of every ops.def row: reads its bound arguments and calls the runtime's
// tensor functions (elementwise.h, views.h, ...), which hold the semantics.
#ifndef TDCONFORM_REFERENCE_RUNTIME_OP_KERNELS_H_
#define TDCONFORM_REFERENCE_RUNTIME_OP_KERNELS_H_

#include "reference/runtime/op_signature.h"

namespace tdc::runtime::kernels {

#define TDC_OP(name, Kernel, function, method, python_operator, signature, traits) \
  OpValue Kernel(const BoundArgs& args);
#include "reference/runtime/ops.def"
#undef TDC_OP

}  // namespace tdc::runtime::kernels

#endif  // TDCONFORM_REFERENCE_RUNTIME_OP_KERNELS_H_
