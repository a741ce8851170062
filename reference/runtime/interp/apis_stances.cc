// torch.compiler.set_stance, torch._dynamo.error_on_graph_break, reset, config,
// mark_dynamic and run as eager torch 2.13.0 has them under
// TORCHDYNAMO_DISABLE=1 (DESIGN D11): the objects, their attributes and errors are torch's;
// the compiler state they set (the stance, error_on_graph_break) has no eager effect.
#include <fmt/format.h>

#include <memory>

#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/run_program.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

[[noreturn]] void TooManyPositional(Interpreter& in, std::string_view name, size_t max,
                                    size_t given) {
  Raise(in.heap(), ExcType::kTypeError,
        max == 0 ? fmt::format("{}() takes 0 positional arguments but {} {} given", name, given,
                               given == 1 ? "was" : "were")
                 : fmt::format("{}() takes from 0 to {} positional argument{} but {} {} given",
                               name, max, max == 1 ? "" : "s", given, given == 1 ? "was" : "were"));
}

void RejectUnknownKeywords(Interpreter& in, std::string_view name, const CallArgs& args,
                           std::initializer_list<std::string_view> known) {
  for (const auto& [k, v] : args.keywords) {
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("{}() got an unexpected keyword argument '{}'", name, k));
    }
  }
}

// eval_frame._set_stance(stance): sets eval_frame._stance, a DynamoStance, to `stance` and
// returns the prior one. Only its own return values are DynamoStances a program can pass,
// so a program's first call stores something else (torch keeps it as it is: a str makes
// later compiled calls fail reading `.stance`). Eagerly nothing reads it, so that call is
// modeled: the prior DynamoStance is opaque (its fields and repr are refused: the reference
// keeps a stance as its name). Under Dynamo it is refused, and so is any later call (what
// _stance holds then is not kept) (D13).
void InstallEvalFrameSetStance(Interpreter& in) {
  Ref<PyType> dynamo_stance = LibraryClass(in, "DynamoStance", "torch._dynamo.eval_frame");
  RefuseOtherAttributes(in, dynamo_stance);
  auto replaced = std::make_shared<bool>(false);  // _stance holds the program's value
  Ref<PyFunction> fn = apis::MakeLibFunction(
      in, apis::LibGlobals(in, "torch._dynamo.eval_frame"), "_set_stance",
      [&in, dynamo_stance, replaced](PyFunction&, CallArgs& args) -> Value {
        Value stance = apis::BindParams(in, "_set_stance", {{"stance"}}, args)[0];
        const CompilerState& compiler = in.process().compiler;
        if (compiler.eval_frame_callback) {
          Raise(in.heap(), ExcType::kRuntimeError,
                "attempted to set_stance in a torch.compile region");
        }
        if (*replaced) {
          RefuseNotModeled("eval_frame._set_stance after it stored a non-DynamoStance");
        }
        if (compiler.make_compile_wrapper) {
          RefuseNotModeled(fmt::format(
              "eval_frame._set_stance({}) under Dynamo (a stance that is not a DynamoStance)",
              Repr(stance)));
        }
        *replaced = true;
        Ref<PyInstance> prior = in.heap().NewInstance(dynamo_stance);
        prior->repr_not_modeled = true;
        return Value(prior);
      });
  // torch marks it forbidden: tracing a call of it is an error (golden
  // upstream/decorators/test_set_stance_forbid_in_graph).
  fn->SetAttr(markers::kForbidden, in.heap().True());
  in.process().modules()[ModuleId::kTorchDynamoEvalFrame]->SetAttr("_set_stance", fn);
}

