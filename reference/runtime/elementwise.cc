#include "reference/runtime/elementwise.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "reference/runtime/dispatch.h"
#include "reference/runtime/promotion.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

Operand OperandOf(const Arg& a) {
  if (a.tensor) return TensorOperand(*a.tensor);
  return {OperandKind::kPythonScalar, a.scalar.dtype};
}

// A Python scalar becomes a 0-dim tensor that keeps its full value (a float stays
// double), so the cast to the compute dtype rounds once, as torch's does.
Tensor AsTensor(const Arg& a) {
  if (a.tensor) return *a.tensor;
  DType dtype = IsFloating(a.scalar.dtype) ? DType::kFloat64 : a.scalar.dtype;
  return TensorFromValues(dtype, {}, {a.scalar});
}

// The output layout: row-major when every operand has the output's shape and is contiguous
// (TensorIterator's fast setup, which gives size-1 dimensions row-major strides too: probed,
// `x.nonzero().cos()`), else like the first full-shape operand when it is non-overlapping and
// dense (TensorIterator keeps such an operand's stride order), else row-major.
Tensor MakeOutput(const std::vector<Tensor>& inputs, const Shape& shape, DType dtype) {
  if (std::all_of(inputs.begin(), inputs.end(),
                  [&](const Tensor& t) { return t.sizes == shape && t.IsContiguous(); })) {
    return EmptyTensor(dtype, shape);
  }
  for (const Tensor& t : inputs) {
    if (t.sizes == shape && IsNonOverlappingAndDense(t)) return EmptyLike(t, dtype);
  }
  return EmptyTensor(dtype, shape);
}

// Applies f(elements...) -> Scalar over broadcast inputs, writing an output of dtype.
Tensor Pointwise(const std::vector<Tensor>& inputs, DType out_dtype,
                 const std::function<Scalar(const std::vector<Scalar>&)>& f) {
  Shape shape;
  for (const Tensor& t : inputs) shape = BroadcastShapes(shape, t.sizes);
  Tensor out = MakeOutput(inputs, shape, out_dtype);
  std::vector<std::vector<int64_t>> offsets;
  for (const Tensor& t : inputs) offsets.push_back(Expand(t, shape).ElementOffsets());
  std::vector<int64_t> out_offsets = out.ElementOffsets();
  std::vector<Scalar> args(inputs.size());
  for (size_t k = 0; k < out_offsets.size(); ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) args[i] = inputs[i].Load(offsets[i][k]);
    out.Store(out_offsets[k], f(args));
  }
  return out;
}

// Wrapping integer arithmetic, as torch's int64 kernels (two's complement).
int64_t Wrap(uint64_t v) { return static_cast<int64_t>(v); }

// torch's powi: exponentiation by squaring; a negative exponent gives 0 except for ±1.
int64_t IntPow(int64_t a, int64_t b) {
  if (b < 0) {
    if (a == 1) return 1;
    if (a == -1) return (b % 2 == 0) ? 1 : -1;
    return 0;
  }
  uint64_t result = 1, base = static_cast<uint64_t>(a);
  while (b) {
    if (b & 1) result *= base;
    b /= 2;
    base *= base;
  }
  return Wrap(result);
}

