// Pointwise ops: the overload follows the operands' kinds (a tensor or a Python number),
// and an operator's reflected form (a number on the left) has ATen ops of its own.
#include <fmt/format.h>

#include "reference/aot/args.h"
#include "reference/aot/lowering.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/values.h"

namespace tdc::aot {
namespace {

bool IsTensor(const Value& v) { return runtime::Is<runtime::PyTensor>(v); }

std::string Aten(std::string_view op, std::string_view overload) {
  return fmt::format("aten.{}.{}", op, overload);
}

// A binary op's operands: the tensor first. `reflected`: the program wrote the Python
// number on the left (`2.5 - x`, `3 < x`).
struct Operands {
  Value tensor;
  Value other;
  bool reflected = false;
};

Operands BinaryOperands(const OpCall& call) {
  Value self = call.Given(call.site.op->signature.params[0].name);
  Value other = call.Given(call.site.op->signature.params[1].name);
  if (IsTensor(self)) return {self, other, false};
  return {other, self, true};
}

void EmitBinary(Recorder& r, const OpCall& call, std::string_view op,
                std::string_view tensor_overload, std::string_view number_overload) {
  Operands o = BinaryOperands(call);
  std::string_view overload = IsTensor(o.other) ? tensor_overload : number_overload;
  r.Bind(call.result, r.Emit(Aten(op, overload), {r.ArgOf(o.tensor), r.ArgOf(o.other)}));
}

}  // namespace

// add, mul: commutative, so `2.5 + x` is x + 2.5.
void LowerAdd(Recorder& r, const OpCall& call) { EmitBinary(r, call, "add", "Tensor", "Tensor"); }
void LowerMul(Recorder& r, const OpCall& call) { EmitBinary(r, call, "mul", "Tensor", "Tensor"); }

void LowerSub(Recorder& r, const OpCall& call) {
  // Tensor.__rsub__: torch.rsub(x, 2.5).
  if (BinaryOperands(call).reflected) return EmitBinary(r, call, "rsub", "Tensor", "Scalar");
  EmitBinary(r, call, "sub", "Tensor", "Tensor");
}

void LowerDiv(Recorder& r, const OpCall& call) {
  Operands o = BinaryOperands(call);
  if (!o.reflected) return EmitBinary(r, call, "div", "Tensor", "Tensor");
  // Tensor.__rtruediv__: x.reciprocal() * 2.5.
  int64_t reciprocal = r.Emit("aten.reciprocal.default", {r.ArgOf(o.tensor)});
  r.Bind(call.result, r.Emit("aten.mul.Tensor", {graph::Arg::Ref(reciprocal), r.ArgOf(o.other)}));
}

void LowerPow(Recorder& r, const OpCall& call) {
  Operands o = BinaryOperands(call);
  if (!o.reflected) return EmitBinary(r, call, "pow", "Tensor_Tensor", "Tensor_Scalar");
  // Tensor.__rpow__: torch.pow(2.5, x).
  r.Bind(call.result, r.Emit("aten.pow.Scalar", {r.ArgOf(o.other), r.ArgOf(o.tensor)}));
}

// `x << n` and `x >> y` (Tensor.__lshift__ / __rshift__; a number on the left is refused).
void LowerShift(Recorder& r, const OpCall& call) {
  EmitBinary(r, call, call.site.op->name == "lshift" ? "__lshift__" : "__rshift__", "Tensor",
             "Scalar");
}

// eq ... ge; a reflected comparison reaches here already mirrored (`3 < x` is gt).
void LowerComparison(Recorder& r, const OpCall& call) {
  EmitBinary(r, call, call.site.op->name, "Tensor", "Scalar");
}

void LowerWhere(Recorder& r, const OpCall& call) {
  // A Python number becomes a 0-dim tensor of the result's dtype first.
  auto operand = [&](const Value& v) {
    if (IsTensor(v)) return r.ArgOf(v);
    graph::OrderedMap<graph::Arg> kwargs = {{"dtype", DTypeArg(call.Result().dtype)},
                                            {"layout", StridedLayout()},
                                            {"device", CpuDevice()}};
    return graph::Arg::Ref(r.Emit("aten.scalar_tensor.default", {r.ArgOf(v)}, std::move(kwargs)));
  };
  graph::Arg condition = r.ArgOf(call.Given("condition"));
  graph::Arg self = operand(call.Given("self"));
  graph::Arg other = operand(call.Given("other"));
  r.Bind(call.result, r.Emit("aten.where.self", {condition, self, other}));
}

void LowerUnary(Recorder& r, const OpCall& call) {
  r.Bind(call.result, r.Emit(Aten(call.site.op->name, "default"), {r.ArgOf(call.Given("self"))}));
}

void LowerExtreme(Recorder& r, const OpCall& call) {
  std::string_view op = call.site.target == "torch.maximum" ? "maximum" : "minimum";
  r.Bind(call.result, r.Emit(Aten(op, "default"), {r.ArgOf(call.args.positional.at(0)),
                                                   r.ArgOf(call.args.positional.at(1))}));
}

}  // namespace tdc::aot