// torch._dynamo.decorators.set_stance and torch.compiler.set_stance.
void InstallSetStance(Interpreter& in) {
  const Modules& modules = in.process().modules();
  Value contextlib_globals = apis::LibGlobals(in, "torch.utils._contextlib");
  Value compiler_globals = apis::LibGlobals(in, "torch.compiler");
  // eval_frame._stance: the process's current stance (CompilerState::stance), read by compile
  // wrappers when called. An instance keeps a stance as two attributes: `<prefix>` (its name)
  // and `<prefix>_force_backend` (None when there is none).
  auto keep = [&in](PyInstance& m, const std::string& prefix, const Value& stance,
                    const Value& backend) {
    m.attrs->SetStr(prefix, stance);
    m.attrs->SetStr(prefix + "_force_backend", backend ? backend : in.heap().None());
  };
  // eval_frame._set_stance: refused while a compile callback is active (eager code a
  // compiled call runs, such as a disable(recursive=False) body: spec §2.14, S31).
  auto set_current = [&in](const Value& self, const std::string& prefix) {
    if (in.process().compiler.eval_frame_callback) {
      Raise(in.heap(), ExcType::kRuntimeError, "attempted to set_stance in a torch.compile region");
    }
    const auto* m = DynCast<PyInstance>(self);
    Value backend = m->attrs->GetStr(prefix + "_force_backend");
    if (const auto* s = DynCast<PyStr>(m->attrs->GetStr(prefix))) {
      in.process().compiler.stance = {StanceNamed(s->value()).value_or(Stance::kUnknown),
                                      s->value(), Is<PyNone>(backend) ? Value() : backend};
    }
  };
  Ref<PyType> type = LibraryClass(in, "set_stance", "torch._dynamo.decorators");
  type->dict->SetStr(markers::kForbidden, in.heap().True());
  PyType* raw = type.get();
  // set_stance.__init__: sets the stance now and remembers the previous one.
  auto make = [&in, raw, keep, set_current](CallArgs& args) {
    if (args.positional.size() > 1) TooManyPositional(in, "set_stance", 1, args.positional.size());
    RejectUnknownKeywords(in, "set_stance", args,
                          {"stance", "skip_guard_eval_unsafe", "force_backend"});
    Value stance = ArgOrKeyword(args, 0, "stance");
    if (!stance) stance = in.heap().Intern("default");
    Value force_backend = ArgOrKeyword(args, 99, "force_backend");
    const bool forces = force_backend && !Is<PyNone>(force_backend);
    if (forces && !PyEquals(stance, in.heap().Intern("default"))) {
      Raise(in.heap(), ExcType::kRuntimeError, "non-default stance cannot have force_backend set");
    }
    // Under Dynamo this changes what compiled calls do, which the reference does not model
    // yet; eagerly it has no effect. force_backend is read by compile wrappers when called
    // (compile_wrapper.cc, S32), which refuse the backends the reference does not model.
    Value skip_guards = ArgOrKeyword(args, 99, "skip_guard_eval_unsafe");
    if (in.process().compiler.make_compile_wrapper && skip_guards && Truth(in, skip_guards)) {
      RefuseNotModeled("set_stance(skip_guard_eval_unsafe=True) is not modeled under Dynamo");
    }
    Ref<PyInstance> m = in.heap().NewInstance(Ref<PyType>(raw));
    keep(*m, "stance", stance, forces ? force_backend : Value());
    const StanceSetting& now = in.process().compiler.stance;
    keep(*m, "prev", in.heap().Intern(now.name), now.force_backend);
    set_current(Value(m), "stance");
    return Value(m);
  };
  type->construct = make;
  AddMethod(in, type, "__enter__", [&in, set_current](CallArgs& args) {
    set_current(args.positional[0], "stance");
    return in.heap().None();
  });
  AddMethod(in, type, "__exit__", [&in, set_current](CallArgs& args) {
    set_current(args.positional[0], "prev");
    return in.heap().None();
  });
  // The arguments that make the same stance again (clone, the decorator's each call).
  auto again = [](const Value& self) {
    const auto* m = DynCast<PyInstance>(self);
    return CallArgs{{m->attrs->GetStr("stance")},
                    {{"force_backend", m->attrs->GetStr("stance_force_backend")}}};
  };
  AddMethod(in, type, "clone", [make, again](CallArgs& args) {
    CallArgs same = again(args.positional[0]);
    return make(same);
  });
  AddMethod(
      in, type, "__call__", [&in, make, again, set_current, contextlib_globals](CallArgs& args) {
        if (args.positional.size() != 2) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("set_stance.__call__() takes 2 positional arguments but {} were given",
                            args.positional.size()));
        }
        Value self = args.positional[0];
        set_current(self, "prev");
        Value wrapper = ContextDecorator(
            in, contextlib_globals,
            [make, again, self]() {
              CallArgs same = again(self);
              return make(same);
            },
            args.positional[1]);
        in.SetAttr(wrapper, markers::kForbidden, in.heap().True());
        return wrapper;
      });
  modules[ModuleId::kTorchDynamo]->SetAttr("set_stance", type);
  Value cls = type;
  Ref<PyFunction> compiler_set_stance = apis::MakeLibFunction(
      in, compiler_globals, "set_stance",
      [&in, cls](PyFunction&, CallArgs& args) { return in.Call(cls, std::move(args)); });
  // torch.compiler.set_stance is forbidden itself: tracing it names the function (S31).
  compiler_set_stance->SetAttr(markers::kForbidden, in.heap().True());
  modules[ModuleId::kTorchCompiler]->SetAttr("set_stance", compiler_set_stance);
  InstallEvalFrameSetStance(in);
}

