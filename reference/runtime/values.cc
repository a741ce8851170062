// The value classes' death orders (CPython 3.11's tp_dealloc of each type), the dict,
// and the Python semantics of values (==, hash, truth, type names; repr in value_repr.cc).
#include "reference/runtime/values.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "reference/runtime/heap.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::runtime {
namespace {

void TakeLastToFirst(std::vector<Value>& items, std::vector<Value>& out) {
  // list_dealloc / tupledealloc: `i = Py_SIZE(op); while (--i >= 0) Py_XDECREF(...)`.
  for (auto it = items.rbegin(); it != items.rend(); ++it) out.push_back(std::move(*it));
  items.clear();
}

}  // namespace

// --- death orders (I6) ----------------------------------------------------------------

void PyTuple::TakeReferences(std::vector<Value>& out) { TakeLastToFirst(items_, out); }
void PyList::TakeReferences(std::vector<Value>& out) { TakeLastToFirst(items_, out); }

void PyList::Clear() {
  std::vector<Value> old;
  TakeLastToFirst(items_, old);
  for (Value& item : old) item.Reset();
}

void PyCell::TakeReferences(std::vector<Value>& out) { out.push_back(std::move(contents)); }

void PyFunction::TakeReferences(std::vector<Value>& out) {
  // func_clear, then func_dealloc's name, qualname (and the code, which is no heap
  // object here: it goes when the function is deleted).
  out.push_back(std::move(globals));
  out.push_back(std::move(module));
  out.push_back(std::move(defaults));
  out.push_back(std::move(kwdefaults));
  out.push_back(std::move(doc));
  out.push_back(std::move(attrs));
  out.push_back(std::move(closure));
  out.push_back(std::move(name));
  out.push_back(std::move(qualname));
}

void PyModule::TakeReferences(std::vector<Value>& out) { out.push_back(std::move(dict_)); }
void PyTensor::TakeReferences(std::vector<Value>& out) { out.push_back(std::move(base_)); }
void PyException::TakeReferences(std::vector<Value>& out) { out.push_back(std::move(args_)); }

// dict_dealloc -> free_keys_object (3.11): for i in 0..dk_nentries, XDECREF the key then
// the value of entry i; deleted entries hold NULLs. So the values die in insertion order
// (the last value's id ends on top, measured by dict_values_order) with each key just
// before its value (a one-off check with run-time str keys on 3.11.7 agrees).
void PyDict::TakeReferences(std::vector<Value>& out) {
  for (Entry& entry : entries_) {
    out.push_back(std::move(entry.key));
    out.push_back(std::move(entry.value));
  }
  entries_.clear();
  index_.Clear();
  used_ = 0;
}

// --- functions ------------------------------------------------------------------------

namespace {
std::string_view StrText(const Value& v) {
  const auto* str = DynCast<PyStr>(v);
  return str != nullptr ? std::string_view(str->value()) : std::string_view();
}
}  // namespace

std::string_view PyFunction::name_text() const { return StrText(name); }
std::string_view PyFunction::qualname_text() const { return StrText(qualname); }

// The slots CPython keeps outside __dict__ are read and written as fields; everything
// else lives in __dict__.
Value PyFunction::GetAttr(std::string_view attr) const {
  Heap& h = heap();
  auto or_none = [&h](const Value& v) { return v ? v : h.None(); };
  if (attr == "__name__") return name;
  if (attr == "__qualname__") return qualname;
  if (attr == "__module__") return or_none(module);
  if (attr == "__doc__") return or_none(doc);
  if (attr == "__defaults__") return or_none(defaults);
  if (attr == "__kwdefaults__") return or_none(kwdefaults);
  if (attr == "__globals__") return globals;
  if (attr == "__closure__") return or_none(closure);
  if (attr == "__dict__") {
    auto* self = const_cast<PyFunction*>(this);  // __dict__ is made on first access
    if (!self->attrs) self->attrs = h.NewDict();
    return attrs;
  }
  return attrs ? attrs->GetStr(attr) : nullptr;
}

