// torch.compiler.disable, torch._dynamo.disable and is_dynamo_disable_recursive as torch
// 2.13.0 has them (torch/_dynamo/decorators.py, eval_frame.py DisableContext,
// external_utils.get_nonrecursive_disable_wrapper). Eagerly a wrapper just calls the
// function it wraps; what it carries (its attributes, its closure) is what Dynamo reads.
#include <memory>
#include <unordered_map>
#include <utility>

#include "reference/runtime/interp/apis_support.h"

namespace tdc::runtime {
namespace {

using apis::Param;

// A DisableContext's own state. CPython keeps an instance's attributes inline (no dict
// object), and its __init__ makes two lists (cleanup_fns, enter_exit_hooks) that live as
// long as it does; the model keeps them here, keyed by the instance, and drops them when
// the instance dies.
struct ContextState {
  Value msg;
  Value wrapping;
  Ref<PyList> cleanup_fns;
  Ref<PyList> enter_exit_hooks;
};
using ContextTable = std::unordered_map<const Object*, ContextState>;

struct DisableLib {
  Value eval_frame_globals;      // torch._dynamo.eval_frame
  Value external_utils_globals;  // torch._dynamo.external_utils
  Value decorators_globals;      // torch._dynamo.decorators
  Ref<PyType> context_type;      // DisableContext
  Ref<PyDict> shared_attrs;      // the (empty) attribute dict every context instance shows
  std::shared_ptr<ContextTable> contexts = std::make_shared<ContextTable>();
};

Value NewDisableContext(Interpreter& in, DisableLib& lib, Value msg, Value wrapping) {
  Ref<PyInstance> ctx = in.heap().NewInstance(lib.context_type);
  // The dict NewInstance made dies at once (a balanced transient, I7): CPython's instance
  // has no dict object.
  ctx->attrs = lib.shared_attrs;
  ContextState state{std::move(msg), std::move(wrapping), in.heap().NewList(), in.heap().NewList()};
  lib.contexts->emplace(ctx.get(), std::move(state));
  std::weak_ptr<ContextTable> table = lib.contexts;
  const Object* key = ctx.get();
  in.heap().AddFinalizer(ctx, [table, key] {
    if (auto t = table.lock()) {
      auto it = t->find(key);
      if (it == t->end()) return;
      ContextState dying = std::move(it->second);
      t->erase(it);
      // Inline attribute values drop in the order __init__ set them.
      dying.cleanup_fns.Reset();
      dying.enter_exit_hooks.Reset();
      dying.msg.Reset();
      dying.wrapping.Reset();
    }
  });
  return ctx;
}

// DisableContext.__call__(self, fn).
Value ApplyContext(Interpreter& in, DisableLib& lib, const Value& self, Value fn) {
  Heap& h = in.heap();
  // Frame start: the cells of `self` and `fn` (co_cellvars in argument order).
  Ref<PyCell> self_cell = h.NewCell(self);
  Ref<PyCell> fn_cell = h.NewCell(fn);
  fn = apis::InnermostFn(in, fn);
  fn_cell->contents = fn;
  if (!apis::IsCallable(in, fn)) {
    Raise(h, ExcType::kAssertionError,
          fmt::format("A callable function is expected, but {} is provided.",
                      apis::TypeRepr(in, fn)));
  }
  const ContextState& state = lib.contexts->at(self.get());
  Value msg = state.msg;
  bool wrapping = Truth(in, state.wrapping);
  // _fn's closure: co_freevars sorted, ('fn', 'self').
  Ref<PyTuple> closure = h.NewTuple({fn_cell, self_cell});
  Ref<PyFunction> wrapper = apis::MakeLibFunction(
      in, lib.eval_frame_globals, "DisableContext.__call__.<locals>._fn",
      [&in](PyFunction& me, CallArgs& args) {
        const auto* cells = DynCast<PyTuple>(me.closure);
        Value target = DynCast<PyCell>(cells->items()[0])->contents;
        // DisableContext: the eval-frame callback is None for the call's extent.
        EvalFrameCallbackScope no_callback(in.process().compiler, nullptr);
        return in.Call(target, std::move(args));
      },
      closure);
  if (wrapping) apis::UpdateWrapper(in, wrapper, fn);
  wrapper->SetAttr(markers::kDisable, h.True());
  wrapper->SetAttr(markers::kDisableMsg, msg);
  wrapper->SetAttr(markers::kOrigCallable, fn);
  wrapper->SetAttr(markers::kWrapperId, h.Int(static_cast<int64_t>(wrapper->id())));
  wrapper->SetAttr(markers::kDisableRecursive, h.True());
  return wrapper;
}

// disable(fn, recursive=False)'s `wrap`.
Value NonrecursiveWrap(Interpreter& in, DisableLib& lib, Value fn, const Value& reason) {
  Heap& h = in.heap();
  fn = apis::InnermostFn(in, fn);
  if (!apis::IsCallable(in, fn)) Raise(h, ExcType::kAssertionError, "fn must be callable");
  // get_nonrecursive_disable_wrapper(fn): one cell, one closure tuple, one function.
  Ref<PyCell> fn_cell = h.NewCell(fn);
  Ref<PyTuple> closure = h.NewTuple({fn_cell});
  Ref<PyFunction> wrapper = apis::MakeLibFunction(
      in, lib.external_utils_globals,
      "get_nonrecursive_disable_wrapper.<locals>.nonrecursive_disable_wrapper",
      [&in](PyFunction& me, CallArgs& args) {
        const auto* cells = DynCast<PyTuple>(me.closure);
        Value target = DynCast<PyCell>(cells->items()[0])->contents;
        return in.Call(target, std::move(args));
      },
      closure);
  apis::UpdateWrapper(in, wrapper, fn);
  wrapper->SetAttr(markers::kDisable, h.True());
  wrapper->SetAttr(markers::kDisableMsg, reason);
  wrapper->SetAttr(markers::kOrigCallable, fn);
  wrapper->SetAttr(markers::kWrapperId, h.Int(static_cast<int64_t>(wrapper->id())));
  wrapper->SetAttr(markers::kDisableRecursive, h.False());
  return wrapper;
}

// disable(fn=None, recursive=True)'s `wrap` closure over `reason`'s cell.
Ref<PyFunction> MakeWrap(Interpreter& in, const std::shared_ptr<DisableLib>& lib,
                         const Ref<PyCell>& reason_cell) {
  Ref<PyTuple> closure = in.heap().NewTuple({reason_cell});
  std::weak_ptr<DisableLib> weak = lib;
  return apis::MakeLibFunction(
      in, lib->decorators_globals, "disable.<locals>.wrap",
      [&in, weak](PyFunction& me, CallArgs& args) -> Value {
        std::vector<Value> a = apis::BindParams(in, "disable.<locals>.wrap", {{"fn"}}, args);
        const auto* cells = DynCast<PyTuple>(me.closure);
        Value reason = DynCast<PyCell>(cells->items()[0])->contents;
        return NonrecursiveWrap(in, *weak.lock(), a[0], reason);
      },
      closure);
}

// torch._dynamo.disable(fn=None, recursive=True, *, reason=None, wrapping=True). Its frame
// makes the cell of `reason` first (a cellvar: `wrap` closes over it); the cell, and `wrap`
// when fn is given, die when it returns.
Value Disable(Interpreter& in, const std::shared_ptr<DisableLib>& lib, Value fn,
              const Value& recursive, Value reason, Value wrapping) {
  Heap& h = in.heap();
  Ref<PyCell> reason_cell = h.NewCell(reason);
  if (Truth(in, recursive)) {
    if (fn != h.None()) {
      fn = apis::InnermostFn(in, fn);
      if (!apis::IsCallable(in, fn)) Raise(h, ExcType::kAssertionError, "fn must be callable");
      Value ctx = NewDisableContext(in, *lib, reason, wrapping);
      return ApplyContext(in, *lib, ctx, fn);
    }
    return NewDisableContext(in, *lib, reason, wrapping);
  }
  Ref<PyFunction> wrap = MakeWrap(in, lib, reason_cell);
  if (fn != h.None()) return NonrecursiveWrap(in, *lib, fn, reason);
  return wrap;
}

}  // namespace

void InstallDisableApis(Interpreter& in) {
  Heap& h = in.heap();
  const Modules& modules = in.process().modules();
  auto lib = std::make_shared<DisableLib>();
  lib->eval_frame_globals = apis::LibGlobals(in, "torch._dynamo.eval_frame");
  lib->external_utils_globals = apis::LibGlobals(in, "torch._dynamo.external_utils");
  lib->decorators_globals = apis::LibGlobals(in, "torch._dynamo.decorators");
  lib->context_type = h.NewType("DisableContext", "torch._dynamo.eval_frame");
  lib->shared_attrs = h.NewDict();
  std::weak_ptr<DisableLib> weak = lib;

  // DisableContext.__call__: the lib lives in this method's code (the class never dies).
  lib->context_type->dict->SetStr(
      "__call__", apis::MakeLibFunction(in, lib->eval_frame_globals, "DisableContext.__call__",
                                        [&in, lib](PyFunction&, CallArgs& args) -> Value {
                                          std::vector<Value> a =
                                              apis::BindParams(in, "DisableContext.__call__",
                                                               {{"self"}, {"fn"}}, args);
                                          return ApplyContext(in, *lib, a[0], a[1]);
                                        }));

  auto dynamo_disable = apis::MakeLibFunction(
      in, lib->decorators_globals, "disable", [&in, weak](PyFunction&, CallArgs& args) -> Value {
        std::vector<Value> a = apis::BindParams(
            in, "disable",
            {{"fn", true}, {"recursive", true}, {"reason", true, true}, {"wrapping", true, true}},
            args);
        Heap& heap = in.heap();
        return Disable(in, weak.lock(), a[0] ? a[0] : heap.None(), a[1] ? a[1] : heap.True(),
                       a[2] ? a[2] : heap.None(), a[3] ? a[3] : heap.True());
      });
  modules[ModuleId::kTorchDynamo]->SetAttr("disable", dynamo_disable);

  auto compiler_disable = apis::MakeLibFunction(
      in, apis::LibGlobals(in, "torch.compiler"), "disable",
      [&in, weak](PyFunction&, CallArgs& args) -> Value {
        std::vector<Value> a = apis::BindParams(
            in, "disable", {{"fn", true}, {"recursive", true}, {"reason", true, true}}, args);
        Heap& heap = in.heap();
        return Disable(in, weak.lock(), a[0] ? a[0] : heap.None(), a[1] ? a[1] : heap.True(),
                       a[2] ? a[2] : heap.None(), heap.True());
      });
  modules[ModuleId::kTorchCompiler]->SetAttr("disable", compiler_disable);

  modules[ModuleId::kTorchDynamo]->SetAttr(
      "is_dynamo_disable_recursive",
      apis::MakeLibFunction(in, lib->decorators_globals, "is_dynamo_disable_recursive",
                            [&in](PyFunction&, CallArgs& args) -> Value {
                              std::vector<Value> a = apis::BindParams(
                                  in, "is_dynamo_disable_recursive", {{"method"}}, args);
                              Value v = apis::GetAttrOrNull(in, a[0], markers::kDisableRecursive);
                              return v ? v : in.heap().None();
                            }));
}

}  // namespace tdc::runtime
