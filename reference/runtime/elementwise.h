// Pointwise CPU kernels: each promotes its operands as torch does and computes in the
// dtype torch computes in, so the exact ones (add, sub, mul, div, neg, abs, relu, where,
// comparisons) are bitwise equal to torch's default-capability CPU kernels.
#ifndef TDCONFORM_REFERENCE_RUNTIME_ELEMENTWISE_H_
#define TDCONFORM_REFERENCE_RUNTIME_ELEMENTWISE_H_

#include <optional>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kLShift,
  kRShift
};
enum class UnaryOp {
  kNeg,
  kAbs,
  kRelu,
  kSigmoid,
  kTanh,
  kSin,
  kCos,
  kTan,
  kExp,
  kLog,
  kSqrt,
  kGelu
};  // kGelu: F.gelu(approximate='none'), floating inputs only

// A pointwise operand: a tensor, or a Python scalar (bool, int or float) that promotes
// as a wrapped number.
struct Arg {
  std::optional<Tensor> tensor;
  Scalar scalar;
  static Arg Of(const Tensor& t) { return {t, {}}; }
  static Arg Python(const Scalar& s) { return {std::nullopt, s}; }
};

Tensor Binary(BinaryOp op, const Arg& a, const Arg& b);
Tensor Unary(UnaryOp op, const Tensor& t);
// torch.where(cond, a, b): cond must be bool; a and b promote together.
Tensor Where(const Tensor& cond, const Arg& a, const Arg& b);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_ELEMENTWISE_H_