namespace {

std::string WrapDunderCallSource() {
  return std::string(206, '\n') +
         "def wrap_dunder_call_ctx_manager(self, func):\n"
         "\n\n\n\n\n"
         "    def inner(*args, **kwargs):\n"
         "        with self:\n"
         "            return func(*args, **kwargs)\n"
         "\n"
         "    return inner\n";
}

// __call__ = wrap_dunder_call_ctx_manager (a context manager class used as a decorator): an
// `inner` function, deliberately not functools.wraps'd, whose frame Dynamo traces (spec
// S37: a decorated callee has one frame more). Its source, at its lines of
// torch/_dynamo/external_utils.py, is run once per class.
void AddWrapDunderCall(Interpreter& in, const Ref<PyType>& type) {
  auto wrap = std::make_shared<Value>();
  AddMethod(in, type, "__call__", [&in, wrap](CallArgs& args) {
    if (args.positional.size() != 2 || !args.keywords.empty()) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format(
                "wrap_dunder_call_ctx_manager() takes 2 positional arguments but {} were given",
                args.positional.size()));
    }
    if (!*wrap)
      *wrap = RunLibrarySource(in, WrapDunderCallSource(), "<torch>/_dynamo/external_utils.py",
                               "torch._dynamo.external_utils", "wrap_dunder_call_ctx_manager");
    return in.Call(*wrap, std::move(args));
  });
}

}  // namespace

// torch._dynamo.disable_nested_graph_breaks (spec §3.4, S60): a DynamoConfigPatchProxy
// setting config.nested_graph_breaks to False for its extent (while Dynamo traces it too),
// called bare as a context manager or given a function as a decorator.
void InstallDisableNestedGraphBreaks(Interpreter& in) {
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  PyModule& config = *in.process().modules()[ModuleId::kTorchDynamoConfig];
  Ref<PyType> type = LibraryClass(in, "DynamoConfigPatchProxy", "torch._dynamo.decorators");
  AddMethod(in, type, "__enter__", [&in, &config](CallArgs& args) {
    auto* saved = DynCast<PyList>(DynCast<PyInstance>(args.positional[0])->attrs->GetStr("saved"));
    saved->items().push_back(config.GetAttr("nested_graph_breaks"));
    config.SetAttr("nested_graph_breaks", in.heap().False());
    return in.heap().None();
  });
  AddMethod(in, type, "__exit__", [&in, &config](CallArgs& args) {
    auto* saved = DynCast<PyList>(DynCast<PyInstance>(args.positional[0])->attrs->GetStr("saved"));
    if (saved->items().empty()) Raise(in.heap(), ExcType::kIndexError, "pop from empty list");
    config.SetAttr("nested_graph_breaks", saved->items().back());
    saved->items().pop_back();
    return in.heap().None();
  });
  AddWrapDunderCall(in, type);
  Ref<PyType> cls = type;
  in.process().modules()[ModuleId::kTorchDynamo]->SetAttr(
      "disable_nested_graph_breaks",
      apis::MakeLibFunction(
          in, decorators, "disable_nested_graph_breaks", [&in, cls](PyFunction&, CallArgs& args) {
            RejectUnknownKeywords(in, "disable_nested_graph_breaks", args, {"fn"});
            if (args.positional.size() > 1) {
              Raise(in.heap(), ExcType::kTypeError,
                    fmt::format("disable_nested_graph_breaks() takes from 0 to 1 positional "
                                "arguments but {} were given",
                                args.positional.size()));
            }
            Ref<PyInstance> proxy = in.heap().NewInstance(cls);
            proxy->attrs->SetStr("saved", in.heap().NewList());
            Value fn = ArgOrKeyword(args, 0, "fn");
            if (!fn || !IsTruthy(fn)) return Value(proxy);
            return in.Call(proxy, CallArgs{{fn}, {}});
          }));
}

