// Calls Dynamo keeps opaque (issue 12; the seed guide's Dynamo-vs-AOT table). A
// nonstrict_trace'd function is one node at the Dynamo level, as torch 2.13.0 spells it
// (spec §3.2a fact 3): two get_attr nodes (`<fn>_callable`, `<fn>_input_spec`), a call of
// flat_apply_capture on them and the flattened arguments, an operator.getitem per tensor of
// the flattened result; AOT autograd traces through the function. A custom op made by
// torch.library.custom_op, called through its CustomOpDef or through
// torch.ops.<ns>.<op>[.default], is one node in the Dynamo graph (`<ns>.<op>.default`, or
// `<ns>.<op>` for the packet) and one `<ns>.<op>.default` node in the ATen graph; its
// implementation runs eagerly (register_fake's function only gives shapes, which the real
// run gives too).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// torch.utils._pytree's leaves of a call's arguments or result: through tuples, lists and
// dict values, in order.
void Flatten(const Value& v, std::vector<Value>& leaves, WalkPath& path) {
  const std::vector<Value>* items = ItemsOf(v);
  const auto* dict = DynCast<PyDict>(v);
  if (items == nullptr && dict == nullptr) {
    leaves.push_back(v);
    return;
  }
  RefuseIfInside(path, v, "a container holding itself, flattened by torch.utils._pytree");
  Inside inside(path, v);
  if (items != nullptr) {
    for (const Value& item : *items) Flatten(item, leaves, path);
  } else {
    for (const auto& [key, value] : dict->Items()) Flatten(value, leaves, path);
  }
}

void Flatten(const Value& v, std::vector<Value>& leaves) {
  WalkPath path;
  Flatten(v, leaves, path);
}

// A leaf nonstrict_trace passes through flat_apply: a tensor or a Python constant.
bool IsNonstrictLeaf(const Value& v) {
  return Is<PyTensor>(v) || Is<PyInt>(v) || Is<PyFloat>(v) || Is<PyBool>(v) || Is<PyNone>(v);
}

constexpr const char* kFlatApply =
    "torch._dynamo.variables.torch.TorchInGraphFunctionVariable._call_nonstrict_traceable_function."
    "<locals>."
    "flat_apply_capture";

}  // namespace

Value Dynamo::AssumedConstantCall(const Value& callee, CallArgs& args) {
  // invoke_and_store_as_constant (variables/functions.py): tensors are passed as their
  // real values, other arguments as Python constants; the result is registered as a
  // constant (a tensor one would be a get_attr: not modeled).
  auto check = [&](const Value& v) {
    if (!Is<PyTensor>(v) && !IsPythonConstant(v)) {
      RefuseNotModeled(fmt::format(
          "an assume_constant_result function's {} argument is not modeled", TypeName(v)));
    }
  };
  // The reference runs a cached frame's code again: the call would give the new values'
  // result, where torch's cached code keeps the traced one (no guard on it).
  if (!Tracing()->record) {
    RefuseNotModeled(
        "a cached frame's call of an assume_constant_result function (torch keeps the traced "
        "result) is not modeled");
  }
  for (const Value& v : args.positional) check(v);
  for (const auto& [name, v] : args.keywords) check(v);
  RealizeArguments(*Tracing(), args);  // their guards, no placeholder
  Explain(fmt::format("{} is assume_constant_result'd: run now, its result a constant",
                      FunctionReprOf(callee)));
  Value result;
  {
    EagerRegion eager(*this, true);
    result = in_.CallDirect(callee, std::move(args));
  }
  if (!IsPythonConstant(result)) {
    RefuseNotModeled(fmt::format("an assume_constant_result function returning a {} is not modeled",
                                 TypeName(result)));
  }
  return result;
}

bool Dynamo::DefinedInTrace(const Value& fn) const {
  const auto* f = DynCast<PyFunction>(fn);
  if (f == nullptr || f->is_native()) return false;
  const auto& code = std::get<UserCode>(f->code);
  const Scope* parent =
      std::static_pointer_cast<const Program>(code.keep_alive)->scopes.Of(code.def).parent;
  const Trace* t = Tracing();
  for (size_t depth = t->root_depth; parent != nullptr && depth < in_.frames().size(); ++depth) {
    const Frame& frame = *in_.frames()[depth];
    if (!frame.function->is_native() &&
        std::get<UserCode>(frame.function->code).def == parent->node)
      return true;
  }
  return false;
}

