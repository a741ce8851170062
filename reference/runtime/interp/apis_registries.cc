// allow_in_graph, disallow_in_graph, forbid_in_graph, nonstrict_trace and leaf_function as
// torch 2.13.0 has them eagerly (torch/_dynamo/decorators.py): registrations by object id,
// with allow_in_graph's, nonstrict_trace's and leaf_function's weakref.finalize
// deregistration. A leaf function's call (the invoke_leaf_function higher-order op, with
// its autograd and escaped-gradient checks) is not modeled: it is refused, except the
// ValueError of one with no fake implementation, called eagerly.
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/registries.h"

namespace tdc::runtime {
namespace {

bool IsListOrTuple(const Value& v) { return Is<PyList>(v) || Is<PyTuple>(v); }

// The deregistration closure `def deregister(): ...` over one cell holding the id (an
// int made by id(fn)): the one function allow_in_graph makes (SEMANTICS §6 I10). It
// lives in the finalizer and dies when the finalizer has run.
Ref<PyFunction> MakeDeregister(Interpreter& in, const Value& globals, std::string_view qualname,
                               const Ref<PyCell>& id_cell) {
  Ref<PyTuple> closure = in.heap().NewTuple({id_cell});
  return apis::MakeLibFunction(
      in, globals, qualname, [&in](PyFunction&, CallArgs&) -> Value { return in.heap().None(); },
      closure);
}

Value AllowInGraph(Interpreter& in, const Value& globals, const Value& fn) {
  Heap& h = in.heap();
  if (IsListOrTuple(fn)) {
    std::vector<Value> out;
    for (const Value& item : in.Iterate(fn)) out.push_back(AllowInGraph(in, globals, item));
    return h.NewList(std::move(out));
  }
  if (!apis::IsCallable(in, fn))
    Raise(h, ExcType::kAssertionError, "allow_in_graph expects a callable");
  DynamoRegistries& reg = in.process().compiler.registries;
  const ObjectId id = fn->id();
  // trace_rules.lookup_callable(fn) is TorchInGraphFunctionVariable only for an id in the
  // allowed set and not in the disallowed one.
  if (reg.allowed.count(id) != 0 && reg.disallowed.count(id) == 0) return fn;
  reg.disallowed.erase(id);
  reg.allowed.insert(id);
  Ref<PyCell> id_cell = h.NewCell(h.Int(static_cast<int64_t>(id)));
  Ref<PyFunction> deregister =
      MakeDeregister(in, globals, "allow_in_graph.<locals>.deregister", id_cell);
  id_cell.Reset();
  Process* process = &in.process();
  h.AddFinalizer(fn, [process, id, deregister]() mutable {
    if (process->compiler.registries.allow_finalizer_deregisters)
      process->compiler.registries.allowed.erase(id);
    (void)deregister;
  });
  return fn;
}

Value DisallowInGraph(Interpreter& in, const Value& fn, bool throw_if_not_allowed) {
  Heap& h = in.heap();
  if (IsListOrTuple(fn)) {
    std::vector<Value> out;
    for (const Value& item : in.Iterate(fn)) out.push_back(DisallowInGraph(in, item, true));
    return h.NewList(std::move(out));
  }
  if (!apis::IsCallable(in, fn))
    Raise(h, ExcType::kAssertionError, "disallow_in_graph expects a callable");
  DynamoRegistries& reg = in.process().compiler.registries;
  const ObjectId id = fn->id();
  bool allowed = reg.allowed.count(id) != 0 && reg.disallowed.count(id) == 0;
  if (throw_if_not_allowed && !allowed && !apis::IsTorchInGraphByName(fn)) {
    Raise(h, ExcType::kRuntimeError,
          "disallow_in_graph is expected to be used on an already allowed callable (like torch.* "
          "ops). "
          "Allowed callables means callables that TorchDynamo puts as-is in the extracted graph.");
  }
  reg.allowed.erase(id);
  reg.nonstrict_trace.erase(id);
  reg.disallowed.insert(id);
  return fn;
}

Value ForbidInGraph(Interpreter& in, const Value& fn) {
  Heap& h = in.heap();
  if (IsListOrTuple(fn)) {
    std::vector<Value> out;
    for (const Value& item : in.Iterate(fn)) out.push_back(ForbidInGraph(in, item));
    return h.NewList(std::move(out));
  }
  if (!apis::IsCallable(in, fn))
    Raise(h, ExcType::kAssertionError, "forbid_in_graph applies only to callables");
  in.SetAttr(fn, markers::kForbidden, h.True());
  return fn;
}

// _check_mutually_exclusive_decorators(fn, decorator): a function is marked by one of
// leaf_function and nonstrict_trace at most.
void CheckMutuallyExclusive(Interpreter& in, const Value& fn, std::string_view decorator) {
  const DynamoRegistries& reg = in.process().compiler.registries;
  const bool other = decorator == "leaf_function" ? reg.nonstrict_trace.contains(fn->id())
                                                  : reg.leaf_function.contains(fn->id());
  if (other) {
    // The function's repr with its address as the goldens normalize it (0x?).
    const auto* f = DynCast<PyFunction>(fn);
    if (f == nullptr)
      RefuseNotModeled("the repr of a non-function in this ValueError is not modeled");
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("Function <function {} at 0x?> cannot be both marked as @leaf_function "
                      "and @nonstrict_trace. Please use only one decorator.",
                      f->qualname_text()));
  }
}

Value NonstrictTrace(Interpreter& in, const Value& globals, const Value& fn) {
  Heap& h = in.heap();
  if (!apis::IsCallable(in, fn))
    Raise(h, ExcType::kAssertionError, "nonstrict_trace expects a callable");
  CheckMutuallyExclusive(in, fn, "nonstrict_trace");
  // nonstrict_trace's frame makes its cells first: traceable_fn, then wrapped_id.
  Ref<PyCell> fn_cell = h.NewCell(fn);
  Ref<PyCell> id_cell = h.NewCell();
  Ref<PyTuple> closure = h.NewTuple({fn_cell});
  Ref<PyFunction> wrapped = apis::MakeLibFunction(
      in, globals, "nonstrict_trace.<locals>.wrapped",
      [&in](PyFunction& me, CallArgs& args) {
        Value target = DynCast<PyCell>(DynCast<PyTuple>(me.closure)->items()[0])->contents;
        return in.Call(target, std::move(args));
      },
      closure);
  apis::UpdateWrapper(in, wrapped, fn);
  const ObjectId id = wrapped->id();
  id_cell->contents = h.Int(static_cast<int64_t>(id));
  DynamoRegistries& reg = in.process().compiler.registries;
  reg.allowed.insert(id);
  reg.nonstrict_trace.insert(id);
  Ref<PyFunction> deregister =
      MakeDeregister(in, globals, "nonstrict_trace.<locals>.deregister", id_cell);
  id_cell.Reset();
  fn_cell.Reset();
  Process* process = &in.process();
  h.AddFinalizer(wrapped, [process, id, deregister]() mutable {
    process->compiler.registries.allowed.erase(id);
    process->compiler.registries.nonstrict_trace.erase(id);
    (void)deregister;
  });
  return wrapped;
}

// The wrapper's call, `inner(*args, **kwargs)`: its fake implementation is read when called.
Value CallLeafFunction(Interpreter& in, PyFunction& inner) {
  const CompilerState& c = in.process().compiler;
  const bool traced = c.eval_frame_callback || (c.op_observer && c.op_observer->RecordsOps());
  Value fake = in.GetAttr(Value(Ref<PyFunction>(&inner)), "_torchdynamo_leaf_fake_fn");
  if (!traced && Is<PyNone>(fake)) {
    Value real = in.GetAttr(Value(Ref<PyFunction>(&inner)), "_torchdynamo_leaf_real_fn");
    Value name = apis::GetAttrOrNull(in, real, "__name__");
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("leaf_function '{}' requires a fake implementation. Please provide one "
                      "using the @<func>.register_fake decorator. See the leaf_function "
                      "docstring for details.",
                      name && Is<PyStr>(name) ? Str(name) : ProgramRepr(real)));
  }
  RefuseNotModeled(
      "a call of a @leaf_function (torch's invoke_leaf_function higher-order op, its autograd "
      "and escaped-gradient checks) is not modeled");
}