template <typename T>
T Arith(BinaryOp op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    // Bool add is logical or and mul logical and (torch computes in bool).
    switch (op) {
      case BinaryOp::kAdd:
        return a || b;
      case BinaryOp::kMul:
        return a && b;
      case BinaryOp::kPow:
        return a || !b;
      case BinaryOp::kSub:
      case BinaryOp::kDiv:
      case BinaryOp::kEq:
      case BinaryOp::kNe:
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
      case BinaryOp::kLShift:
      case BinaryOp::kRShift:
        break;
    }
    return false;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    switch (op) {
      case BinaryOp::kAdd:
        return Wrap(uint64_t(a) + uint64_t(b));
      case BinaryOp::kSub:
        return Wrap(uint64_t(a) - uint64_t(b));
      case BinaryOp::kMul:
        return Wrap(uint64_t(a) * uint64_t(b));
      case BinaryOp::kPow:
        return IntPow(a, b);
      // torch's CPU kernels: a shift by a negative amount or by the width or more gives 0
      // (left) or the sign (right); a left shift is of the unsigned bits.
      case BinaryOp::kLShift:
        return b < 0 || b >= 64 ? 0 : Wrap(uint64_t(a) << b);
      case BinaryOp::kRShift:
        return a >> (b < 0 || b >= 64 ? 63 : b);
      case BinaryOp::kDiv:
      case BinaryOp::kEq:
      case BinaryOp::kNe:
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
        break;
    }
    return 0;
  } else {
    switch (op) {
      case BinaryOp::kAdd:
        return a + b;
      case BinaryOp::kSub:
        return a - b;
      case BinaryOp::kMul:
        return a * b;
      case BinaryOp::kDiv:
        return a / b;
      case BinaryOp::kPow:
        return std::pow(a, b);
      case BinaryOp::kEq:
      case BinaryOp::kNe:
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
      case BinaryOp::kLShift:
      case BinaryOp::kRShift:
        break;
    }
    return 0;
  }
}

template <typename T>
bool Compare(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kEq:
      return a == b;
    case BinaryOp::kNe:
      return a != b;
    case BinaryOp::kLt:
      return a < b;
    case BinaryOp::kLe:
      return a <= b;
    case BinaryOp::kGt:
      return a > b;
    case BinaryOp::kGe:
      return a >= b;
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kPow:
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
      break;
  }
  return false;
}

bool IsComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return true;
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kPow:
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
      return false;
  }
  return false;
}

// Float-only unary math; integral inputs were already promoted to float32.
template <typename T>
T FloatMath(UnaryOp op, T x) {
  switch (op) {
    case UnaryOp::kSigmoid:
      return T(1) / (T(1) + std::exp(-x));
    case UnaryOp::kTanh:
      return std::tanh(x);
    case UnaryOp::kSin:
      return std::sin(x);
    case UnaryOp::kCos:
      return std::cos(x);
    case UnaryOp::kTan:
      return std::tan(x);
    case UnaryOp::kExp:
      return std::exp(x);
    case UnaryOp::kLog:
      return std::log(x);
    case UnaryOp::kSqrt:
      return std::sqrt(x);
    case UnaryOp::kNeg:
      return -x;
    case UnaryOp::kAbs:
      return std::abs(x);
    case UnaryOp::kRelu:
      return x > T(0) ? x : (std::isnan(x) ? x : T(0));
    // torch's GeluKernel: x * 0.5 * (1 + erf(x * M_SQRT1_2)) in the element type.
    case UnaryOp::kGelu:
      return x * T(0.5) * (T(1) + std::erf(x * T(M_SQRT1_2)));
  }
  return x;
}

bool KeepsDType(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg:
    case UnaryOp::kAbs:
    case UnaryOp::kRelu:
    case UnaryOp::kGelu:
      return true;
    case UnaryOp::kSigmoid:
    case UnaryOp::kTanh:
    case UnaryOp::kSin:
    case UnaryOp::kCos:
    case UnaryOp::kTan:
    case UnaryOp::kExp:
    case UnaryOp::kLog:
    case UnaryOp::kSqrt:
      return false;
  }
  return false;
}

}  // namespace

