// Items and slices of Python containers: seq[i], seq[a:b:c], d[k], their assignment and
// deletion, with CPython 3.11's errors; a tensor's are tensor_items.cc's.
#include <fmt/format.h>

#include <algorithm>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/interp/tensor_items.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {
namespace {

// An int or bool used as an index (Python's __index__ of the subset's values).
std::optional<int64_t> IntOf(const Value& v) {
  if (const auto* i = DynCast<PyInt>(v)) return i->value();
  if (const auto* b = DynCast<PyBool>(v)) return b->value() ? 1 : 0;
  return std::nullopt;
}

int64_t Index(Interpreter& in, const Value& key, size_t size, std::string_view what) {
  std::optional<int64_t> n = IntOf(key);
  if (!n) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("{} indices must be integers or slices, not {}", what, TypeName(key)));
  }
  int64_t i = *n < 0 ? *n + static_cast<int64_t>(size) : *n;
  if (i < 0 || i >= static_cast<int64_t>(size)) {
    Raise(in.heap(), ExcType::kIndexError, fmt::format("{} index out of range", what));
  }
  return i;
}

// PySlice_AdjustIndices: the indices a slice selects from a sequence of `length`.
std::vector<int64_t> SliceIndices(Interpreter& in, int64_t length, const Value& lower,
                                  const Value& upper, const Value& step_value) {
  auto bound = [&](const Value& v) -> std::optional<int64_t> {
    if (Is<PyNone>(v)) return std::nullopt;
    std::optional<int64_t> n = IntOf(v);
    if (!n) {
      Raise(in.heap(), ExcType::kTypeError,
            "slice indices must be integers or None or have an __index__ method");
    }
    return *n;
  };
  int64_t step = bound(step_value).value_or(1);
  if (step == 0) Raise(in.heap(), ExcType::kValueError, "slice step cannot be zero");
  auto clamp = [&](std::optional<int64_t> v, int64_t absent) {
    if (!v) return absent;
    int64_t i = *v < 0 ? *v + length : *v;
    if (step > 0) return std::clamp<int64_t>(i, 0, length);
    return std::clamp<int64_t>(i, -1, length - 1);
  };
  int64_t start = clamp(bound(lower), step > 0 ? 0 : length - 1);
  int64_t stop = clamp(bound(upper), step > 0 ? length : -1);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
  return out;
}

// Python's TypeError `message` for an item operation `container` lacks (its `method`);
// refused where Python has the method there (a tensor's __setitem__), or cannot tell (a type
// the attribute table does not list), never answered with the TypeError (DESIGN D13).
[[noreturn]] void LacksItemMethod(Interpreter& in, const Value& container, std::string_view method,
                                  const std::string& message) {
  const std::string type(TypeName(container));
  if (IsOfUserClass(container) ? PythonTypeHas(type, method) : PythonMayHave(type, method)) {
    RefuseNotModeled(fmt::format("{}.{} is not modeled", type, method));
  }
  Raise(in.heap(), ExcType::kTypeError, message);
}

// `C[key]` on a class (CPython's PyObject_GetItem): `type` itself and a class with
// __class_getitem__ (list, dict, tuple and their subclasses) make a types.GenericAlias, which
// the runtime does not model (DESIGN D13); any other class raises TypeError, named by its
// tp_name: its __name__ for builtins and class statements (which refuse __class_getitem__),
// possibly dotted for a C type elsewhere (refused, as is a class the name table does not list).
[[noreturn]] void SubscriptClass(Interpreter& in, const PyType& type) {
  const auto refuse = [&](std::string_view why) {
    RefuseNotModeled(fmt::format("{}[...] is not modeled ({})", type.name, why));
  };
  if (type.name == "type" && type.module == "builtins") refuse("a types.GenericAlias");
  for (const PyType* t = &type; t != nullptr; t = t->base.get()) {
    if (t->user_defined) continue;
    if (!PythonTypeListed(t->name)) refuse("whether the class has __class_getitem__");
    if (PythonTypeHas(t->name, "__class_getitem__")) refuse("a types.GenericAlias");
  }
  if (!type.user_defined && type.module != "builtins") refuse("its TypeError names its tp_name");
  Raise(in.heap(), ExcType::kTypeError, fmt::format("type '{}' is not subscriptable", type.name));
}

}  // namespace

