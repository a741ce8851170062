// torch.no_grad, torch.enable_grad, torch.set_grad_enabled and torch.is_grad_enabled as torch
// 2.13.0 has them: they set the process's grad mode (Process::grad_enabled), which Dynamo
// reads as a guard and records as grad-mode nodes.
#include <fmt/format.h>

#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

// torch.set_grad_enabled(mode): sets grad mode when made (a function or a context manager);
// __enter__ sets `mode` again, __exit__ restores the mode it found. (Its decorator form is
// not modeled.)
void InstallSetGradEnabled(Interpreter& in) {
  Ref<PyType> type = LibraryClass(in, "set_grad_enabled", "torch.autograd.grad_mode");
  PyType* raw = type.get();
  type->construct = [&in, raw](CallArgs& args) {
    if (!args.keywords.empty() && (args.keywords.size() > 1 || args.keywords[0].first != "mode")) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("set_grad_enabled.__init__() got an unexpected keyword argument '{}'",
                        args.keywords.back().first));
    }
    const size_t given = args.positional.size() + args.keywords.size();
    if (given == 0) {
      Raise(in.heap(), ExcType::kTypeError,
            "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'");
    }
    if (given > 1) {
      Raise(
          in.heap(), ExcType::kTypeError,
          fmt::format("set_grad_enabled.__init__() takes 2 positional arguments but {} were given",
                      given + 1));
    }
    Value mode = args.positional.empty() ? args.keywords[0].second : args.positional[0];
    if (!Is<PyBool>(mode)) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {}",
                        TypeName(mode)));
    }
    Ref<PyInstance> m = in.heap().NewInstance(Ref<PyType>(raw));
    m->attrs->SetStr("prev", in.heap().Bool(in.process().grad_enabled));
    m->attrs->SetStr("mode", mode);
    // set_grad_enabled.__repr__: f"{torch.typename(self)}(mode={self.mode})".
    m->repr = fmt::format("torch.autograd.grad_mode.set_grad_enabled(mode={})",
                          IsTruthy(mode) ? "True" : "False");
    in.SetGradEnabled(IsTruthy(mode));
    return Value(m);
  };
  auto attr = [](const CallArgs& args, const char* name) {
    return IsTruthy(DynCast<PyInstance>(args.positional[0])->attrs->GetStr(name));
  };
  AddMethod(in, type, "__enter__", [&in, attr](CallArgs& args) {
    in.SetGradEnabled(attr(args, "mode"));
    return in.heap().None();
  });
  AddMethod(in, type, "__exit__", [&in, attr](CallArgs& args) {
    in.SetGradEnabled(attr(args, "prev"));
    return in.heap().None();
  });
  in.process().modules()[ModuleId::kTorch]->SetAttr("set_grad_enabled", type);
}

}  // namespace

void InstallGradModeApis(Interpreter& in) {
  PyModule& torch = *in.process().modules()[ModuleId::kTorch];
  Value contextlib_globals = apis::LibGlobals(in, "torch.utils._contextlib");
  struct Mode {
    const char* name;
    bool enabled;
  };
  for (Mode mode : {Mode{"no_grad", false}, Mode{"enable_grad", true}}) {
    Ref<PyType> type = LibraryClass(in, mode.name, "torch.autograd.grad_mode");
    bool enabled = mode.enabled;
    AddMethod(in, type, "__enter__", [&in, enabled](CallArgs& args) {
      DynCast<PyInstance>(args.positional[0])
          ->attrs->SetStr("prev", in.heap().Bool(in.process().grad_enabled));
      in.SetGradEnabled(enabled);
      return in.heap().None();
    });
    AddMethod(in, type, "__exit__", [&in](CallArgs& args) {
      in.SetGradEnabled(Truth(in, DynCast<PyInstance>(args.positional[0])->attrs->GetStr("prev")));
      return in.heap().None();
    });
    PyType* raw = type.get();
    auto make = [&in, raw, enabled]() {
      Ref<PyInstance> m = in.heap().NewInstance(Ref<PyType>(raw));
      if (!enabled) m->attrs->SetStr("prev", in.heap().False());
      return Value(m);
    };
    AddMethod(in, type, "__call__", [&in, make, contextlib_globals](CallArgs& args) {
      if (args.positional.size() != 2) {
        Raise(in.heap(), ExcType::kTypeError,
              "_DecoratorContextManager.__call__() takes 2 positional arguments");
      }
      return ContextDecorator(in, contextlib_globals, make, args.positional[1]);
    });
    AddMethod(in, type, "clone", [make](CallArgs&) { return make(); });
    std::string name = mode.name;
    // _NoParamDecoratorContextManager.__new__: `@torch.no_grad` without parentheses
    // decorates directly.
    type->construct = [&in, make, name, contextlib_globals](CallArgs& args) {
      if (!args.keywords.empty()) {
        Raise(
            in.heap(), ExcType::kTypeError,
            fmt::format(
                "_NoParamDecoratorContextManager.__new__() got an unexpected keyword argument '{}'",
                args.keywords[0].first));
      }
      if (args.positional.size() > 1) {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("_NoParamDecoratorContextManager.__new__() takes from 1 to 2 positional "
                          "arguments but {} were given",
                          args.positional.size() + 1));
      }
      if (args.positional.empty() || Is<PyNone>(args.positional[0])) return make();
      return ContextDecorator(in, contextlib_globals, make, args.positional[0]);
    };
    torch.SetAttr(mode.name, type);
  }
  InstallSetGradEnabled(in);
  torch.SetAttr("is_grad_enabled", MakeBuiltin(in, "is_grad_enabled", [&in](CallArgs& args) {
                  if (!args.positional.empty() || !args.keywords.empty()) {
                    Raise(in.heap(), ExcType::kTypeError, "is_grad_enabled() takes no arguments");
                  }
                  return in.heap().Bool(in.process().grad_enabled);
                }));
}

}  // namespace tdc::runtime
