// A traced tensor's data read as a Python scalar by a call (R-data-dependent-branch, SEMANTICS
// §8.2): bool(t), int(t), float(t) and t.item(). torch 2.13.0 with capture_scalar_outputs
// off traces each as Tensor.item() (BuiltinVariable's bool / int / float of a
// TensorVariable call it) and breaks the graph at the call ("Unsupported Tensor.item() call
// with capture_scalar_outputs=False", gb0124): an ordinary call's break, so the call runs
// eagerly and its result, a Python constant, goes on to the resume function (golden
// data_dependent/data_reads). Under fullgraph=True torch captures the read in the graph
// instead (an `item` node, an unbacked symbol: probed), which the reference refuses.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// Tensor.item's builtin, the method torch.Tensor has from ops.def.
bool IsItemBuiltin(const Value& v) {
  const auto* b = DynCast<PyBuiltin>(v);
  return b != nullptr && b->name() == "Tensor.item";
}

}  // namespace

std::optional<std::string> Dynamo::ScalarReadOf(const Value& callee, const CallArgs& args) const {
  const std::vector<Value>& positional = args.positional;
  // t.item() (the bound method) and torch.Tensor.item(t).
  if (const auto* m = DynCast<PyMethod>(callee);
      m != nullptr && IsItemBuiltin(m->function) && Is<PyTensor>(m->self)) {
    return "Tensor.item()";
  }
  if (IsItemBuiltin(callee) && !positional.empty() && Is<PyTensor>(positional[0]))
    return "Tensor.item()";
  // bool(t), int(t), float(t): one positional tensor (int(t, base) is a TypeError eagerly).
  if (positional.size() != 1 || !args.keywords.empty() || !Is<PyTensor>(positional[0]))
    return std::nullopt;
  const BuiltinTypes& types = in_.process().types();
  for (const auto& [kind, name] :
       {std::pair{ObjectKind::kBool, "bool()"}, std::pair{ObjectKind::kInt, "int()"},
        std::pair{ObjectKind::kFloat, "float()"}}) {
    if (callee.get() == types.ForKind(kind).get()) return name;
  }
  return std::nullopt;
}

std::optional<Value> Dynamo::ScalarReadBreak(const Value& callee, CallArgs& args) {
  if (!rules_.on(Rule::kDataDependentBranch)) return std::nullopt;  // off: read at trace time
  std::optional<std::string> read = ScalarReadOf(callee, args);
  if (!read) return std::nullopt;
  if (Tracing()->callback->fullgraph) {
    RefuseNotModeled(fmt::format(
        "{} on a traced tensor under fullgraph=True (torch 2.13.0 captures the read in the graph "
        "as an unbacked scalar)",
        *read));
  }
  // t.item(): the tensor the method is bound to is on the stack at the call (LOAD_METHOD),
  // so the graph outputs it as a call's argument (golden data_dependent/data_reads).
  Value called = callee;
  if (const auto* m = DynCast<PyMethod>(callee)) {
    args.positional.insert(args.positional.begin(), m->self);
    called = m->function;
  }
  RealizeArguments(*Tracing(), args);
  return Break(ItemCallText(), called, args);
}

}  // namespace tdc::dynamo