void InstallErrorOnGraphBreak(Interpreter& in) {
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  // The C-level error_on_graph_break flag (None until first set: `_get_error_on_graph_break`).
  auto flag = std::make_shared<Value>(in.heap().False());
  Ref<PyType> type =
      LibraryClass(in, "ErrorOnGraphBreakDecoratorContextManager", "torch._dynamo.decorators");
  AddMethod(in, type, "__enter__", [&in, flag](CallArgs& args) {
    const auto* self = DynCast<PyInstance>(args.positional[0]);
    Value wanted = self->attrs->GetStr("error_on_graph_break");
    auto* stack = DynCast<PyList>(self->attrs->GetStr("prev_error_on_graph_break"));
    if (!PyEquals(*flag, wanted)) {
      stack->items().push_back(*flag);
      *flag = wanted;
    } else {
      stack->items().push_back(in.heap().None());
    }
    in.process().compiler.error_on_graph_break = IsTruthy(*flag);
    return in.heap().None();
  });
  AddMethod(in, type, "__exit__", [&in, flag](CallArgs& args) {
    const auto* self = DynCast<PyInstance>(args.positional[0]);
    auto* stack = DynCast<PyList>(self->attrs->GetStr("prev_error_on_graph_break"));
    if (stack->items().empty()) Raise(in.heap(), ExcType::kIndexError, "pop from empty list");
    Value prev = stack->items().back();
    stack->items().pop_back();
    if (!Is<PyNone>(prev)) *flag = prev;
    in.process().compiler.error_on_graph_break = IsTruthy(*flag);
    return in.heap().None();
  });
  AddWrapDunderCall(in, type);
  Ref<PyType> cls = type;
  in.process().modules()[ModuleId::kTorchDynamo]->SetAttr(
      "error_on_graph_break",
      apis::MakeLibFunction(
          in, decorators, "error_on_graph_break", [&in, cls](PyFunction&, CallArgs& args) {
            RejectUnknownKeywords(in, "error_on_graph_break", args, {"error_on_graph_break"});
            if (args.positional.size() > 1) {
              Raise(in.heap(), ExcType::kTypeError,
                    fmt::format(
                        "error_on_graph_break() takes 1 positional argument but {} were given",
                        args.positional.size()));
            }
            Value value = ArgOrKeyword(args, 0, "error_on_graph_break");
            if (!value) {
              Raise(in.heap(), ExcType::kTypeError,
                    "error_on_graph_break() missing 1 required positional argument: "
                    "'error_on_graph_break'");
            }
            Ref<PyInstance> m = in.heap().NewInstance(cls);
            m->attrs->SetStr("error_on_graph_break", value);
            m->attrs->SetStr("prev_error_on_graph_break", in.heap().NewList());
            return Value(m);
          }));
}