// def leaf_function(fn=None, *, mutates_args=None): the wrapper `inner`
// (functools.wraps(fn)) with register_fake and register_multi_grad_hook, registered as an
// allowed callable and a leaf function.
Value LeafFunction(Interpreter& in, const Value& globals, CallArgs& args) {
  Heap& h = in.heap();
  std::vector<Value> bound =
      apis::BindParams(in, "leaf_function", {{"fn", true}, {"mutates_args", true, true}}, args);
  const Value& fn = bound[0];
  if (!fn || Is<PyNone>(fn)) {
    RefuseNotModeled("leaf_function(mutates_args=...) (a functools.partial) is not modeled");
  }
  if (bound[1] && !Is<PyNone>(bound[1]) && Truth(in, bound[1])) {
    RefuseNotModeled("leaf_function's mutates_args is not modeled");
  }
  if (!Is<PyFunction>(fn)) RefuseNotModeled("leaf_function of a non-function is not modeled");
  CheckMutuallyExclusive(in, fn, "leaf_function");
  Ref<PyFunction> inner = apis::MakeLibFunction(
      in, globals, "leaf_function.<locals>.inner",
      [&in](PyFunction& me, CallArgs&) -> Value { return CallLeafFunction(in, me); });
  apis::UpdateWrapper(in, inner, fn);
  Value self{inner};
  in.SetAttr(self, "_torchdynamo_leaf_real_fn", fn);
  for (std::string_view attr :
       {"_torchdynamo_leaf_fake_fn", "_torchdynamo_leaf_hook_fn", "_torchdynamo_leaf_hook_fake_fn"})
    in.SetAttr(self, attr, h.None());
  const ObjectId id = inner->id();
  DynamoRegistries& reg = in.process().compiler.registries;
  reg.allowed.insert(id);
  reg.leaf_function.insert(id);
  Process* process = &in.process();
  h.AddFinalizer(inner, [process, id]() {
    process->compiler.registries.allowed.erase(id);
    process->compiler.registries.leaf_function.erase(id);
  });
  // The setters close over `inner` (a cell, as in torch's frame).
  Ref<PyCell> inner_cell = h.NewCell(self);
  in.SetAttr(self, "register_fake",
             apis::MakeLibFunction(
                 in, globals, "leaf_function.<locals>.register_fake_setter",
                 [&in](PyFunction& me, CallArgs& call) -> Value {
                   Value fake = apis::BindParams(in, "leaf_function.<locals>.register_fake_setter",
                                                 {{"fake_fn"}}, call)[0];
                   Value target =
                       DynCast<PyCell>(DynCast<PyTuple>(me.closure)->items()[0])->contents;
                   in.SetAttr(target, "_torchdynamo_leaf_fake_fn", fake);
                   return target;
                 },
                 h.NewTuple({inner_cell})));
  in.SetAttr(self, "register_multi_grad_hook",
             apis::MakeLibFunction(in, globals, "leaf_function.<locals>.register_hook_setter",
                                   [](PyFunction&, CallArgs&) -> Value {
                                     RefuseNotModeled(
                                         "a @leaf_function's register_multi_grad_hook is not "
                                         "modeled");
                                   }));
  return self;
}

