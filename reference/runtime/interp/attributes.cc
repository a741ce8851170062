#include "reference/runtime/interp/attributes.h"

#include <fmt/format.h>

#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/code_objects.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/torch_names.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

// An attribute the runtime does not have: refused when torch 2.13.0 / CPython has it
// (torch_names.def, DESIGN D13), Python's AttributeError when it does not.
[[noreturn]] void NoAttribute(Interpreter& in, const Value& object, std::string_view name) {
  if (const auto* m = DynCast<PyModule>(object)) {
    if (TorchModuleHas(m->name(), name)) {
      RefuseNotModeled(fmt::format("{}.{} is not modeled", m->name(), name));
    }
    if (m == in.process().modules()[ModuleId::kTorchDynamoConfig].get()) {
      Raise(in.heap(), ExcType::kAttributeError,
            fmt::format("torch._dynamo.config.{} does not exist", name));
    }
    Raise(in.heap(), ExcType::kAttributeError,
          fmt::format("module '{}' has no attribute '{}'", m->name(), name));
  }
  if (const auto* t = DynCast<PyType>(object)) {
    // A program's class has what `type` and `object` give every class.
    if (t->user_defined && (PythonTypeHas("type", name) || PythonTypeHas("object", name))) {
      RefuseNotModeled(
          fmt::format("{}.{} (of a class statement's class) is not modeled", t->name, name));
    }
    if (PythonTypeHas(t->name, name)) {
      RefuseNotModeled(fmt::format("{}.{} is not modeled", t->name, name));
    }
    Raise(in.heap(), ExcType::kAttributeError,
          fmt::format("type object '{}' has no attribute '{}'", t->name, name));
  }
  const auto* instance = DynCast<PyInstance>(object);
  const bool of_program = instance != nullptr && instance->type->user_defined;
  if (of_program && PythonTypeHas("object", name)) {
    RefuseNotModeled(fmt::format("{}.{} (of a class statement's class) is not modeled",
                                 instance->type->name, name));
  }
  // Of a type the table does not list, whether Python has the attribute is not known: what
  // the program reads of it is refused, never answered with an AttributeError (the
  // reference's own reads look for its markers, which such an object lacks).
  const bool may_have = of_program || in.InInternalLookup() ? PythonTypeHas(TypeName(object), name)
                                                            : PythonMayHave(TypeName(object), name);
  if (may_have) {
    RefuseNotModeled(fmt::format("{}.{} is not modeled", TypeName(object), name));
  }
  Raise(in.heap(), ExcType::kAttributeError,
        fmt::format("'{}' object has no attribute '{}'", TypeName(object), name));
}

Value SizeTuple(Interpreter& in, const Shape& sizes) {
  std::vector<Value> items;
  for (int64_t s : sizes) items.push_back(in.heap().Int(s));
  return in.heap().NewTuple(std::move(items), /*torch_size=*/true);
}

// Tensor properties (not methods): torch's Tensor attributes the runtime models.
std::optional<Value> TensorProperty(Interpreter& in, const Value& object, std::string_view name) {
  const auto* t = DynCast<PyTensor>(object);
  const Tensor& tensor = t->tensor();
  Heap& h = in.heap();
  if (name == "shape") return SizeTuple(in, tensor.sizes);
  if (name == "dtype") return h.DTypeObject(tensor.dtype);
  if (name == "requires_grad") return h.Bool(tensor.requires_grad);
  if (name == "ndim") return h.Int(tensor.dim());
  if (name == "is_leaf") return h.True();
  if (name == "grad") return h.None();
  if (name == "_base") return t->base() ? Value(t->base()) : h.None();
  if (name == "T") {
    in.TensorViewProperty(object, name);
    Shape dims;
    for (int64_t d = tensor.dim() - 1; d >= 0; --d) dims.push_back(d);
    Tensor view = tensor.dim() < 2 ? tensor : Permute(tensor, dims);
    return h.NewTensor(std::move(view),
                       t->base() ? t->base() : Ref<PyTensor>(DynCast<PyTensor>(object)));
  }
  return std::nullopt;
}

std::optional<Value> FunctionAttribute(Interpreter& in, const PyFunction& f,
                                       std::string_view name) {
  Heap& h = in.heap();
  if (name == "__name__") return f.name;
  if (name == "__qualname__") return f.qualname;
  if (name == "__module__") return f.module ? f.module : h.None();
  if (name == "__doc__") return f.doc ? f.doc : h.None();
  if (name == "__defaults__") return f.defaults ? f.defaults : h.None();
  if (name == "__closure__") return f.closure ? f.closure : h.None();
  if (name == "__globals__") return f.globals;
  if (name == "__code__") return CodeObjectOf(in, f);
  if (Value v = f.GetAttr(name)) return v;
  return std::nullopt;
}

