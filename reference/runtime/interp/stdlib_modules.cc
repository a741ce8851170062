// functools, operator, contextlib, weakref, warnings and unittest as fixtures use them, with
// CPython 3.11's objects: functools.wraps returns a functools.partial of update_wrapper; operator's
// functions are builtins of the _operator module. Also the helpers of stdlib_modules_support.h.
#include <fmt/format.h>

#include <algorithm>
#include <typeinfo>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/os_environ.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {

Ref<PyType> LibraryClass(Interpreter& in, std::string_view name, std::string_view module) {
  Ref<PyType> type = in.heap().NewType(std::string(name), std::string(module));
  type->base = in.process().types().object();
  return type;
}

void AddMethod(Interpreter& in, const Ref<PyType>& type, std::string_view name, BuiltinCode code) {
  type->dict->SetStr(name, MakeBuiltin(in, type->name + "." + std::string(name), std::move(code)));
}

void RefuseOtherAttributes(Interpreter& in, const Ref<PyType>& type) {
  std::string qualified = type->QualifiedName();
  AddMethod(in, type, "__getattr__", [qualified](CallArgs& args) -> Value {
    RefuseNotModeled(fmt::format("{}.{} is not modeled", qualified, Str(args.positional.at(1))));
  });
}

void RefuseInCompiledRegion(Interpreter& in, std::string_view what) {
  if (in.process().compiler.eval_frame_callback)
    RefuseNotModeled(fmt::format("{} in a compiled region is not modeled", what));
}

Value ArgOrKeyword(const CallArgs& args, size_t index, std::string_view name) {
  if (index < args.positional.size()) return args.positional[index];
  for (const auto& [k, v] : args.keywords) {
    if (k == name) return v;
  }
  return nullptr;
}

Value CallWithin(Interpreter& in, const Value& manager, const Value& fn, CallArgs args) {
  Value exit = in.GetAttr(manager, "__exit__");
  in.Call(in.GetAttr(manager, "__enter__"), {});
  Value result;
  try {
    result = in.Call(fn, std::move(args));
  } catch (const PyError& error) {
    Value exception = error.exception();
    Value suppress = in.Call(exit, {{TypeOf(in, exception), exception, in.heap().None()}, {}});
    if (!Truth(in, suppress)) throw;
    return in.heap().None();
  } catch (...) {
    // Dynamo abandoning the frame, as through a with block (Interpreter::ExecWith): the
    // context's state (a decorator's grad mode) is restored before the call runs again
    // (fixture variants/nested_graph_breaks__resume_under_decorator_grad_mode__wrap).
    try {
      in.Call(exit, {{in.heap().None(), in.heap().None(), in.heap().None()}, {}});
    } catch (const PyError&) {
    }
    throw;
  }
  in.Call(exit, {{in.heap().None(), in.heap().None(), in.heap().None()}, {}});
  return result;
}

namespace {

// decorate_context's body: `with ctx_factory(): return func(*args, **kwargs)`. A type of its
// own, so that a wrapper is known by its code whatever functools.wraps renamed it to.
struct ContextWrapperBody {
  Interpreter* in;
  std::function<Value()> factory;
  Value func;
  Value operator()(PyFunction&, CallArgs& args) const {
    return CallWithin(*in, factory(), func, std::move(args));
  }
};

}  // namespace

bool IsContextWrapper(const Value& v) {
  const auto* f = DynCast<PyFunction>(v);
  if (f == nullptr || !f->is_native() ||
      std::get<NativeCode>(f->code).target_type() != typeid(ContextWrapperBody)) {
    return false;
  }
  // torch.utils._contextlib's (grad modes); config.patch's is contextlib.ContextDecorator's.
  const auto* globals = DynCast<PyDict>(f->globals);
  const auto* module = globals != nullptr ? DynCast<PyStr>(globals->GetStr("__name__")) : nullptr;
  return module != nullptr && module->value() == "torch.utils._contextlib";
}

Value ContextDecorator(Interpreter& in, const Ref<PyDict>& globals, std::function<Value()> factory,
                       const Value& fn) {
  Ref<PyFunction> wrapper =
      apis::MakeLibFunction(in, globals, "context_decorator.<locals>.decorate_context",
                            ContextWrapperBody{&in, std::move(factory), fn});
  apis::UpdateWrapper(in, wrapper, fn);
  in.NoteContextWrapper(wrapper);
  return wrapper;
}