void PyFunction::SetAttr(std::string_view attr, Value value) {
  auto none_to_null = [this](Value v) { return v == heap().None() ? nullptr : v; };
  if (attr == "__name__") {
    name = std::move(value);
  } else if (attr == "__qualname__") {
    qualname = std::move(value);
  } else if (attr == "__module__") {
    module = std::move(value);
  } else if (attr == "__doc__") {
    doc = none_to_null(std::move(value));
  } else if (attr == "__defaults__") {
    defaults = none_to_null(std::move(value));
  } else if (attr == "__kwdefaults__") {
    kwdefaults = none_to_null(std::move(value));
  } else {
    if (!attrs) attrs = heap().NewDict();
    attrs->SetStr(attr, std::move(value));
  }
}

// --- dict -----------------------------------------------------------------------------

size_t PyDict::HashOrRaise(const Value& key) const {
  std::optional<size_t> hash = PyHash(key);
  if (!hash) {
    Raise(heap(), ExcType::kTypeError, "unhashable type: '" + std::string(TypeName(key)) + "'");
  }
  return *hash;
}

// Lookup compares identity first, then ==, as CPython's lookdict does.
size_t PyDict::Find(const Value& key, size_t hash) const {
  return index_.Find(hash, [&](size_t i) {
    const Value& candidate = entries_[i].key;
    return candidate == key || PyEquals(candidate, key);
  });
}

size_t PyDict::FindStr(std::string_view name, size_t hash) const {
  return index_.Find(hash, [&](size_t i) {
    const auto* str = DynCast<PyStr>(entries_[i].key);
    return str != nullptr && str->value() == name;
  });
}

Value PyDict::Get(const Value& key) const {
  size_t i = Find(key, HashOrRaise(key));
  return i == kNotFound ? nullptr : entries_[i].value;
}

Value PyDict::GetStr(std::string_view name) const {
  size_t i = FindStr(name, HashText(name));
  return i == kNotFound ? nullptr : entries_[i].value;
}

// insertdict: an existing key keeps its first key object; the new value is stored, then
// the old value dies, then the (unused) new key is dropped.
void PyDict::Set(Value key, Value value) {
  const size_t hash = HashOrRaise(key);
  if (size_t i = Find(key, hash); i != kNotFound) {
    entries_[i].value = std::move(value);
    return;
  }
  Append(std::move(key), std::move(value), hash);
}

void PyDict::SetStr(std::string_view name, Value value) {
  const size_t hash = HashText(name);
  if (size_t i = FindStr(name, hash); i != kNotFound) {
    entries_[i].value = std::move(value);
    return;
  }
  // A str key hashes as its text (PyHash), so the hash just taken is the key's.
  Append(heap().Intern(name, hash), std::move(value), hash);
}

void PyDict::Append(Value key, Value value, size_t hash) {
  Compact();
  entries_.push_back({std::move(key), std::move(value), hash});
  index_.Insert(hash, entries_.size() - 1);
  ++used_;
}

bool PyDict::Erase(const Value& key) {
  size_t i = Find(key, HashOrRaise(key));
  if (i == kNotFound) return false;
  EraseAt(i);
  return true;
}

bool PyDict::EraseStr(std::string_view name) {
  size_t i = FindStr(name, HashText(name));
  if (i == kNotFound) return false;
  EraseAt(i);
  return true;
}

// delitem_common: the slot becomes a dummy; the key is dropped, then the value. Both are
// moved out first, so a finalizer run by their death sees a consistent dict.
void PyDict::EraseAt(size_t index) {
  index_.Erase(entries_[index].hash, index);
  Value key = std::move(entries_[index].key);
  Value value = std::move(entries_[index].value);
  --used_;
  key.Reset();
  value.Reset();
}

// Drops deleted slots once they outnumber live ones (insertion order is kept; deleted
// slots hold no references, so the death order of a later dealloc is unchanged).
void PyDict::Compact() {
  if (entries_.size() < 16 || used_ * 2 > entries_.size()) return;
  std::vector<Entry> live;
  live.reserve(used_);
  for (Entry& entry : entries_) {
    if (entry.key) live.push_back(std::move(entry));
  }
  entries_ = std::move(live);
  index_.Clear();
  for (size_t i = 0; i < entries_.size(); ++i) index_.Insert(entries_[i].hash, i);
}

std::vector<std::pair<Value, Value>> PyDict::Items() const {
  std::vector<std::pair<Value, Value>> items;
  items.reserve(used_);
  for (const Entry& entry : entries_) {
    if (entry.key) items.emplace_back(entry.key, entry.value);
  }
  return items;
}