Value Dynamo::NonstrictCall(const Value& wrapper, CallArgs& args) {
  Value traceable =
      DynCast<PyCell>(DynCast<PyTuple>(DynCast<PyFunction>(wrapper)->closure)->items()[0])
          ->contents;
  CallArgs flat;
  for (const Value& v : args.positional) Flatten(v, flat.positional);
  for (const auto& [name, v] : args.keywords) Flatten(v, flat.positional);
  // Leaves it accepts: tensors and constants (golden
  // nonstrict_trace/invalid_input_and_output_types).
  for (const Value& leaf : flat.positional) {
    if (!IsNonstrictLeaf(leaf) && !Is<PyStr>(leaf)) {
      return Break(NonstrictInputTypeText(std::string(TypeName(leaf))), wrapper, args);
    }
  }
  CallArgs as_called = args;
  Value returned;
  const size_t changes_begin = changes_.size();
  {
    // The function runs inside the graph: no frame of it is offered, its breaks vanish.
    EagerRegion eager(*this, true);
    returned = in_.CallDirect(wrapper, CallArgs(args));
  }
  std::vector<Value> outputs;
  Flatten(returned, outputs);
  const auto* function = DynCast<PyFunction>(traceable);
  const std::string name(function != nullptr ? function->name_text() : std::string_view("fn"));
  if (!std::all_of(outputs.begin(), outputs.end(), IsNonstrictLeaf)) {
    return Break(NonstrictOutputTypeText(name), wrapper, args);  // the call runs again, eagerly
  }
  Trace& t = *Tracing();
  t.inlined_calls.push_back({in_.frames().size() - 1, wrapper, as_called,
                             LineOf(*in_.frames().back()), changes_begin,
                             changes_.size()});  // run eagerly, it is a frame
  std::vector<graph::Arg> leading = {t.graph.AddGetAttr(name + "_callable"),
                                     t.graph.AddGetAttr(name + "_input_spec")};
  t.graph.AddCall(graph::NodeOp::kCallFunction, kFlatApply, flat,
                  in_.heap().NewTuple(std::move(outputs)),
                  AotTrace(traceable, as_called, ForeignTensor::kConstant), false,
                  std::move(leading), OpaqueCall{traceable, as_called});
  return returned;
}

std::string InstanceText(const Value& v, const char* attr) {
  const auto* instance = DynCast<PyInstance>(v);
  const auto* s = instance != nullptr ? DynCast<PyStr>(instance->attrs->GetStr(attr)) : nullptr;
  return s != nullptr ? s->value() : "";
}

std::optional<std::string> CustomOpTarget(const Value& callee) {
  const auto* op = DynCast<PyInstance>(callee);
  if (op == nullptr) return std::nullopt;
  auto text = [&](const char* attr) { return InstanceText(callee, attr); };
  const PyType& type = *op->type;
  std::string qualified;  // ns::op
  std::string overload = ".default";
  if (type.module == "torch._library.custom_ops" && type.name == "CustomOpDef") {
    qualified = text("_namespace") + "::" + text("_name");
  } else if (type.module == "torch._ops" && type.name == "OpOverloadPacket") {
    qualified = text("_qualified_op_name");
    overload = "";  // Dynamo's node is the packet; AOT autograd resolves it
  } else if (type.module == "torch._ops" && type.name == "OpOverload" &&
             text("_overloadname") == "default") {
    qualified = text("_name");
  }
  size_t sep = qualified.find("::");
  if (sep == std::string::npos || qualified.starts_with("aten::")) return std::nullopt;
  return fmt::format("{}.{}{}", qualified.substr(0, sep), qualified.substr(sep + 2), overload);
}

Value Dynamo::CustomOpCall(const Value& callee, CallArgs& args, const std::string& target) {
  // Dynamo runs a custom op's fake kernel: a Library op without one registered fails there.
  if (apis::GetAttrOrNull(in_, callee, runtime::markers::kDefinedByLibrary) &&
      !apis::GetAttrOrNull(in_, callee, runtime::markers::kLibraryFake)) {
    RefuseNotModeled(fmt::format(
        "a call of {}, an op torch.library.Library defined without a fake kernel, in traced code",
        target));
  }
  CallArgs as_called = args;
  Value result;
  {
    // The implementation runs inside the op: no frame of it is offered to Dynamo.
    EagerRegion eager(*this, true);
    result = in_.CallDirect(callee, std::move(args));
  }
  Fragment fragment = Fragment::Unsupported("no ATen lowering was given");
  if (aten_ != nullptr) {
    // The op's node takes its arguments only: its implementation is not traced.
    std::unique_ptr<FragmentRecorder> recorder =
        aten_->Start(TensorsOf(as_called), ForeignTensor::kConstant);
    RecordCustomOp(*recorder, target, as_called, result);
    fragment = recorder->Finish(result);
  }
  Tracing()->graph.AddCall(graph::NodeOp::kCallFunction, target, as_called, result,
                           std::move(fragment), false, {}, OpaqueCall{callee, as_called});
  return result;
}

void Dynamo::RecordCustomOp(FragmentRecorder& recorder, const std::string& target,
                            const CallArgs& as_called, const Value& result) {
  // At the ATen level a packet's call is its default overload's.
  const std::string overload = target.ends_with(".default") ? target : target + ".default";
  OpCallSite site;
  site.target = overload;
  site.opaque = true;
  recorder.Record(site, as_called, result);
}

Value Dynamo::AotCustomOpCall(const Value& callee, CallArgs& args, const std::string& target) {
  CallArgs as_called = args;
  Value result;
  {
    // AOT autograd does not trace into a custom op: its implementation's ops are not the
    // body's (an allowed or nonstrict_trace'd body calling one; fuzz, found by the oracle).
    FragmentRecorder* body = std::exchange(body_recorder_, nullptr);
    struct Restore {
      FragmentRecorder*& slot;
      FragmentRecorder* saved;
      ~Restore() { slot = saved; }
    } restore{body_recorder_, body};
    result = in_.CallDirect(callee, std::move(args));
  }
  if (body_recorder_ != nullptr) RecordCustomOp(*body_recorder_, target, as_called, result);
  return result;
}

}  // namespace tdc::dynamo
