// Class statements (SEMANTICS.md §3.9): the body run in a namespace of its own, the class
// made from it, and calling the class (an instance, then its __init__). What the reference
// models is a module-level class with at most one base (object or another such class),
// whose body holds functions and plain values; anything else is refused (DESIGN D13), as
// is every special method beyond __init__ and __call__, since the runtime would not call
// it where CPython does.
#include "reference/runtime/interp/classes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {

namespace {

// The special names a class body may bind: set by CPython itself, or called where the
// runtime calls them (construction, a call of an instance).
constexpr std::array<std::string_view, 7> kModeledSpecialNames = {
    "__module__", "__qualname__", "__doc__", "__init__", "__call__", "__enter__", "__exit__"};

bool IsSpecialName(std::string_view name) {
  return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

// The builtins' descriptor objects staticmethod(f), classmethod(f) and property(...).
bool IsDescriptor(const Value& v, std::string_view type_name) {
  const auto* i = DynCast<PyInstance>(v);
  return i != nullptr && !i->type->user_defined && i->type->module == "builtins" &&
         i->type->name == type_name;
}

// A class body's value that the runtime reads through an instance as CPython does: a
// function binds the instance, a descriptor of the builtins acts as one, a plain value is
// itself.
bool ModeledClassAttribute(const Value& v) {
  if (IsDescriptor(v, "staticmethod") || IsDescriptor(v, "classmethod") ||
      IsDescriptor(v, "property")) {
    return true;
  }
  switch (v->kind()) {
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
    case ObjectKind::kTuple:
    case ObjectKind::kList:
    case ObjectKind::kDict:
    case ObjectKind::kTensor:
    case ObjectKind::kDType:
    case ObjectKind::kFunction:
      return true;
    case ObjectKind::kCell:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
      break;
  }
  return false;
}

void CheckNamespace(const std::string& class_name, const PyDict& ns) {
  for (const auto& [key, value] : ns.Items()) {
    const std::string& name = DynCast<PyStr>(key)->value();
    if (IsSpecialName(name) && std::find(kModeledSpecialNames.begin(), kModeledSpecialNames.end(),
                                         name) == kModeledSpecialNames.end()) {
      RefuseNotModeled(fmt::format(
          "class {} defines {}, a special name the reference does not model", class_name, name));
    }
    if (!ModeledClassAttribute(value)) {
      RefuseNotModeled(fmt::format("class {}'s attribute {} is a '{}', which is not modeled",
                                   class_name, name, TypeName(value)));
    }
  }
}

}  // namespace

bool IsOfUserClass(const Value& v) {
  if (const auto* t = DynCast<PyType>(v)) return t->user_defined;
  if (const auto* i = DynCast<PyInstance>(v)) return i->type->user_defined;
  if (const auto* m = DynCast<PyMethod>(v)) return IsOfUserClass(m->self);
  return false;
}

std::string DescribeUserClassValue(const Value& v) {
  if (const auto* t = DynCast<PyType>(v))
    return fmt::format("a class statement's class ({})", t->name);
  if (const auto* m = DynCast<PyMethod>(v)) {
    return "a bound method of " + DescribeUserClassValue(m->self);
  }
  return fmt::format("a class statement's instance (of {})", TypeName(v));
}

Value Interpreter::MakeClass(Frame& f, const lang::ClassDef& def) {
  if (f.function || f.class_namespace) {
    RefuseNotModeled("a class statement inside a function or a class body is not modeled");
  }
  if (!def.keywords.empty()) {
    RefuseNotModeled("class keyword arguments (metaclass=...) are not modeled");
  }
  if (def.bases.size() > 1) RefuseNotModeled("a class with more than one base is not modeled");
  // Decorators and bases wait on the stack while the body runs.
  OpaqueStack opaque(f, true);
  std::vector<Value> decorators;
  for (const auto& d : def.decorator_list) decorators.push_back(Eval(f, *d));
  Ref<PyType> base = process_.types().object();
  if (!def.bases.empty()) {
    if (def.bases.front()->kind == lang::NodeKind::kStarred) {
      RefuseNotModeled("a starred class base is not modeled");
    }
    Value given = Eval(f, *def.bases.front());
    auto* base_type = DynCast<PyType>(given);
    if (base_type == nullptr || (!base_type->user_defined && base_type != base.get())) {
      RefuseNotModeled(fmt::format("a class deriving from {} is not modeled",
                                   base_type != nullptr
                                       ? base_type->QualifiedName()
                                       : fmt::format("a '{}' object", TypeName(given))));
    }
    base = Ref<PyType>(base_type);
  }
  const Scope& scope = f.program->scopes.Of(&def);
  Value module_name = f.globals->GetStr("__name__");
  Frame body;
  body.program = f.program;
  body.scope = &scope;
  body.globals = f.globals;
  body.line = def.span.begin.line;
  body.grad_enabled_at_start = process_.grad_enabled;
  body.class_namespace = heap().NewDict();
  if (module_name) body.class_namespace->SetStr("__module__", module_name);
  body.class_namespace->SetStr("__qualname__", heap().Str(scope.qualname));
  for (size_t i = 0; i < scope.cellvars.size(); ++i) body.cells.push_back(heap().NewCell());
  {
    frames_.push_back(&body);
    struct Pop {
      std::vector<Frame*>& frames;
      ~Pop() { frames.pop_back(); }
    } pop{frames_};
    Value ignored;
    if (ExecBlock(body, def.body, ignored) != Flow::kNext) {
      RefuseNotModeled("return, break or continue in a class body is not modeled");
    }
  }
  CheckNamespace(def.name, *body.class_namespace);
  auto* module_str = DynCast<PyStr>(module_name);
  Ref<PyType> type = heap().NewType(def.name, module_str != nullptr ? module_str->value() : "");
  type->base = base;
  type->dict = body.class_namespace;
  type->user_defined = true;
  // Classes live as long as the process, so the constructor may hold the raw pointer.
  type->construct = [this, raw = type.get()](CallArgs& args) { return Instantiate(*raw, args); };
  auto cell = scope.cell_slot.find("__class__");
  if (cell != scope.cell_slot.end()) body.cells.at(cell->second)->contents = type;
  Value result = type;
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    result = Call(*it, {{result}, {}});
  }
  return result;
}