namespace {

[[noreturn]] void ArgCount(Interpreter& in, std::string_view name, size_t expected, size_t given) {
  Raise(in.heap(), ExcType::kTypeError,
        expected == 1 ? fmt::format("{}() takes exactly one argument ({} given)", name, given)
                      : fmt::format("{} expected {} arguments, got {}", name, expected, given));
}

void InstallFunctools(Interpreter& in) {
  PyModule& functools = *in.process().modules()[ModuleId::kFunctools];
  Value globals = apis::LibGlobals(in, "functools");
  // functools.partial: calling it calls func(*args, *call_args, **keywords, **call_kwargs).
  Ref<PyType> partial = LibraryClass(in, "partial", "functools");
  AddMethod(in, partial, "__call__", [&in](CallArgs& args) {
    const auto* self = DynCast<PyInstance>(args.positional[0]);
    CallArgs call;
    for (const Value& v : in.Iterate(self->attrs->GetStr("args"))) call.positional.push_back(v);
    for (size_t i = 1; i < args.positional.size(); ++i)
      call.positional.push_back(args.positional[i]);
    for (auto& [k, v] : DynCast<PyDict>(self->attrs->GetStr("keywords"))->Items()) {
      call.keywords.emplace_back(DynCast<PyStr>(k)->value(), v);
    }
    for (auto& kw : args.keywords) {
      auto it = std::find_if(call.keywords.begin(), call.keywords.end(),
                             [&](auto& p) { return p.first == kw.first; });
      if (it != call.keywords.end())
        it->second = kw.second;
      else
        call.keywords.push_back(kw);
    }
    return in.Call(self->attrs->GetStr("func"), std::move(call));
  });
  auto make_partial = [&in, partial](Value func, std::vector<Value> positional,
                                     std::vector<std::pair<std::string, Value>> keywords) {
    Ref<PyInstance> p = in.heap().NewInstance(partial);
    Ref<PyDict> kw = in.heap().NewDict();
    for (auto& [k, v] : keywords) kw->SetStr(k, v);
    p->attrs->SetStr("func", std::move(func));
    p->attrs->SetStr("args", in.heap().NewTuple(std::move(positional)));
    p->attrs->SetStr("keywords", kw);
    return Value(p);
  };
  partial->construct = [&in, make_partial](CallArgs& args) {
    if (args.positional.empty())
      Raise(in.heap(), ExcType::kTypeError, "type 'partial' takes at least one argument");
    std::vector<Value> rest(args.positional.begin() + 1, args.positional.end());
    return make_partial(args.positional[0], std::move(rest), args.keywords);
  };
  functools.SetAttr("partial", partial);

  Ref<PyFunction> update_wrapper =
      apis::MakeLibFunction(in, globals, "update_wrapper", [&in](PyFunction&, CallArgs& args) {
        Value wrapper = ArgOrKeyword(args, 0, "wrapper");
        Value wrapped = ArgOrKeyword(args, 1, "wrapped");
        if (!wrapper || !wrapped) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("update_wrapper() missing {} required positional argument{}: {}",
                            wrapper ? 1 : 2, wrapper ? "" : "s",
                            wrapper ? "'wrapped'" : "'wrapper' and 'wrapped'"));
        }
        apis::UpdateWrapper(in, wrapper, wrapped);
        return wrapper;
      });
  functools.SetAttr("update_wrapper", update_wrapper);
  functools.SetAttr(
      "wraps",
      apis::MakeLibFunction(
          in, globals, "wraps", [&in, make_partial, update_wrapper](PyFunction&, CallArgs& args) {
            Value wrapped = ArgOrKeyword(args, 0, "wrapped");
            if (!wrapped) {
              Raise(in.heap(), ExcType::kTypeError,
                    "wraps() missing 1 required positional argument: 'wrapped'");
            }
            return make_partial(
                Value(update_wrapper), {},
                {{"wrapped", wrapped},
                 {"assigned",
                  in.heap().NewTuple({in.heap().Intern("__module__"), in.heap().Intern("__name__"),
                                      in.heap().Intern("__qualname__"), in.heap().Intern("__doc__"),
                                      in.heap().Intern("__annotations__")})},
                 {"updated", in.heap().NewTuple({in.heap().Intern("__dict__")})}});
          }));
}