void InstallRun(Interpreter& in) {
  Value eval_frame = apis::LibGlobals(in, "torch._dynamo.eval_frame");
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  // _TorchDynamoContext.__call__ for RunOnlyContext: with Dynamo disabled, `_fn` calls fn.
  auto wrap = [&in, eval_frame](Value fn) {
    fn = apis::InnermostFn(in, fn);
    Value inner = fn;
    // RunOnlyContext's callback is False for the call's extent: cached code only.
    auto run_only = std::make_shared<const CompileCallback>(
        CompileCallback{in.heap().None(), false, true, false});
    Ref<PyFunction> wrapper =
        apis::MakeLibFunction(in, eval_frame, "_TorchDynamoContext.__call__.<locals>._fn",
                              [&in, inner, run_only](PyFunction&, CallArgs& args) {
                                EvalFrameCallbackScope cached_only(in.process().compiler, run_only);
                                return in.Call(inner, std::move(args));
                              });
    apis::UpdateWrapper(in, wrapper, fn);
    wrapper->SetAttr(markers::kInline, fn);
    wrapper->SetAttr(markers::kOrigCallable, fn);
    wrapper->SetAttr(markers::kWrapperId, in.heap().Int(static_cast<int64_t>(wrapper->id())));
    wrapper->SetAttr(markers::kIsolateRecompilesId, in.heap().Int(-1));
    wrapper->SetAttr(
        "get_compiler_config",
        apis::MakeLibFunction(in, eval_frame,
                              "_TorchDynamoContext.__call__.<locals>.get_compiler_config",
                              [&in](PyFunction&, CallArgs&) { return in.heap().None(); }));
    wrapper->SetAttr(
        "aot_compile",
        apis::MakeLibFunction(in, eval_frame, "_TorchDynamoContext.__call__.<locals>.aot_compile",
                              [&in](PyFunction&, CallArgs&) -> Value {
                                RefuseNotModeled("aot_compile is outside the reference");
                              }));
    return Value(wrapper);
  };
  Ref<PyType> context = LibraryClass(in, "RunOnlyContext", "torch._dynamo.eval_frame");
  AddMethod(in, context, "__call__", [&in, wrap](CallArgs& args) {
    if (args.positional.size() != 2)
      Raise(in.heap(), ExcType::kTypeError,
            "__call__() missing 1 required positional argument: 'fn'");
    return wrap(args.positional[1]);
  });
  in.process().modules()[ModuleId::kTorchDynamo]->SetAttr(
      "run", apis::MakeLibFunction(
                 in, decorators, "run", [&in, wrap, context](PyFunction&, CallArgs& args) {
                   RejectUnknownKeywords(in, "run", args, {"fn"});
                   if (args.positional.size() > 1)
                     TooManyPositional(in, "run", 1, args.positional.size());
                   Value fn = ArgOrKeyword(args, 0, "fn");
                   if (fn && !Is<PyNone>(fn)) {
                     fn = apis::InnermostFn(in, fn);
                     if (!apis::IsCallable(in, fn))
                       Raise(in.heap(), ExcType::kAssertionError, "fn must be callable");
                     return wrap(fn);
                   }
                   return Value(in.heap().NewInstance(context));
                 }));
}

void InstallSmallApis(Interpreter& in) {
  const Modules& modules = in.process().modules();
  PyModule& dynamo = *modules[ModuleId::kTorchDynamo];
  Value dynamo_globals = apis::LibGlobals(in, "torch._dynamo");
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  auto reset = [&in](PyFunction&, CallArgs& args) {
    if (!args.positional.empty()) TooManyPositional(in, "reset", 0, args.positional.size());
    RejectUnknownKeywords(in, "reset", args, {});
    for (const auto& listener : in.process().compiler.reset_listeners) listener();
    return in.heap().None();
  };
  dynamo.SetAttr("reset", apis::MakeLibFunction(in, dynamo_globals, "reset", reset));
  // torch.compiler.reset() is its own function calling torch._dynamo.reset().
  modules[ModuleId::kTorchCompiler]->SetAttr(
      "reset", apis::MakeLibFunction(in, apis::LibGlobals(in, "torch.compiler"), "reset", reset));
  Value mark_dynamic =
      apis::MakeLibFunction(in, decorators, "mark_dynamic", [&in](PyFunction&, CallArgs& args) {
        RejectUnknownKeywords(in, "mark_dynamic", args,
                              {"t", "index", "min", "max", "specialize_on"});
        Value t = ArgOrKeyword(args, 0, "t");
        Value index = ArgOrKeyword(args, 1, "index");
        if (!t || !index) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("mark_dynamic() missing {} required positional argument{}: {}",
                            t ? 1 : 2, t ? "" : "s", t ? "'index'" : "'t' and 'index'"));
        }
        // Eager mark_dynamic records the dims in attributes of the tensor; non-tensors
        // have no such attribute.
        if (!Is<PyTensor>(t)) {
          Raise(in.heap(), ExcType::kAttributeError,
                fmt::format("'{}' object has no attribute '_dynamo_dynamic_indices'", TypeName(t)));
        }
        return in.heap().None();
      });
  // mark_dynamic is decorated with @forbid_in_graph in torch/_dynamo/decorators.py.
  in.SetAttr(mark_dynamic, markers::kForbidden, in.heap().True());
  dynamo.SetAttr("mark_dynamic", mark_dynamic);
}

}  // namespace

void InstallStanceApis(Interpreter& in) {
  InstallDynamoConfig(in);
  InstallSetStance(in);
  InstallErrorOnGraphBreak(in);
  InstallDisableNestedGraphBreaks(in);
  InstallRun(in);
  InstallSmallApis(in);
}

}  // namespace tdc::runtime