// A class attribute read through an instance: functions bind the instance.
Value BindIfFunction(Interpreter& in, const Value& attr, const Value& self) {
  if (Is<PyFunction>(attr) || Is<PyBuiltin>(attr)) return in.heap().NewMethod(attr, self);
  return attr;
}

}  // namespace

std::optional<Value> LookupMethod(Interpreter& in, const Value& object, std::string_view name) {
  if (Is<PyModule>(object) || Is<PyType>(object) || Is<PyFunction>(object)) return std::nullopt;
  if (const auto* i = DynCast<PyInstance>(object); i != nullptr && i->attrs->GetStr(name))
    return std::nullopt;
  const Ref<PyType>& type = in.process().types().Of(object);
  for (const PyType* t = type.get(); t != nullptr; t = t->base.get()) {
    Value attr = t->dict->GetStr(name);
    if (attr && (Is<PyFunction>(attr) || Is<PyBuiltin>(attr))) return attr;
    if (attr) return std::nullopt;
  }
  return std::nullopt;
}

Value Interpreter::GetAttr(const Value& object, std::string_view name) {
  Use(object);
  switch (object->kind()) {
    case ObjectKind::kModule:
      if (Value v = DynCast<PyModule>(object)->GetAttr(name)) return v;
      NoAttribute(*this, object, name);
    case ObjectKind::kFunction:
      if (auto v = FunctionAttribute(*this, *DynCast<PyFunction>(object), name)) return *v;
      break;
    case ObjectKind::kBuiltin: {
      const auto* b = DynCast<PyBuiltin>(object);
      if (name == "__name__" || name == "__qualname__") {
        std::string_view n = b->name();
        if (name == "__name__") return heap().Str(std::string(n.substr(n.rfind('.') + 1)));
        // The Tensor methods the runtime has are torch._C.TensorBase's, in C.
        if (n.starts_with("Tensor.")) return heap().Str("TensorBase" + std::string(n.substr(6)));
        return heap().Str(std::string(n));
      }
      break;
    }
    case ObjectKind::kTensor:
      if (auto v = TensorProperty(*this, object, name)) return *v;
      break;
    case ObjectKind::kInstance:
      if (IsUserInstance(object)) {
        if (auto v = ClassStatementAttribute(*this, object, name)) return *v;
        MissingAttribute(object, name);
        NoAttribute(*this, object, name);
      }
      if (Value v = DynCast<PyInstance>(object)->attrs->GetStr(name)) return v;
      break;
    case ObjectKind::kType: {
      const auto* t = DynCast<PyType>(object);
      if (name == "__name__" || name == "__qualname__") return heap().Str(t->name);
      if (name == "__module__") return heap().Str(t->module);
      if (t->user_defined) {
        if (auto v = ClassStatementAttribute(*this, object, name)) return *v;
        MissingAttribute(object, name);
        NoAttribute(*this, object, name);
      }
      for (const PyType* c = t; c != nullptr; c = c->base.get()) {
        if (Value v = c->dict->GetStr(name)) return v;
      }
      NoAttribute(*this, object, name);
    }
    case ObjectKind::kException:
      if (name == "args") return DynCast<PyException>(object)->args();
      break;
    case ObjectKind::kMethod: {
      const auto* m = DynCast<PyMethod>(object);
      if (name == "__self__") return m->self;
      if (name == "__func__") return m->function;
      // A builtin bound to its object is named by the object's type: x.add is Tensor.add
      // (its function is TensorBase.add).
      if (const auto* b = DynCast<PyBuiltin>(m->function); b != nullptr && name == "__qualname__") {
        std::string_view short_name = std::string_view(b->name()).substr(b->name().rfind('.') + 1);
        return heap().Str(fmt::format("{}.{}", TypeName(m->self), short_name));
      }
      return GetAttr(m->function, name);
    }
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
    case ObjectKind::kTuple:
    case ObjectKind::kList:
    case ObjectKind::kDict:
    case ObjectKind::kCell:
    case ObjectKind::kDType:
      break;
  }
  // Class attributes, through the class's bases.
  const Ref<PyType>& type = process_.types().Of(object);
  for (const PyType* t = type.get(); t != nullptr; t = t->base.get()) {
    if (Value attr = t->dict->GetStr(name)) return BindIfFunction(*this, attr, object);
  }
  // A class's __getattr__ is the fallback (torch.ops namespaces make ops on demand).
  for (const PyType* t = type.get(); t != nullptr; t = t->base.get()) {
    if (Value hook = t->dict->GetStr("__getattr__"))
      return Call(hook, CallArgs{{object, heap().Str(std::string(name))}, {}});
  }
  NoAttribute(*this, object, name);
}

