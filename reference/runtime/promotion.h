// Broadcasting and type promotion as torch applies them to an op's operands.
#ifndef TDCONFORM_REFERENCE_RUNTIME_PROMOTION_H_
#define TDCONFORM_REFERENCE_RUNTIME_PROMOTION_H_

#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// How an operand takes part in promotion (torch's ResultTypeState): dimensioned tensors
// decide first, then 0-dim tensors, then Python scalars ("wrapped numbers").
enum class OperandKind { kTensor, kZeroDimTensor, kPythonScalar };

struct Operand {
  OperandKind kind;
  // For a Python scalar: kBool for bool, kInt64 for int, kFloat64 for float (the default
  // dtype float32 is applied by promotion, as torch does for wrapped numbers).
  DType dtype;
};

// The common dtype of the four runtime dtypes (bool < int64 < float32 < float64).
DType PromoteTypes(DType a, DType b);
// torch.result_type over any number of operands.
DType ResultType(const std::vector<Operand>& operands);
// The operand a tensor is: kZeroDimTensor when it has no dims.
Operand TensorOperand(const Tensor& t);

// torch's infer_size over two shapes, with its error text naming tensors a and b.
Shape BroadcastShapes(const Shape& a, const Shape& b);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_PROMOTION_H_