Tensor Binary(BinaryOp op, const Arg& a, const Arg& b) {
  DType common = ResultType({OperandOf(a), OperandOf(b)});
  // A Python bool is a wrapped bool tensor, so it counts as one of the bool operands.
  bool a_bool = OperandOf(a).dtype == DType::kBool, b_bool = OperandOf(b).dtype == DType::kBool;
  if (op == BinaryOp::kSub && a_bool && b_bool) {
    throw TorchError("RuntimeError",
                     "Subtraction, the `-` operator, with two bool tensors is not supported. "
                     "Use the `^` or `logical_xor()` operator instead.");
  }
  if (op == BinaryOp::kSub && (a_bool || b_bool)) {
    throw TorchError("RuntimeError",
                     "Subtraction, the `-` operator, with a bool tensor is not supported. If "
                     "you are trying to invert a mask, use the `~` or `logical_not()` operator "
                     "instead.");
  }
  // pow(bool tensor, Python bool) is defined; two bool tensors have no kernel.
  if (op == BinaryOp::kPow && common == DType::kBool && b.tensor) {
    throw TorchError("NotImplementedError", "\"pow\" not implemented for 'Bool'");
  }
  // The shifts have integral kernels only (a bool tensor with a Python int promotes to int64).
  if ((op == BinaryOp::kLShift || op == BinaryOp::kRShift) && common != DType::kInt64) {
    const std::string kernel = op == BinaryOp::kLShift ? "lshift_cpu" : "rshift_cpu";
    throw TorchError("NotImplementedError",
                     "\"" + kernel + "\" not implemented for '" + TorchTypeName(common) + "'");
  }
  // True division of integral operands computes in the default float dtype.
  if (op == BinaryOp::kDiv && !IsFloating(common)) common = DType::kFloat32;
  if (op == BinaryOp::kPow && !IsFloating(common) && !b.tensor && b.scalar.AsInt() < 0) {
    throw TorchError("RuntimeError", "Integers to negative integer powers are not allowed.");
  }
  DType out = IsComparison(op) ? DType::kBool : common;
  return VisitDType(common, [&](auto tag) {
    using T = decltype(tag);
    return Pointwise({AsTensor(a), AsTensor(b)}, out, [&](const std::vector<Scalar>& v) {
      T x = ScalarAs<T>(v[0]), y = ScalarAs<T>(v[1]);
      if (IsComparison(op)) return Scalar::Bool(Compare(op, x, y));
      return MakeScalar<T>(Arith(op, x, y), out);
    });
  });
}

Tensor Unary(UnaryOp op, const Tensor& t) {
  if (op == UnaryOp::kNeg && t.dtype == DType::kBool) {
    throw TorchError("RuntimeError",
                     "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                     "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  if (op == UnaryOp::kAbs && t.dtype == DType::kBool) {
    throw TorchError("NotImplementedError", "\"abs_cpu\" not implemented for 'Bool'");
  }
  if (op == UnaryOp::kRelu && t.dtype == DType::kBool) {
    throw TorchError("RuntimeError", "Boolean inputs not supported for relu");
  }
  if (op == UnaryOp::kGelu && !IsFloating(t.dtype)) {
    throw TorchError("NotImplementedError",
                     "\"GeluKernelImpl\" not implemented for '" + TorchTypeName(t.dtype) + "'");
  }
  // Float math on an integral tensor computes in the default float dtype.
  DType dtype = KeepsDType(op) || IsFloating(t.dtype) ? t.dtype : DType::kFloat32;
  return VisitDType(dtype, [&](auto tag) {
    using T = decltype(tag);
    return Pointwise({t}, dtype, [&](const std::vector<Scalar>& v) {
      T x = ScalarAs<T>(v[0]);
      if constexpr (std::is_same_v<T, int64_t>) {
        if (op == UnaryOp::kNeg) return Scalar::Int(Wrap(0 - uint64_t(x)));
        if (op == UnaryOp::kAbs) return Scalar::Int(x < 0 ? Wrap(0 - uint64_t(x)) : x);
        return Scalar::Int(x > 0 ? x : 0);  // relu
      } else if constexpr (std::is_same_v<T, bool>) {
        return Scalar::Bool(x);  // relu of bool keeps the value
      } else {
        return MakeScalar<T>(FloatMath(op, x), dtype);
      }
    });
  });
}

Tensor Where(const Tensor& cond, const Arg& a, const Arg& b) {
  if (cond.dtype != DType::kBool) {
    throw TorchError("RuntimeError",
                     "where expected condition to be a boolean tensor, but got a "
                     "tensor with dtype " +
                         TorchTypeName(cond.dtype));
  }
  DType common = ResultType({OperandOf(a), OperandOf(b)});
  return VisitDType(common, [&](auto tag) {
    using T = decltype(tag);
    return Pointwise({cond, AsTensor(a), AsTensor(b)}, common, [&](const std::vector<Scalar>& v) {
      return MakeScalar<T>(v[0].b ? ScalarAs<T>(v[1]) : ScalarAs<T>(v[2]), common);
    });
  });
}

}  // namespace tdc::runtime