void Interpreter::SetAttr(const Value& object, std::string_view name, Value value) {
  Mutate(object);
  if (auto* f = DynCast<PyFunction>(object)) {
    if (name == "__name__")
      f->name = std::move(value);
    else if (name == "__qualname__")
      f->qualname = std::move(value);
    else if (name == "__module__")
      f->module = std::move(value);
    else if (name == "__doc__")
      f->doc = std::move(value);
    else
      f->SetAttr(name, std::move(value));
    return;
  }
  if (auto* m = DynCast<PyModule>(object)) {
    if (m == process().modules()[ModuleId::kTorchDynamoConfig].get()) {
      if (const char* alias = CheckConfigWrite(*this, name, value)) m->SetAttr(alias, value);
    }
    return m->SetAttr(name, std::move(value));
  }
  if (IsOfUserClass(object) && !Is<PyMethod>(object)) {
    StoreAttribute(object);
    SetClassStatementAttribute(*this, object, name, &value);
    return;
  }
  // An object() has no __dict__: CPython's AttributeError below.
  if (auto* i = DynCast<PyInstance>(object); i != nullptr && i->type != process().types().object())
    return i->attrs->SetStr(name, std::move(value));
  Raise(heap(), ExcType::kAttributeError,
        fmt::format("'{}' object has no attribute '{}'", TypeName(object), name));
}

void DelAttr(Interpreter& in, const Value& object, std::string_view name) {
  in.Mutate(object);
  bool removed = false;
  if (IsOfUserClass(object) && !Is<PyMethod>(object)) {
    in.StoreAttribute(object);
    removed = SetClassStatementAttribute(in, object, name, nullptr);
  } else if (auto* f = DynCast<PyFunction>(object))
    removed = f->attrs && f->attrs->EraseStr(name);
  else if (auto* m = DynCast<PyModule>(object))
    removed = m->dict().EraseStr(name);
  else if (auto* i = DynCast<PyInstance>(object))
    removed = i->attrs->EraseStr(name);
  if (!removed) NoAttribute(in, object, name);
}

Value CallOther(Interpreter& in, const Value& callee, CallArgs args) {
  if (const auto* m = DynCast<PyMethod>(callee)) {
    args.positional.insert(args.positional.begin(), m->self);
    Value function = m->function;
    return in.Call(function, std::move(args));
  }
  if (const auto* t = DynCast<PyType>(callee)) {
    if (t->exception) {
      // BaseException.__init__ takes positional args only.
      if (!args.keywords.empty()) {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("{}() takes no keyword arguments", t->name));
      }
      return in.heap().NewException(*t->exception, in.heap().NewTuple(std::move(args.positional)));
    }
    if (t->construct) return t->construct(args);
    // CPython makes objects of most types (object(), type(None)() is None, ...) and raises
    // its own TypeErrors for the rest: not modeled, never a TypeError of the reference's.
    RefuseNotModeled(fmt::format("calling the type '{}' is not modeled", t->QualifiedName()));
  }
  if (Is<PyInstance>(callee)) {
    if (std::optional<Value> call = LookupMethod(in, callee, "__call__")) {
      args.positional.insert(args.positional.begin(), callee);
      return in.Call(*call, std::move(args));
    }
  }
  Raise(in.heap(), ExcType::kTypeError,
        fmt::format("'{}' object is not callable", TypeName(callee)));
}

std::vector<Value> Interpreter::Iterate(const Value& iterable) {
  Use(iterable);
  switch (iterable->kind()) {
    case ObjectKind::kList:
      return DynCast<PyList>(iterable)->items();
    case ObjectKind::kTuple:
      return DynCast<PyTuple>(iterable)->items();
    case ObjectKind::kDict: {
      std::vector<Value> keys;
      for (auto& [k, v] : DynCast<PyDict>(iterable)->Items()) keys.push_back(k);
      return keys;
    }
    case ObjectKind::kStr: {
      std::vector<Value> chars;
      const std::string& s = DynCast<PyStr>(iterable)->value();
      for (size_t i = 0; i < s.size();) {
        size_t n = 1;
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0xf0)
          n = 4;
        else if (c >= 0xe0)
          n = 3;
        else if (c >= 0xc0)
          n = 2;
        chars.push_back(heap().Str(s.substr(i, n)));
        i += n;
      }
      return chars;
    }
    case ObjectKind::kTensor: {
      const Tensor& t = TensorOf(iterable);
      if (t.dim() == 0) Raise(heap(), ExcType::kTypeError, "iteration over a 0-d tensor");
      RefuseNotModeled("iterating over a tensor is outside the reference");
    }
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
    case ObjectKind::kDType:
      break;
  }
  if (std::optional<Value> items = LookupMethod(*this, iterable, "__iter_items__")) {
    Value list = Call(*items, {{iterable}, {}});
    return DynCast<PyList>(list)->items();
  }
  Raise(heap(), ExcType::kTypeError,
        fmt::format("'{}' object is not iterable", TypeName(iterable)));
}

}  // namespace tdc::runtime
