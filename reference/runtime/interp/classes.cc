// Class statements (SEMANTICS.md §7.4): the body run in a namespace of its own, the class
// made from it, and calling the class (an instance, then its __init__). What the reference
// models is a module-level class with at most one base (object or another such class),
// whose body holds functions, the builtins' descriptors and plain values; anything else is
// refused (DESIGN D13), as is every special method the runtime would not call where
// CPython does (all but __init__, __call__, __enter__ and __exit__).
#include "reference/runtime/interp/classes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The special names a class body may bind: set by CPython itself, or called where the
// runtime calls them (construction, a call of an instance).
constexpr std::array<std::string_view, 7> kModeledSpecialNames = {
    "__module__", "__qualname__", "__doc__", "__init__", "__call__", "__enter__", "__exit__"};

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

}  // namespace

void CheckClassAttribute(const std::string& class_name, std::string_view name, const Value& value) {
  if (IsSpecialName(name) && std::find(kModeledSpecialNames.begin(), kModeledSpecialNames.end(),
                                       name) == kModeledSpecialNames.end()) {
    RefuseNotModeled(fmt::format("class {} defines {}, a special name the reference does not model",
                                 class_name, name));
  }
  if (!ModeledClassAttribute(value)) {
    RefuseNotModeled(fmt::format("class {}'s attribute {} is a '{}', which is not modeled",
                                 class_name, name, TypeName(value)));
  }
}

bool IsSpecialName(std::string_view name) {
  return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

bool IsDescriptor(const Value& v, std::string_view type_name) {
  const auto* i = DynCast<PyInstance>(v);
  return i != nullptr && !i->type->user_defined && i->type->module == "builtins" &&
         i->type->name == type_name;
}

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
  for (const auto& [key, value] : body.class_namespace->Items()) {
    CheckClassAttribute(def.name, DynCast<PyStr>(key)->value(), value);
  }
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
  if (hook_ != nullptr) hook_->OnNewInstance(instance);
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

}  // namespace tdc::runtime