void InstallOperator(Interpreter& in) {
  PyModule& op = *in.process().modules()[ModuleId::kOperator];
  // operator's functions are builtin functions in CPython too (cpython_function).
  auto set = [&op, &in](std::string_view name, BuiltinCode code) {
    Value fn = MakeBuiltin(in, name, std::move(code));
    RefCast<PyBuiltin>(fn)->cpython_function = true;
    op.SetAttr(name, fn);
  };
  auto binary = [&](std::string_view name, lang::BinaryOp kind) {
    std::string n(name);
    set(name, [&in, kind, n](CallArgs& args) {
      if (!args.keywords.empty())
        Raise(in.heap(), ExcType::kTypeError, fmt::format("{}() takes no keyword arguments", n));
      if (args.positional.size() != 2) ArgCount(in, n, 2, args.positional.size());
      return BinaryOperation(in, kind, args.positional[0], args.positional[1]);
    });
  };
  binary("add", lang::BinaryOp::kAdd);
  binary("sub", lang::BinaryOp::kSub);
  binary("mul", lang::BinaryOp::kMult);
  binary("matmul", lang::BinaryOp::kMatMult);
  binary("truediv", lang::BinaryOp::kDiv);
  binary("floordiv", lang::BinaryOp::kFloorDiv);
  binary("mod", lang::BinaryOp::kMod);
  binary("pow", lang::BinaryOp::kPow);
  auto compare = [&](std::string_view name, lang::CompareOp kind) {
    std::string n(name);
    set(name, [&in, kind, n](CallArgs& args) {
      if (!args.keywords.empty())
        Raise(in.heap(), ExcType::kTypeError, fmt::format("{}() takes no keyword arguments", n));
      if (args.positional.size() != 2) ArgCount(in, n, 2, args.positional.size());
      return CompareOperation(in, kind, args.positional[0], args.positional[1]);
    });
  };
  compare("eq", lang::CompareOp::kEq);
  compare("ne", lang::CompareOp::kNotEq);
  compare("lt", lang::CompareOp::kLt);
  compare("le", lang::CompareOp::kLtE);
  compare("gt", lang::CompareOp::kGt);
  compare("ge", lang::CompareOp::kGtE);
  auto unary = [&](std::string_view name, lang::UnaryOpKind kind) {
    std::string n(name);
    set(name, [&in, kind, n](CallArgs& args) {
      if (!args.keywords.empty())
        Raise(in.heap(), ExcType::kTypeError, fmt::format("{}() takes no keyword arguments", n));
      if (args.positional.size() != 1) ArgCount(in, n, 1, args.positional.size());
      return UnaryOperation(in, kind, args.positional[0]);
    });
  };
  unary("neg", lang::UnaryOpKind::kUSub);
  unary("pos", lang::UnaryOpKind::kUAdd);
  unary("invert", lang::UnaryOpKind::kInvert);
  unary("not_", lang::UnaryOpKind::kNot);
  set("getitem", [&in](CallArgs& args) {
    if (!args.keywords.empty())
      Raise(in.heap(), ExcType::kTypeError, "getitem() takes no keyword arguments");
    if (args.positional.size() != 2) ArgCount(in, "getitem", 2, args.positional.size());
    return GetItem(in, args.positional[0], args.positional[1]);
  });
  // indexOf(a, b, /): the first index whose item `is` b or `==` b (CPython's PySequence_Index,
  // iterating a).
  set("indexOf", [&in](CallArgs& args) -> Value {
    if (!args.keywords.empty())
      Raise(in.heap(), ExcType::kTypeError, "indexOf() takes no keyword arguments");
    if (args.positional.size() != 2) ArgCount(in, "indexOf", 2, args.positional.size());
    const Value& wanted = args.positional[1];
    int64_t index = 0;
    for (const Value& item : in.Iterate(args.positional[0])) {
      if (item == wanted || Truth(in, CompareOperation(in, lang::CompareOp::kEq, item, wanted))) {
        return in.heap().Int(index);
      }
      ++index;
    }
    Raise(in.heap(), ExcType::kValueError, "sequence.index(x): x not in sequence");
  });
}

}  // namespace

// weakref.finalize(obj, func, *args, **kwargs): func(*args, **kwargs) runs when obj dies,
// while its id is still taken (SEMANTICS §6 I6); detach() unregisters it. As in CPython,
// an exception in the callback is reported and ignored, never raised into the program.
void InstallWeakref(Interpreter& in) {
  Ref<PyType> finalize = LibraryClass(in, "finalize", "weakref");
  finalize->construct = [&in, finalize](CallArgs& args) -> Value {
    if (args.positional.size() < 2) {
      Raise(in.heap(), ExcType::kTypeError, "finalize expected at least 2 positional arguments");
    }
    Value object = args.positional[0];
    CallArgs call{{args.positional.begin() + 2, args.positional.end()}, args.keywords};
    Value func = args.positional[1];
    FinalizerHandle handle = in.heap().AddFinalizer(object, [&in, func, call]() mutable {
      try {
        in.Call(func, std::move(call));
      } catch (const PyError&) {
      }
    });
    Ref<PyInstance> self = in.heap().NewInstance(finalize);
    self->attrs->SetStr("_serial", in.heap().Int(static_cast<int64_t>(handle.serial)));
    return Value(self);
  };
  AddMethod(in, finalize, "detach", [&in](CallArgs& args) -> Value {
    const auto* self = DynCast<PyInstance>(args.positional.at(0));
    auto serial = static_cast<uint64_t>(DynCast<PyInt>(self->attrs->GetStr("_serial"))->value());
    in.heap().DetachFinalizer(FinalizerHandle{serial});
    return in.heap().None();
  });
  in.process().modules()[ModuleId::kWeakref]->SetAttr("finalize", finalize);
}

