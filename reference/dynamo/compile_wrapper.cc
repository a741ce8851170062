// torch.compile's wrapper as torch 2.13.0 builds it (torch/_dynamo/eval_frame.py
// _TorchDynamoContext.__call__): `compile_wrapper` sets the eval-frame callback for its
// call and calls the model, whose frame Dynamo then converts. A model that is not a
// Python function, or one with a polyfill, is first wrapped by external_utils.wrap_inline, so
// that Dynamo has a frame to convert (R-wrap-inline).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// wrap_inline's source, its `return` at line 69 of torch/_dynamo/external_utils.py as
// the goldens show it (trigger line, placeholder L['args'][0]).
std::string WrapInlineSource() {
  return std::string(66, '\n') +
         "def wrap_inline(fn):\n"
         "    def inner(*args, **kwargs):\n"
         "        return fn(*args, **kwargs)\n"
         "    return inner\n";
}

}  // namespace

std::shared_ptr<const CompileCallback> Dynamo::ForcedCallback(const CompileCallback& own,
                                                              const Value& forced) {
  // A backend named by a string other than these two is not modeled; a callable one is,
  // until a graph is handed to it (Emit: only the injected backend's calls are modeled).
  const auto* name = DynCast<PyStr>(forced);
  const bool modeled = name != nullptr ? name->value() == "eager" || name->value() == "aot_eager"
                                       : forced == recorder_ || apis::IsCallable(in_, forced);
  if (!modeled) {
    RefuseNotModeled(fmt::format(
        "set_stance(force_backend={}) is not modeled: only \"eager\", \"aot_eager\" and callables",
        name != nullptr ? fmt::format("\"{}\"", name->value()) : std::string(TypeName(forced))));
  }
  // The forced callback is convert_frame's (one_graph=False), but the wrapper of a
  // fullgraph=True function still expects compiled frames: probed, its resume functions are
  // not converted, which the reference does not model.
  if (own.fullgraph) {
    RefuseNotModeled("set_stance(force_backend=...) on a fullgraph=True function is not modeled");
  }
  // Each call makes a new ConvertFrameAssert, whose constructor resets the duplicate-graph-
  // break checker (as each torch.compile does).
  if (rules_.on(Rule::kGbLogDedup)) logged_locations_.clear();
  return std::make_shared<const CompileCallback>(
      CompileCallback{forced, false, false, false, /*forced_backend=*/true});
}

Value Dynamo::MakeCompileWrapper(const Value& model, CompileCallback callback) {
  // Each torch.compile makes a new ConvertFrameAssert, whose constructor resets the
  // duplicate-graph-break checker (convert_frame.py): user stacks are logged again.
  if (rules_.on(Rule::kGbLogDedup)) logged_locations_.clear();
  const PyModule& config = *in_.process().modules()[ModuleId::kTorchDynamoConfig];
  if (IsTruthy(config.GetAttr("suppress_errors")) &&
      IsTruthy(config.GetAttr("fail_on_recompile_limit_hit"))) {
    // optimize()'s check_for_incompatible_configs raises AssertionError.
    RefuseNotModeled("torch.compile with config.suppress_errors and fail_on_recompile_limit_hit");
  }
  Value target = model;
  // torch.compile(disable(fn)) compiles fn, whether the disable is recursive or not:
  // innermost_fn unwraps either wrapper (golden disable/compile_of_disabled_function).
  if (DisableWrapperOf(model) != DisableWrapper::kNone &&
      rules_.on(Rule::kCompileUnwrapsNonrecursive)) {
    target = apis::InnermostFn(in_, model);
  }
  const auto* function = DynCast<PyFunction>(target);
  // A function with a substitute_in_graph polyfill is wrapped too, so that Dynamo meets a
  // call of it and inlines the polyfill (eval_frame.py's has_polyfill).
  if (function == nullptr || function->is_native() ||
      in_.process().compiler.registries.polyfills.contains(target->id())) {
    if (!wrap_inline_) {
      wrap_inline_ = RunLibrarySource(in_, WrapInlineSource(), "<torch>/_dynamo/external_utils.py",
                                      "torch._dynamo.external_utils", "wrap_inline");
    }
    target = in_.CallDirect(wrap_inline_, CallArgs{{target}, {}});
  }
  always_optimize_.insert(std::get<UserCode>(DynCast<PyFunction>(target)->code).def);
  auto installed = std::make_shared<const CompileCallback>(std::move(callback));
  // _callback_from_stance, read at each call (spec §2.14): force_eager clears the callback,
  // eager_on_recompile makes it run-only, fail_on_recompile makes recompiles raise, and the
  // default stance with force_backend compiles with that backend instead (S32).
  auto run_only = std::make_shared<const CompileCallback>(
      CompileCallback{installed->backend, installed->fullgraph, true, false});
  auto failing = std::make_shared<const CompileCallback>(
      CompileCallback{installed->backend, installed->fullgraph, false, true});
  Ref<PyFunction> wrapper = apis::MakeLibFunction(
      in_, apis::LibGlobals(in_, "torch._dynamo.eval_frame"),
      "_TorchDynamoContext.__call__.<locals>.compile_wrapper",
      [this, installed, run_only, failing, target](PyFunction&, CallArgs& args) -> Value {
        std::shared_ptr<const CompileCallback> active = installed;
        if (rules_.on(Rule::kStance)) {
          switch (in_.process().compiler.stance.stance) {
            case Stance::kForceEager:
              active = nullptr;
              break;
            case Stance::kEagerOnRecompile:
              active = run_only;
              break;
            case Stance::kFailOnRecompile:
              active = failing;
              break;
            // They count calls per shape under automatic dynamic shapes, which the profiles
            // switch off (D3): the dynamic-shapes profile models them (S33, S34).
            case Stance::kEagerThenCompile:
            case Stance::kAotEagerThenCompile:
              RefuseNotModeled(fmt::format("set_stance(\"{}\") is not modeled",
                                           in_.process().compiler.stance.name));
            // torch keeps any name set_stance is given and refuses it here, at the call.
            case Stance::kUnknown:
              Raise(in_.heap(), ExcType::kRuntimeError,
                    fmt::format("invalid torch.compile stance 'DynamoStance(stance='{}', "
                                "skip_guard_eval_unsafe=False, backend=None)'",
                                in_.process().compiler.stance.name));
            case Stance::kDefault:
              if (in_.process().compiler.stance.force_backend)
                active = ForcedCallback(*installed, in_.process().compiler.stance.force_backend);
              break;
          }
        }
        EvalFrameCallbackScope scope(in_.process().compiler, std::move(active));
        return in_.Call(target, std::move(args));
      });
  if (Is<PyFunction>(model)) apis::UpdateWrapper(in_, wrapper, model);
  wrapper->SetAttr(runtime::markers::kOrigCallable, model);
  // innermost_fn (torch._dynamo.run, disable of a compiled function) unwraps it.
  wrapper->SetAttr(runtime::markers::kWrapperId,
                   in_.heap().Int(static_cast<int64_t>(wrapper->id())));
  wrapper->SetAttr(runtime::markers::kInline, target);
  return wrapper;
}

}  // namespace tdc::dynamo
