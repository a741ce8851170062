// The builtins classes use (SEMANTICS.md §7.4): super, staticmethod, classmethod and
// property, installed on their first look-up.
#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {

namespace {

// super(type, obj) and zero-argument super(): attributes found after `type` in the class
// chain of obj's class, functions bound to obj (single inheritance: the chain is the MRO).
Value SuperAttribute(Interpreter& in, const Value& proxy, const std::string& name) {
  const auto& attrs = *DynCast<PyInstance>(proxy)->attrs;
  const auto* start = DynCast<PyType>(attrs.GetStr("__thisclass__"));
  Value self = attrs.GetStr("__self__");
  for (const PyType* t = start->base.get(); t != nullptr; t = t->base.get()) {
    if (Value attr = t->dict->GetStr(name)) {
      return Is<PyFunction>(attr) ? Value(in.heap().NewMethod(attr, self)) : attr;
    }
  }
  if (name == "__init__") {  // object.__init__, which takes nothing more once overridden
    return MakeBuiltin(in, "object.__init__", [&in](CallArgs& args) -> Value {
      if (!args.positional.empty() || !args.keywords.empty()) {
        Raise(in.heap(), ExcType::kTypeError,
              "object.__init__() takes exactly one argument (the instance to initialize)");
      }
      return in.heap().None();
    });
  }
  if (PythonTypeHas("object", name)) {
    RefuseNotModeled(fmt::format("super().{} reaching object is not modeled", name));
  }
  Raise(in.heap(), ExcType::kAttributeError,
        fmt::format("'super' object has no attribute '{}'", name));
}

// The class and instance zero-argument super() reads from the calling method's frame: its
// __class__ cell and its first argument.
std::pair<Value, Value> ImplicitSuperArguments(Interpreter& in) {
  const Frame* f = in.current_frame();
  if (f == nullptr || f->function == nullptr || f->scope->param_count == 0) {
    Raise(in.heap(), ExcType::kRuntimeError, "super(): no arguments");
  }
  auto cell = f->scope->cell_slot.find("__class__");
  if (cell == f->scope->cell_slot.end()) {
    Raise(in.heap(), ExcType::kRuntimeError, "super(): __class__ cell not found");
  }
  Value cls = f->cells.at(cell->second)->contents;
  if (!cls) Raise(in.heap(), ExcType::kRuntimeError, "super(): empty __class__ cell");
  const std::string& first = f->scope->varnames.front();
  auto local = f->scope->local_slot.find(first);
  Value self = local != f->scope->local_slot.end()
                   ? f->fast.at(local->second)
                   : f->cells.at(f->scope->cell_slot.at(first))->contents;
  if (!self) Raise(in.heap(), ExcType::kRuntimeError, "super(): arg[0] deleted");
  return {cls, self};
}

}  // namespace

namespace {

// staticmethod, classmethod and property: library classes whose instances hold the
// functions (`__func__`; `fget`, `fset`), read by ClassStatementAttribute; every other
// attribute of them is refused.
void InstallDescriptors(Interpreter& in) {
  PyModule& builtins = *in.process().builtins();
  for (const char* name : {"staticmethod", "classmethod"}) {
    Ref<PyType> type = LibraryClass(in, name, "builtins");
    if (std::string_view(name) == "staticmethod") {  // callable since 3.10
      AddMethod(in, type, "__call__", [&in](CallArgs& args) -> Value {
        Value function = DescriptorPart(args.positional.at(0), "__func__");
        args.positional.erase(args.positional.begin());
        return in.Call(function, std::move(args));
      });
    }
    RefuseOtherAttributes(in, type);
    builtins.SetAttr(
        name, MakeBuiltin(in, name, [&in, type, name](CallArgs& args) -> Value {
          if (args.positional.size() != 1 || !args.keywords.empty()) {
            RefuseNotModeled(fmt::format("{}() with other than one argument is not modeled", name));
          }
          Ref<PyInstance> descriptor = in.heap().NewInstance(type);
          descriptor->repr_not_modeled = true;
          descriptor->attrs->SetStr("__func__", args.positional[0]);
          return descriptor;
        }));
  }
  Ref<PyType> property = LibraryClass(in, "property", "builtins");
  auto make = [&in, property](Value getter, Value setter) -> Value {
    Ref<PyInstance> descriptor = in.heap().NewInstance(property);
    descriptor->repr_not_modeled = true;
    descriptor->attrs->SetStr("fget", getter ? getter : in.heap().None());
    descriptor->attrs->SetStr("fset", setter ? setter : in.heap().None());
    return descriptor;
  };
  AddMethod(in, property, "setter", [&in, make](CallArgs& args) -> Value {
    if (args.positional.size() != 2 || !args.keywords.empty()) {
      RefuseNotModeled("property.setter() with other than one argument is not modeled");
    }
    return make(DescriptorPart(args.positional[0], "fget"), args.positional[1]);
  });
  RefuseOtherAttributes(in, property);
  builtins.SetAttr(
      "property", MakeBuiltin(in, "property", [&in, make](CallArgs& args) -> Value {
        if (!args.keywords.empty() || args.positional.size() > 2) {
          RefuseNotModeled("property() with other than a getter and a setter is not modeled");
        }
        return make(args.positional.empty() ? nullptr : args.positional[0],
                    args.positional.size() < 2 ? nullptr : args.positional[1]);
      }));
}

void InstallSuper(Interpreter& in) {
  Ref<PyType> super_type = LibraryClass(in, "super", "builtins");
  AddMethod(in, super_type, "__getattr__", [&in](CallArgs& args) -> Value {
    return SuperAttribute(in, args.positional.at(0), Str(args.positional.at(1)));
  });
  in.process().builtins()->SetAttr(
      "super", MakeBuiltin(in, "super", [&in, super_type](CallArgs& args) -> Value {
        if (!args.keywords.empty()) {
          Raise(in.heap(), ExcType::kTypeError, "super() takes no keyword arguments");
        }
        auto [cls, self] =
            args.positional.empty() ? ImplicitSuperArguments(in) : std::pair<Value, Value>{};
        if (!args.positional.empty()) {
          if (args.positional.size() != 2) {
            RefuseNotModeled("super() with other than zero or two arguments is not modeled");
          }
          cls = args.positional[0];
          self = args.positional[1];
        }
        const auto* type = DynCast<PyType>(cls);
        if (type == nullptr) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("super() argument 1 must be a type, not {}", TypeName(cls)));
        }
        if (!type->user_defined || !IsInstance(in, self, cls)) {
          RefuseNotModeled("super() outside a class statement's method is not modeled");
        }
        Ref<PyInstance> proxy = in.heap().NewInstance(super_type);
        proxy->repr_not_modeled = true;
        proxy->attrs->SetStr("__thisclass__", cls);
        proxy->attrs->SetStr("__self__", self);
        return proxy;
      }));
}

}  // namespace

Value ClassBuiltin(Interpreter& in, std::string_view name) {
  if (name != "super" && name != "staticmethod" && name != "classmethod" && name != "property") {
    return nullptr;
  }
  PyModule& builtins = *in.process().builtins();
  if (!builtins.GetAttr("super")) {
    InstallDescriptors(in);
    InstallSuper(in);
  }
  return builtins.GetAttr(name);
}

}  // namespace tdc::runtime