// --- int arithmetic in int64 ------------------------------------------------------------

namespace {
[[noreturn]] void IntOverflow(Heap& heap) {
  // Not a CPython error: Python ints are unbounded. The model stops here rather than
  // wrap (SEMANTICS.md §6, limits).
  RefuseNotModeled("int result outside the reference model's int64 range");
}
}  // namespace

Value IntAdd(Heap& heap, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) IntOverflow(heap);
  return heap.Int(r);
}

Value IntSub(Heap& heap, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) IntOverflow(heap);
  return heap.Int(r);
}

Value IntMul(Heap& heap, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) IntOverflow(heap);
  return heap.Int(r);
}

// --- Python semantics ------------------------------------------------------------------

namespace {

// The exact value of a number (bool, int or float), for == across the three types.
struct Number {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
};

std::optional<Number> AsNumber(const Value& v) {
  if (const auto* b = DynCast<PyBool>(v)) return Number{false, b->value() ? 1 : 0, 0};
  if (const auto* i = DynCast<PyInt>(v)) return Number{false, i->value(), 0};
  if (const auto* f = DynCast<PyFloat>(v)) return Number{true, 0, f->value()};
  return std::nullopt;
}

// A double that is an integer inside int64's range, as that integer.
std::optional<int64_t> IntegralDouble(double d) {
  // 2**63 is exactly representable; [-2**63, 2**63) holds every int64.
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(d >= -kTwo63 && d < kTwo63) || std::trunc(d) != d) return std::nullopt;
  return static_cast<int64_t>(d);
}

// CPython compares int with float exactly (float_richcompare), never by rounding the int.
bool NumbersEqual(const Number& a, const Number& b) {
  if (a.is_float && b.is_float) return a.f == b.f;
  if (!a.is_float && !b.is_float) return a.i == b.i;
  const Number& fl = a.is_float ? a : b;
  const Number& in = a.is_float ? b : a;
  std::optional<int64_t> integral = IntegralDouble(fl.f);
  return integral && *integral == in.i;
}

// Container items compare with identity first (PyObject_RichCompareBool).
bool ItemsEqual(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i]) && !PyEquals(a[i], b[i])) return false;
  }
  return true;
}

bool DictsEqual(const PyDict& a, const PyDict& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a.Items()) {
    Value other = b.Get(key);
    if (!other || (!(other == value) && !PyEquals(value, other))) return false;
  }
  return true;
}

size_t Combine(size_t seed, size_t h) {
  return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

bool HoldsTensorSeen(const Value& v, std::set<ObjectId>& seen) {
  if (Is<PyTensor>(v)) return true;
  const std::vector<Value>* items = nullptr;
  if (const auto* list = DynCast<PyList>(v)) items = &list->items();
  if (const auto* tuple = DynCast<PyTuple>(v)) items = &tuple->items();
  const auto* dict = DynCast<PyDict>(v);
  if ((items == nullptr && dict == nullptr) || !seen.insert(v->id()).second) return false;
  if (items != nullptr) {
    return std::any_of(items->begin(), items->end(),
                       [&](const Value& item) { return HoldsTensorSeen(item, seen); });
  }
  return std::any_of(dict->Items().begin(), dict->Items().end(),
                     [&](const auto& entry) { return HoldsTensorSeen(entry.second, seen); });
}

}  // namespace

bool HoldsTensor(const Value& v) {
  std::set<ObjectId> seen;
  return v && HoldsTensorSeen(v, seen);
}

bool PyEquals(const Value& a, const Value& b) {
  CheckStackLeft();
  std::optional<Number> na = AsNumber(a);
  std::optional<Number> nb = AsNumber(b);
  if (na || nb) return na && nb && NumbersEqual(*na, *nb);
  if (a->kind() != b->kind()) return false;
  switch (a->kind()) {
    case ObjectKind::kStr:
      return DynCast<PyStr>(a)->value() == DynCast<PyStr>(b)->value();
    case ObjectKind::kTuple:
      return ItemsEqual(DynCast<PyTuple>(a)->items(), DynCast<PyTuple>(b)->items());
    case ObjectKind::kList:
      return ItemsEqual(DynCast<PyList>(a)->items(), DynCast<PyList>(b)->items());
    case ObjectKind::kDict:
      return DictsEqual(*DynCast<PyDict>(a), *DynCast<PyDict>(b));
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kTensor:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kDType:
      return a == b;
    case ObjectKind::kMethod: {  // method_richcompare: same function and same self
      const auto* ma = DynCast<PyMethod>(a);
      const auto* mb = DynCast<PyMethod>(b);
      return ma->function == mb->function && ma->self == mb->self;
    }
  }
  return a == b;
}