Value Interpreter::Instantiate(PyType& type, CallArgs& args) {
  Ref<PyInstance> instance = heap().NewInstance(Ref<PyType>(&type));
  // object.__repr__ prints the address, which the reference does not model.
  instance->repr_not_modeled = true;
  std::optional<Value> init = LookupMethod(*this, instance, "__init__");
  if (!init) {
    if (!args.positional.empty() || !args.keywords.empty()) {
      Raise(heap(), ExcType::kTypeError, fmt::format("{}() takes no arguments", type.name));
    }
    return instance;
  }
  args.positional.insert(args.positional.begin(), instance);
  Value returned = Call(*init, std::move(args));
  if (!Is<PyNone>(returned)) {
    Raise(heap(), ExcType::kTypeError,
          fmt::format("__init__() should return None, not '{}'", TypeName(returned)));
  }
  return instance;
}

bool IsUserInstance(const Value& v) {
  const auto* i = DynCast<PyInstance>(v);
  return i != nullptr && i->type->user_defined;
}

namespace {

// The class attribute `name` of `type` or a base (null when none has it).
Value FindOnClass(const PyType& type, std::string_view name) {
  for (const PyType* t = &type; t != nullptr; t = t->base.get()) {
    if (Value v = t->dict->GetStr(name)) return v;
  }
  return nullptr;
}

Value DescriptorPart(const Value& descriptor, std::string_view part) {
  return DynCast<PyInstance>(descriptor)->attrs->GetStr(part);
}

}  // namespace

bool IsClassMachinery(const Value& v) {
  return IsDescriptor(v, "staticmethod") || IsDescriptor(v, "classmethod") ||
         IsDescriptor(v, "property") || IsDescriptor(v, "super");
}