Value GetItem(Interpreter& in, const Value& container, const Value& key) {
  in.ReadItem(container, key);
  if (Is<PyTensor>(container)) return TensorGetItem(in, container, key);
  if (const auto* type = DynCast<PyType>(container)) SubscriptClass(in, *type);
  if (std::optional<SliceParts> parts = SliceOf(key); parts && !Is<PyDict>(container))
    return GetSlice(in, container, parts->start, parts->stop, parts->step);
  if (const auto* l = DynCast<PyList>(container))
    return l->items()[Index(in, key, l->items().size(), "list")];
  if (const auto* t = DynCast<PyTuple>(container))
    return t->items()[Index(in, key, t->size(), "tuple")];
  if (const auto* d = DynCast<PyDict>(container)) {
    if (Value v = d->Get(key)) return v;
    throw PyError(in.heap().NewException(ExcType::kKeyError, in.heap().NewTuple({key})));
  }
  if (const auto* s = DynCast<PyStr>(container)) {
    int64_t i = Index(in, key, s->value().size(), "string");
    return in.heap().Str(s->value().substr(static_cast<size_t>(i), 1));
  }
  // A library class's __getitem__ (torch._dynamo.utils.counters, re.Match).
  if (std::optional<Value> method = LookupMethod(in, container, "__getitem__"))
    return in.Call(*method, {{container, key}, {}});
  LacksItemMethod(in, container, "__getitem__",
                  fmt::format("'{}' object is not subscriptable", TypeName(container)));
}

Value GetSlice(Interpreter& in, const Value& container, const Value& lower, const Value& upper,
               const Value& step) {
  in.Use(container);
  // x[a:b:c] on a tensor is x[slice(a, b, c)] (CPython 3.11 builds the slice object).
  if (Is<PyTensor>(container))
    return TensorGetItem(in, container, NewSlice(in, lower, upper, step));
  if (Is<PyStr>(container)) {
    std::vector<Value> chars = in.Iterate(container);
    std::string out;
    for (int64_t i : SliceIndices(in, static_cast<int64_t>(chars.size()), lower, upper, step)) {
      out += DynCast<PyStr>(chars[static_cast<size_t>(i)])->value();
    }
    return in.heap().Str(out);
  }
  const std::vector<Value>* items = nullptr;
  if (const auto* l = DynCast<PyList>(container)) items = &l->items();
  if (const auto* t = DynCast<PyTuple>(container)) items = &t->items();
  if (const auto* type = DynCast<PyType>(container)) SubscriptClass(in, *type);
  if (items == nullptr) {
    LacksItemMethod(in, container, "__getitem__",
                    fmt::format("'{}' object is not subscriptable", TypeName(container)));
  }
  std::vector<Value> out;
  for (int64_t i : SliceIndices(in, static_cast<int64_t>(items->size()), lower, upper, step)) {
    out.push_back((*items)[static_cast<size_t>(i)]);
  }
  if (Is<PyList>(container)) return in.heap().NewList(std::move(out));
  // A torch.Size's slice is one.
  return in.heap().NewTuple(std::move(out), DynCast<PyTuple>(container)->torch_size());
}

void SetItem(Interpreter& in, const Value& container, const Value& key, Value value) {
  in.Use(container);
  in.Mutate(container);
  if (auto* l = DynCast<PyList>(container)) {
    l->items()[Index(in, key, l->items().size(), "list assignment")] = std::move(value);
    return;
  }
  if (auto* d = DynCast<PyDict>(container)) {
    d->Set(key, std::move(value));
    return;
  }
  if (std::optional<Value> method = LookupMethod(in, container, "__setitem__")) {
    in.Call(*method, {{container, key, std::move(value)}, {}});
    return;
  }
  LacksItemMethod(in, container, "__setitem__",
                  fmt::format("'{}' object does not support item assignment", TypeName(container)));
}

void DelItem(Interpreter& in, const Value& container, const Value& key) {
  in.Use(container);  // its items move: a guard kept by where an item was read would not hold
  in.Mutate(container);
  if (auto* l = DynCast<PyList>(container)) {
    int64_t i = Index(in, key, l->items().size(), "list assignment");
    Value removed = std::move(l->items()[static_cast<size_t>(i)]);
    l->items().erase(l->items().begin() + i);
    return;
  }
  if (auto* d = DynCast<PyDict>(container)) {
    if (!d->Erase(key))
      throw PyError(in.heap().NewException(ExcType::kKeyError, in.heap().NewTuple({key})));
    return;
  }
  if (std::optional<Value> method = LookupMethod(in, container, "__delitem__")) {
    in.Call(*method, {{container, key}, {}});
    return;
  }
  LacksItemMethod(in, container, "__delitem__",
                  fmt::format("'{}' object does not support item deletion", TypeName(container)));
}

}  // namespace tdc::runtime