size_t HashText(std::string_view text) { return std::hash<std::string_view>()(text); }

std::optional<size_t> PyHash(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return 0x6e6f6e65;
    case ObjectKind::kBool:
      return std::hash<int64_t>()(DynCast<PyBool>(v)->value() ? 1 : 0);
    case ObjectKind::kInt:
      return std::hash<int64_t>()(DynCast<PyInt>(v)->value());
    case ObjectKind::kFloat: {
      // Equal numbers hash equally: an integral float hashes as its int.
      double d = DynCast<PyFloat>(v)->value();
      if (std::optional<int64_t> integral = IntegralDouble(d)) {
        return std::hash<int64_t>()(*integral);
      }
      return std::hash<double>()(d);
    }
    case ObjectKind::kStr:
      return HashText(DynCast<PyStr>(v)->value());
    case ObjectKind::kTuple: {
      size_t seed = DynCast<PyTuple>(v)->size();
      for (const Value& item : DynCast<PyTuple>(v)->items()) {
        std::optional<size_t> h = PyHash(item);
        if (!h) return std::nullopt;
        seed = Combine(seed, *h);
      }
      return seed;
    }
    case ObjectKind::kList:
    case ObjectKind::kDict:
      return std::nullopt;
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kTensor:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kDType:
      return std::hash<const void*>()(v.get());  // object.__hash__: by identity
    case ObjectKind::kMethod: {
      const auto* m = DynCast<PyMethod>(v);
      return Combine(std::hash<const void*>()(m->function.get()),
                     std::hash<const void*>()(m->self.get()));
    }
  }
  return std::nullopt;
}

bool IsTruthy(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return false;
    case ObjectKind::kBool:
      return DynCast<PyBool>(v)->value();
    case ObjectKind::kInt:
      return DynCast<PyInt>(v)->value() != 0;
    case ObjectKind::kFloat:
      return DynCast<PyFloat>(v)->value() != 0;
    case ObjectKind::kStr:
      return !DynCast<PyStr>(v)->value().empty();
    case ObjectKind::kTuple:
      return DynCast<PyTuple>(v)->size() != 0;
    case ObjectKind::kList:
      return !DynCast<PyList>(v)->items().empty();
    case ObjectKind::kDict:
      return DynCast<PyDict>(v)->size() != 0;
    case ObjectKind::kTensor: {
      const Tensor& t = DynCast<PyTensor>(v)->tensor();
      if (t.numel() == 0) {
        throw TorchError("RuntimeError", "Boolean value of Tensor with no values is ambiguous");
      }
      if (t.numel() > 1) {
        throw TorchError("RuntimeError",
                         "Boolean value of Tensor with more than one value is ambiguous");
      }
      return Item(t).AsBool();
    }
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
    case ObjectKind::kDType:
      return true;
  }
  return true;
}

std::string_view TypeName(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return "NoneType";
    case ObjectKind::kBool:
      return "bool";
    case ObjectKind::kInt:
      return "int";
    case ObjectKind::kFloat:
      return "float";
    case ObjectKind::kStr:
      return "str";
    case ObjectKind::kTuple:
      return DynCast<PyTuple>(v)->torch_size() ? "Size" : "tuple";
    case ObjectKind::kList:
      return "list";
    case ObjectKind::kDict:
      return "dict";
    case ObjectKind::kCell:
      return "cell";
    case ObjectKind::kFunction:
      return "function";
    case ObjectKind::kBuiltin:
      return "builtin_function_or_method";
    case ObjectKind::kModule:
      return "module";
    case ObjectKind::kTensor:
      return "Tensor";
    case ObjectKind::kException:
      return ExcTypeName(DynCast<PyException>(v)->type());
    case ObjectKind::kType:
      return "type";
    case ObjectKind::kInstance:
      return DynCast<PyInstance>(v)->type->name;
    case ObjectKind::kMethod:
      return "method";
    case ObjectKind::kDType:
      return "dtype";
  }
  return "object";
}

}  // namespace tdc::runtime
