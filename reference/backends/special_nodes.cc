// Each formula is the one the reference's eager run uses for the same call, so a graph's
// value is bit for bit what tracing computed: reflected operators as py_ops.cc's
// TensorOperation (torch/_tensor.py's __radd__, __rtruediv__ = self.reciprocal() * other,
// ...), maximum/minimum elementwise with NaN winning, as torch.maximum does.
#include "reference/backends/special_nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reference/runtime/advanced_index.h"
#include "reference/runtime/elementwise.h"
#include "reference/runtime/indexing.h"
#include "reference/runtime/spectral.h"
#include "reference/runtime/views.h"

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
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
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

namespace {

// A kernel's TorchError as the node's error text.
template <typename F>
std::variant<OpValue, std::string> Guarded(F compute) {
  try {
    return OpValue::Of(compute());
  } catch (const runtime::TorchError& e) {
    return fmt::format("{}: {}", e.type(), e.what());
  }
}

// One item of a graph's index, as the runtime's indexing reads the Python value.
std::optional<runtime::TensorIndex> IndexItem(
    const graph::Arg& a, const std::function<const OpValue&(int64_t)>& value_of) {
  using Kind = runtime::TensorIndex::Kind;
  runtime::TensorIndex item;
  auto bound = [](const graph::Arg& b, int64_t absent) {
    return b.kind == graph::ValueKind::kInt ? b.integer : absent;
  };
  switch (a.kind) {
    case graph::ValueKind::kInt:
      item.kind = Kind::kInteger;
      item.integer = a.integer;
      return item;
    case graph::ValueKind::kBool:
      item.kind = Kind::kBoolean;
      item.boolean = a.boolean;
      return item;
    case graph::ValueKind::kNone:
      item.kind = Kind::kNone;
      return item;
    case graph::ValueKind::kEllipsis:
      item.kind = Kind::kEllipsis;
      return item;
    case graph::ValueKind::kSlice:
      // Ints or None only (the graphs Dynamo records for the subset's programs).
      if (a.items.size() != 3) return std::nullopt;
      for (const graph::Arg& b : a.items) {
        if (b.kind != graph::ValueKind::kInt && b.kind != graph::ValueKind::kNone)
          return std::nullopt;
      }
      item.kind = Kind::kSlice;
      item.step = bound(a.items[2], 1);
      if (item.step <= 0) return std::nullopt;
      item.start = bound(a.items[0], 0);
      item.stop = bound(a.items[1], std::numeric_limits<int64_t>::max());
      return item;
    case graph::ValueKind::kRef: {
      const OpValue& v = value_of(a.integer);
      if (v.kind != OpValue::Kind::kTensor) return std::nullopt;
      item.kind = Kind::kTensor;
      item.tensor = v.tensor;
      return item;
    }
    case graph::ValueKind::kTensor:
    case graph::ValueKind::kFloat:
    case graph::ValueKind::kStr:
    case graph::ValueKind::kTuple:
    case graph::ValueKind::kList:
    case graph::ValueKind::kDict:
    case graph::ValueKind::kDtype:
    case graph::ValueKind::kDevice:
    case graph::ValueKind::kCallable:
    case graph::ValueKind::kRepr:
    case graph::ValueKind::kLayout:
    case graph::ValueKind::kMemoryFormat:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::variant<OpValue, std::string> Select(const Tensor& t, int64_t dim, int64_t index) {
  return Guarded([&] { return runtime::Select(t, dim, index); });
}

std::variant<OpValue, std::string> TensorGetItem(
    const Tensor& self, const graph::Arg& key,
    const std::function<const OpValue&(int64_t)>& value_of) {
  const bool tuple = key.kind == graph::ValueKind::kTuple;
  std::vector<runtime::TensorIndex> items;
  for (const graph::Arg& a : tuple ? key.items : std::vector<graph::Arg>{key}) {
    std::optional<runtime::TensorIndex> item = IndexItem(a, value_of);
    if (!item) {
      return fmt::format("an index item of kind {} is outside the interpreter",
                         graph::ValueKindName(a.kind));
    }
    items.push_back(std::move(*item));
  }
  // A tensor key takes torch's tuple path, as the runtime's indexing does.
  const bool as_tuple = tuple || key.kind == graph::ValueKind::kRef;
  return Guarded([&] { return runtime::ApplyIndex(self, items, as_tuple).result; });
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
    return backends::Select(args[0].tensor, args[1].scalar.AsInt(), args[2].scalar.AsInt());
  }
  // Tensor indexing's ATen ops: slice(self, dim, start, end[, step]) as AOT autograd writes
  // it, alias, and index(self, [None | Tensor, ...]).
  if (target == "aten.slice.Tensor" && args.size() >= 4 && args.size() <= 5 && IsTensor(args[0]) &&
      std::all_of(args.begin() + 1, args.end(), IsInt)) {
    return Guarded([&] {
      return runtime::Slice(args[0].tensor, args[1].scalar.AsInt(), args[2].scalar.AsInt(),
                            args[3].scalar.AsInt(), args.size() == 5 ? args[4].scalar.AsInt() : 1);
    });
  }
  if (target == "aten.alias.default" && args.size() == 1 && IsTensor(args[0])) {
    return OpValue::Of(runtime::Alias(args[0].tensor));
  }
  if (target == "aten.index.Tensor" && args.size() == 2 && IsTensor(args[0]) &&
      args[1].kind == OpValue::Kind::kList) {
    std::vector<std::optional<Tensor>> indices;
    for (const OpValue& v : args[1].items) {
      if (v.kind == OpValue::Kind::kNone) {
        indices.push_back(std::nullopt);
      } else if (IsTensor(v)) {
        indices.push_back(v.tensor);
      } else {
        return std::string("aten.index.Tensor: an index that is neither None nor a tensor");
      }
    }
    return Guarded([&] { return runtime::Index(args[0].tensor, indices); });
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