std::optional<Value> ClassStatementAttribute(Interpreter& in, const Value& object,
                                             std::string_view name) {
  const auto* instance = DynCast<PyInstance>(object);
  const PyType& type = instance != nullptr ? *instance->type : *DynCast<PyType>(object);
  Value found = FindOnClass(type, name);
  if (IsClassMachinery(found)) in.Use(found);  // the frame hook sees the descriptor used
  if (instance != nullptr) {
    if (IsDescriptor(found, "property")) {  // a data descriptor comes before the instance
      Value getter = DescriptorPart(found, "fget");
      if (Is<PyNone>(getter)) {
        Raise(in.heap(), ExcType::kAttributeError,
              fmt::format("property '{}' of '{}' object has no getter", name, type.name));
      }
      return in.Call(getter, {{object}, {}});
    }
    if (Value v = instance->attrs->GetStr(name)) return v;
  }
  if (!found) return std::nullopt;
  if (instance != nullptr) in.ClassAttributeRead(object, name);
  Value owner = instance != nullptr ? Value(instance->type) : object;
  if (Is<PyFunction>(found)) {
    return instance != nullptr ? Value(in.heap().NewMethod(found, object)) : found;
  }
  if (IsDescriptor(found, "staticmethod")) return DescriptorPart(found, "__func__");
  if (IsDescriptor(found, "classmethod")) {
    return in.heap().NewMethod(DescriptorPart(found, "__func__"), owner);
  }
  return found;
}

bool SetClassStatementAttribute(Interpreter& in, const Value& object, std::string_view name,
                                const Value* value) {
  if (auto* type = DynCast<PyType>(object); type != nullptr && type->user_defined) {
    if (type->traced) {
      RefuseNotModeled(fmt::format(
          "a store into class {} after Dynamo traced an instance of it is not modeled (torch "
          "guards the class attributes its trace read)",
          type->name));
    }
    if (value == nullptr) return type->dict->EraseStr(name);
    if (IsSpecialName(name) || !ModeledClassAttribute(*value)) {
      RefuseNotModeled(fmt::format("setting {}.{} to a '{}' is not modeled", type->name, name,
                                   TypeName(*value)));
    }
    type->dict->SetStr(name, *value);
    return true;
  }
  auto* instance = DynCast<PyInstance>(object);
  Value found = FindOnClass(*instance->type, name);
  if (IsDescriptor(found, "property")) {
    Value setter = DescriptorPart(found, "fset");
    if (value == nullptr || Is<PyNone>(setter)) {
      Raise(in.heap(), ExcType::kAttributeError,
            fmt::format("property '{}' of '{}' object has no {}", name, instance->type->name,
                        value == nullptr ? "deleter" : "setter"));
    }
    in.Call(setter, {{object, *value}, {}});
    return true;
  }
  if (value == nullptr) return instance->attrs->EraseStr(name);
  instance->attrs->SetStr(name, *value);
  return true;
}

std::pair<Value, Value> ContextMethods(Interpreter& in, const Value& manager) {
  in.Use(manager);
  const PyType& type = *DynCast<PyInstance>(manager)->type;
  Value enter = FindOnClass(type, "__enter__");
  Value exit = FindOnClass(type, "__exit__");
  if (!enter || !exit) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("'{}' object does not support the context manager protocol{}", type.name,
                      enter ? " (missed __exit__ method)" : ""));
  }
  return {in.heap().NewMethod(enter, manager), in.heap().NewMethod(exit, manager)};
}

Interpreter::Flow Interpreter::AugAssignAttribute(Frame& f, const lang::AugAssign& a) {
  const auto& target = As<lang::Attribute>(*a.target);
  Value object = Eval(f, *target.value);
  if (!IsUserInstance(object)) {
    RefuseNotModeled(
        "augmented assignment to an attribute of other than a class statement's instance is "
        "outside the reference");
  }
  PendingValues pending(f, object);  // the object waits while the attribute is updated
  Value current = GetAttr(object, target.attr);
  Value rhs;
  {
    PendingValues left(f, current);  // BINARY_OP's left operand
    rhs = Eval(f, *a.value);
  }
  Value updated = InPlaceBinary(*this, a.op, current, rhs);
  current.Reset();
  rhs.Reset();
  SetAttr(object, target.attr, std::move(updated));
  return Flow::kNext;
}

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