Value OneArg(Interpreter& in, std::string_view qualname, std::string_view param, CallArgs& args) {
  return apis::BindParams(in, qualname, {{param}}, args)[0];
}

}  // namespace

void InstallRegistryApis(Interpreter& in) {
  const Modules& modules = in.process().modules();
  PyModule& dynamo = *modules[ModuleId::kTorchDynamo];
  PyModule& compiler = *modules[ModuleId::kTorchCompiler];
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");

  dynamo.SetAttr("allow_in_graph",
                 apis::MakeLibFunction(in, decorators, "allow_in_graph",
                                       [&in, decorators](PyFunction&, CallArgs& args) -> Value {
                                         return AllowInGraph(
                                             in, decorators,
                                             OneArg(in, "allow_in_graph", "fn", args));
                                       }));
  // torch.compiler.allow_in_graph is its own function calling torch._dynamo's.
  compiler.SetAttr(
      "allow_in_graph",
      apis::MakeLibFunction(in, apis::LibGlobals(in, "torch.compiler"), "allow_in_graph",
                            [&in, decorators](PyFunction&, CallArgs& args) -> Value {
                              return AllowInGraph(in, decorators,
                                                  OneArg(in, "allow_in_graph", "fn", args));
                            }));
  dynamo.SetAttr("disallow_in_graph",
                 apis::MakeLibFunction(in, decorators, "disallow_in_graph",
                                       [&in](PyFunction&, CallArgs& args) -> Value {
                                         return DisallowInGraph(
                                             in, OneArg(in, "disallow_in_graph", "fn", args), true);
                                       }));
  dynamo.SetAttr("forbid_in_graph",
                 apis::MakeLibFunction(in, decorators, "forbid_in_graph",
                                       [&in](PyFunction&, CallArgs& args) -> Value {
                                         return ForbidInGraph(
                                             in, OneArg(in, "forbid_in_graph", "fn", args));
                                       }));
  modules[ModuleId::kTorchDynamoDecorators]->SetAttr(
      "leaf_function", apis::MakeLibFunction(in, decorators, "leaf_function",
                                             [&in, decorators](PyFunction&, CallArgs& args) {
                                               return LeafFunction(in, decorators, args);
                                             }));
  dynamo.SetAttr("nonstrict_trace",
                 apis::MakeLibFunction(in, decorators, "nonstrict_trace",
                                       [&in, decorators](PyFunction&, CallArgs& args) -> Value {
                                         return NonstrictTrace(
                                             in, decorators,
                                             OneArg(in, "nonstrict_trace", "traceable_fn", args));
                                       }));
}

}  // namespace tdc::runtime