// contextlib.nullcontext(enter_result=None): entering gives enter_result, leaving does nothing.
void InstallContextlib(Interpreter& in) {
  Ref<PyType> nullcontext = LibraryClass(in, "nullcontext", "contextlib");
  nullcontext->object_repr = true;
  PyType* raw = nullcontext.get();
  nullcontext->construct = [&in, raw](CallArgs& args) -> Value {
    for (const auto& [name, value] : args.keywords) {
      if (name != "enter_result") {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("nullcontext.__init__() got an unexpected keyword argument '{}'", name));
      }
    }
    if (args.positional.size() > 1) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("nullcontext.__init__() takes from 1 to 2 positional arguments but {} "
                        "were given",
                        args.positional.size() + 1));
    }
    if (args.positional.size() + args.keywords.size() > 1) {
      Raise(in.heap(), ExcType::kTypeError,
            "nullcontext.__init__() got multiple values for argument 'enter_result'");
    }
    Value result = args.positional.empty()
                       ? (args.keywords.empty() ? in.heap().None() : args.keywords[0].second)
                       : args.positional[0];
    Ref<PyInstance> self = in.heap().NewInstance(Ref<PyType>(raw));
    self->attrs->SetStr("enter_result", result);
    return Value(self);
  };
  AddMethod(in, nullcontext, "__enter__", [](CallArgs& args) {
    return DynCast<PyInstance>(args.positional.at(0))->attrs->GetStr("enter_result");
  });
  AddMethod(in, nullcontext, "__exit__", [&in](CallArgs&) { return in.heap().None(); });
  in.process().modules()[ModuleId::kContextlib]->SetAttr("nullcontext", nullcontext);
}

// warnings.warn(message): the warning goes to stderr, which no outcome records; a category,
// a stacklevel or a Warning instance (and the filters that decide whether it raises) are not
// modeled.
void InstallWarnings(Interpreter& in) {
  in.process().modules()[ModuleId::kWarnings]->SetAttr(
      "warn", MakeBuiltin(in, "warn", [&in](CallArgs& args) {
        if (args.positional.size() != 1 || !args.keywords.empty() ||
            !Is<PyStr>(args.positional[0])) {
          RefuseNotModeled("warnings.warn with arguments other than one str message");
        }
        return in.heap().None();
      }));
}

// unittest.skip(reason), a function of unittest/case.py (which Dynamo skips), returns its
// decorator `skip.<locals>.decorator`; what the decorator does to a test is not modeled.
void InstallUnittest(Interpreter& in) {
  Value globals = apis::LibGlobals(in, "unittest.case");
  in.process().modules()[ModuleId::kUnittest]->SetAttr(
      "skip",
      apis::MakeLibFunction(in, globals, "skip", [&in, globals](PyFunction&, CallArgs& args) {
        Value reason = apis::BindParams(in, "skip", {{"reason"}}, args)[0];
        if (!Is<PyStr>(reason)) RefuseNotModeled("unittest.skip with a reason other than a str");
        // A new closure each call, as CPython's.
        return Value(apis::MakeLibFunction(
            in, globals, "skip.<locals>.decorator", [](PyFunction&, CallArgs&) -> Value {
              RefuseNotModeled("the decorator unittest.skip returns is not modeled");
            }));
      }));
}

namespace {

// The module is made when the program first uses it, as it would have been at startup.
void FillOnFirstUse(Interpreter& in, ModuleId id, void (*install)(Interpreter&)) {
  in.process().modules()[id]->FillOnFirstUse([&in, install] {
    Heap::StartupScope startup(in.heap());
    install(in);
  });
}

}  // namespace

void InstallStdlibModules(Interpreter& in) {
  InstallFunctools(in);
  InstallOperator(in);
  InstallWeakref(in);
  InstallContextlib(in);
  // What the library itself does not use waits until the program does.
  FillOnFirstUse(in, ModuleId::kWarnings, InstallWarnings);
  FillOnFirstUse(in, ModuleId::kUnittest, InstallUnittest);
  FillOnFirstUse(in, ModuleId::kUnittestMock, InstallUnittestMock);
  FillOnFirstUse(in, ModuleId::kOs, InstallOs);
  FillOnFirstUse(in, ModuleId::kRe, InstallReModule);
}

}  // namespace tdc::runtime
