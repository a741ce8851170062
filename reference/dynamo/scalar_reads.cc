// A traced tensor's data read as Python values by a call (R-data-dependent-branch, SEMANTICS
// §8.2): bool(t), int(t), float(t), t.item() and t.tolist(). torch 2.13.0 with
// capture_scalar_outputs off traces the first four as Tensor.item() (BuiltinVariable's bool /
// int / float of a TensorVariable call it) and breaks the graph at the call ("Unsupported
// Tensor.item() call with capture_scalar_outputs=False", gb0124); tolist() breaks there too,
// "Tensor.tolist() with non-integer tensor" (gb0109) for a tensor not of int8 .. int64 (bool
// and floating ones), "Data dependent operator" (gb0033) for those (probed). Each is an ordinary
// call's break, so the call runs eagerly and its result, Python constants, goes on to the resume
// function (goldens data_dependent/data_reads, tolist_on_tensor). Under fullgraph=True torch
// captures the read in the graph instead (an `item` node, an unbacked symbol: probed), which the
// reference refuses.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// The tensor a call of Tensor.<method> (`t.<method>()`, torch.Tensor.<method>(t)) reads.
const PyTensor* MethodReceiver(const Value& callee, const CallArgs& args, std::string_view method) {
  auto is_method = [&](const Value& v) {
    const auto* b = DynCast<PyBuiltin>(v);
    return b != nullptr && b->name() == fmt::format("Tensor.{}", method);
  };
  if (const auto* m = DynCast<PyMethod>(callee); m != nullptr && is_method(m->function))
    return DynCast<PyTensor>(m->self);
  if (is_method(callee) && !args.positional.empty()) return DynCast<PyTensor>(args.positional[0]);
  return nullptr;
}

}  // namespace

std::optional<Dynamo::ScalarRead> Dynamo::ScalarReadOf(const Value& callee,
                                                       const CallArgs& args) const {
  const std::vector<Value>& positional = args.positional;
  if (MethodReceiver(callee, args, "item") != nullptr)
    return ScalarRead{"Tensor.item()", ItemCallText()};
  if (const PyTensor* t = MethodReceiver(callee, args, "tolist")) {
    // TensorVariable.method_tolist: only int8 .. int64 are read (element by element, item()).
    const DType dtype = t->tensor().dtype;
    if (dtype != DType::kInt8 && dtype != DType::kInt16 && dtype != DType::kInt32 &&
        dtype != DType::kInt64) {
      return ScalarRead{"Tensor.tolist()", TolistNonIntegerText()};
    }
    if (t->tensor().numel() == 0) {
      RefuseNotModeled("tolist() of an empty integer tensor (torch traces it, reading nothing)");
    }
    BreakText text = DataDependentOperatorText();
    text.then = BreakText::Then::kResume;  // at a call: an ordinary call's break
    return ScalarRead{"Tensor.tolist()", text};
  }
  // bool(t), int(t), float(t): one positional tensor (int(t, base) is a TypeError eagerly).
  if (positional.size() != 1 || !args.keywords.empty() || !Is<PyTensor>(positional[0]))
    return std::nullopt;
  const BuiltinTypes& types = in_.process().types();
  for (const auto& [kind, name] :
       {std::pair{ObjectKind::kBool, "bool()"}, std::pair{ObjectKind::kInt, "int()"},
        std::pair{ObjectKind::kFloat, "float()"}}) {
    if (callee.get() == types.ForKind(kind).get()) return ScalarRead{name, ItemCallText()};
  }
  return std::nullopt;
}

std::optional<Value> Dynamo::ScalarReadBreak(const Value& callee, CallArgs& args) {
  if (!rules_.on(Rule::kDataDependentBranch)) return std::nullopt;  // off: read at trace time
  std::optional<ScalarRead> read = ScalarReadOf(callee, args);
  if (!read) return std::nullopt;
  if (Tracing()->callback->fullgraph) {
    RefuseNotModeled(fmt::format(
        "{} on a traced tensor under fullgraph=True (torch 2.13.0 captures the read in the graph "
        "as an unbacked scalar)",
        read->name));
  }
  // t.item(): the tensor the method is bound to is on the stack at the call (LOAD_METHOD),
  // so the graph outputs it as a call's argument (golden data_dependent/data_reads).
  Value called = callee;
  if (const auto* m = DynCast<PyMethod>(callee)) {
    args.positional.insert(args.positional.begin(), m->self);
    called = m->function;
  }
  RealizeBreakArguments(*Tracing(), in_.frames().size() - 1, args);
  return Break(read->text, called, args);
}

}  // namespace tdc::dynamo
