// Each formula is the one the reference's eager run uses for the same call, so a graph's
// value is bit for bit what tracing computed: reflected operators as py_ops.cc's
// TensorOperation (torch/_tensor.py's __radd__, __rtruediv__ = self.reciprocal() * other,
// ...), maximum/minimum elementwise with NaN winning, as torch.maximum does.
#include "reference/backends/special_nodes.h"

#include <fmt/format.h>

#include <cmath>

#include "reference/runtime/elementwise.h"
#include "reference/runtime/spectral.h"

namespace tdc::backends {

using runtime::Arg;
using runtime::BinaryOp;
using runtime::OpValue;
using runtime::Scalar;
using runtime::Tensor;

namespace {

using Result = std::optional<std::variant<OpValue, std::string>>;

std::optional<BinaryOp> ReflectedOperator(std::string_view target) {
  if (target == "operator.add") return BinaryOp::kAdd;
  if (target == "operator.mul") return BinaryOp::kMul;
  if (target == "operator.sub") return BinaryOp::kSub;
  if (target == "operator.truediv") return BinaryOp::kDiv;
  if (target == "operator.pow") return BinaryOp::kPow;
  return std::nullopt;
}

Tensor Reflected(BinaryOp op, const Scalar& left, const Tensor& right) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kMul:
      return runtime::Binary(op, Arg::Of(right), Arg::Python(left));
    case BinaryOp::kDiv: {
      Tensor reciprocal =
          runtime::Binary(BinaryOp::kDiv, Arg::Python(Scalar::Int(1)), Arg::Of(right));
      return runtime::Binary(BinaryOp::kMul, Arg::Of(reciprocal), Arg::Python(left));
    }
    case BinaryOp::kSub:
    case BinaryOp::kPow:
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      break;
  }
  return runtime::Binary(op, Arg::Python(left), Arg::Of(right));
}

// torch.maximum / torch.minimum of two tensors of one dtype and shape.
std::variant<OpValue, std::string> Extreme(const Tensor& a, const Tensor& b, bool maximum) {
  if (a.dtype != b.dtype || a.sizes != b.sizes)
    return std::string("maximum/minimum of two tensors of one dtype and shape only");
  std::vector<Scalar> x = a.Values(), y = b.Values(), out;
  for (size_t i = 0; i < x.size(); ++i) {
    const double u = x[i].AsDouble(), v = y[i].AsDouble();
    const bool take_a = std::isnan(u) || (!std::isnan(v) && (maximum ? u >= v : u <= v));
    out.push_back(take_a ? x[i] : y[i]);
  }
  return OpValue::Of(runtime::TensorFromValues(a.dtype, a.sizes, out));
}

}  // namespace

std::variant<OpValue, std::string> Select(const Tensor& t, int64_t dim, int64_t index) {
  if (t.dim() == 0) return std::string("select() of a 0-dim tensor");
  const int64_t d = runtime::WrapDim(dim, t.dim());
  const int64_t size = t.sizes[static_cast<size_t>(d)];
  if (index < -size || index >= size)
    return fmt::format("select(): index {} out of range for size {}", index, size);
  Tensor out = t;
  out.storage_offset += (index < 0 ? index + size : index) * t.strides[static_cast<size_t>(d)];
  out.sizes.erase(out.sizes.begin() + d);
  out.strides.erase(out.strides.begin() + d);
  return OpValue::Of(out);
}

namespace {

std::optional<runtime::DType> DTypeKeyword(const Keywords& kwargs) {
  for (const auto& [name, v] : kwargs) {
    if (name == "dtype" && v.kind == OpValue::Kind::kDType) return v.dtype;
  }
  return std::nullopt;
}

bool IsTensor(const OpValue& v) { return v.kind == OpValue::Kind::kTensor; }
bool IsInt(const OpValue& v) { return v.IsInt(); }
bool IsNumber(const OpValue& v) { return v.kind == OpValue::Kind::kScalar; }

}  // namespace

Result RunSpecialNode(std::string_view target, const std::vector<OpValue>& args,
                      const Keywords& kwargs) {
  if (std::optional<BinaryOp> op = ReflectedOperator(target)) {
    if (args.size() != 2 || !IsNumber(args[0]) || !IsTensor(args[1])) return std::nullopt;
    return OpValue::Of(Reflected(*op, args[0].scalar, args[1].tensor));
  }
  if (target == "torch.maximum" || target == "torch.minimum" || target == "aten.maximum.default" ||
      target == "aten.minimum.default") {
    if (args.size() != 2 || !IsTensor(args[0]) || !IsTensor(args[1]))
      return std::string("two tensors expected");
    return Extreme(args[0].tensor, args[1].tensor,
                   target.find("maximum") != std::string_view::npos);
  }
  if (target == "aten.rsub.Scalar" && args.size() == 2 && IsTensor(args[0]) && IsNumber(args[1])) {
    return OpValue::Of(
        runtime::Binary(BinaryOp::kSub, Arg::Python(args[1].scalar), Arg::Of(args[0].tensor)));
  }
  if (target == "aten.pow.Scalar" && args.size() == 2 && IsNumber(args[0]) && IsTensor(args[1])) {
    return OpValue::Of(
        runtime::Binary(BinaryOp::kPow, Arg::Python(args[0].scalar), Arg::Of(args[1].tensor)));
  }
  // fft as the runtime computes it: a real tensor with a trailing dim of 2 (real, imag),
  // which is view_as_real's form already.
  if (target == "aten._fft_r2c.default" && args.size() == 4 && IsTensor(args[0]) &&
      args[1].items.size() == 1 && args[2].scalar.AsInt() == 0 && !args[3].scalar.AsBool()) {
    return OpValue::Of(
        runtime::FftAsReal(args[0].tensor, std::nullopt, args[1].items[0].scalar.AsInt()));
  }
  if (target == "aten.view_as_real.default" && args.size() == 1 && IsTensor(args[0]))
    return args[0];
  if (target == "aten.select.int" && args.size() == 3 && IsTensor(args[0]) && IsInt(args[1]) &&
      IsInt(args[2])) {
    return Select(args[0].tensor, args[1].scalar.AsInt(), args[2].scalar.AsInt());
  }
  if (target == "aten.reciprocal.default" && args.size() == 1 && IsTensor(args[0])) {
    return OpValue::Of(
        runtime::Binary(BinaryOp::kDiv, Arg::Python(Scalar::Int(1)), Arg::Of(args[0].tensor)));
  }
  if (target == "aten.scalar_tensor.default" && args.size() == 1 && IsNumber(args[0])) {
    // torch.scalar_tensor: float32 unless a dtype is given.
    const runtime::DType dtype = DTypeKeyword(kwargs).value_or(runtime::DType::kFloat32);
    return OpValue::Of(runtime::TensorFromValues(dtype, {}, {args[0].scalar}));
  }
  return std::nullopt;
}

}  // namespace tdc::backends
