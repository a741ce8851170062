#include "reference/dynamo/guards.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/types.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT: guards read the runtime's objects throughout

namespace {

const PyFunction* UserFunction(const Value& v) {
  const auto* f = DynCast<PyFunction>(v);
  return f != nullptr && !f->is_native() ? f : nullptr;
}

std::string GuardOf(const Value& v);

// A dict's guard when something inside it is guarded by identity (a function, an instance):
// equal text would say nothing of what torch's guards on it check.
constexpr std::string_view kOpaqueDict = "dict with values guarded by identity";

// The contents of a dict, tuple or list as a guard's text, each leaf as GuardOf spells it;
// nullopt when a leaf's guard is not exact from its text (a function, an instance, a class:
// torch guards what the trace read of them) or the nesting runs deeper than torch's
// programs do (a dict holding itself).
std::optional<std::string> Contents(const Value& v, int depth = 0) {
  if (depth > 16) return std::nullopt;
  std::string out;
  if (const auto* d = DynCast<PyDict>(v)) {
    for (const auto& [key, value] : d->Items()) {
      std::optional<std::string> k = Contents(key, depth + 1);
      std::optional<std::string> item = Contents(value, depth + 1);
      if (!k || !item) return std::nullopt;
      out += fmt::format("{}: {}, ", *k, *item);
    }
    return fmt::format("dict {{{}}}", out);
  }
  if (const std::vector<Value>* items = ItemsOf(v)) {
    for (const Value& item : *items) {
      std::optional<std::string> text = Contents(item, depth + 1);
      if (!text) return std::nullopt;
      out += *text + ", ";
    }
    return fmt::format("{} [{}]", TypeName(v), out);
  }
  switch (v->kind()) {
    // Values, and objects that live as long as the process (their id is exact).
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
    case ObjectKind::kTensor:
    case ObjectKind::kDType:
    case ObjectKind::kModule:
      return GuardOf(v);
    // (A builtin may be a bound method made and dropped: its id is reused.)
    case ObjectKind::kTuple:
    case ObjectKind::kList:
    case ObjectKind::kDict:
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
      break;
  }
  return std::nullopt;
}

std::string GuardOf(const Value& v) {
  if (!v) return "absent";
  if (Is<PyDict>(v)) return Contents(v).value_or(std::string(kOpaqueDict));
  if (const auto* t = DynCast<PyTensor>(v)) {
    const Tensor& tensor = t->tensor();
    return fmt::format("tensor {} {} {} {}", static_cast<int>(tensor.dtype), tensor.requires_grad,
                       fmt::join(tensor.sizes, ","), fmt::join(tensor.strides, ","));
  }
  // A function by its code object (torch's ID_MATCH on f.__code__): every function a def
  // statement makes shares its code (closures too), each def statement has its own.
  if (const PyFunction* f = UserFunction(v)) {
    return fmt::format("code {}", static_cast<const void*>(std::get<UserCode>(f->code).def));
  }
  // A class statement's instance by its class (TYPE_MATCH); its attributes have their own.
  if (const auto* i = DynCast<PyInstance>(v); i != nullptr && i->type->user_defined) {
    return fmt::format("type {}", i->type->id());
  }
  switch (v->kind()) {
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
      return fmt::format("{} {}", TypeName(v), Repr(v));
    case ObjectKind::kTuple:
      return fmt::format("{} of {}", TypeName(v), DynCast<PyTuple>(v)->size());  // Size too
    case ObjectKind::kList:
      return fmt::format("list of {}", DynCast<PyList>(v)->items().size());
    case ObjectKind::kDict:
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kTensor:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
    case ObjectKind::kDType:
      break;
  }
  return fmt::format("id {}", v->id());
}

// The source as torch's guard messages name it: L['x'] -> x, L['args'][0] -> args[0].
std::string LocalName(const std::string& source) {
  size_t close = source.find("']");
  if (!source.starts_with("L['") || close == std::string::npos) return source;
  return source.substr(3, close - 3) + source.substr(close + 2);
}

GuardedValue GuardOne(const Value& v, std::string name, size_t index) {
  GuardedValue g;
  g.index = index;
  g.name = std::move(name);
  g.guard = GuardOf(v);
  g.object = v ? v->id() : 0;
  g.dict = Is<PyDict>(v);
  g.constant = v && IsPythonConstant(v);
  if (const auto* t = DynCast<PyTensor>(v)) {
    const Tensor& tensor = t->tensor();
    g.tensor =
        GuardedValue::TensorMeta{tensor.dtype, tensor.requires_grad, tensor.sizes, tensor.strides};
  }
  return g;
}

const PyCell* CellOf(const Value& function, size_t cell) {
  const PyFunction* f = UserFunction(function);
  const auto* closure = f != nullptr ? DynCast<PyTuple>(f->closure) : nullptr;
  if (closure == nullptr || cell >= closure->items().size()) return nullptr;
  return DynCast<PyCell>(closure->items()[cell]);
}

// TensorCheck's verbose reason (torch/csrc/dynamo/guards.cpp), in its order.
std::string TensorFailure(const GuardedValue::TensorMeta& was, const Tensor& now) {
  if (was.dtype != now.dtype) {
    return fmt::format("dtype mismatch. expected {}, actual {}", TorchTypeName(was.dtype),
                       TorchTypeName(now.dtype));
  }
  if (was.requires_grad != now.requires_grad) {
    return fmt::format("requires_grad mismatch. expected requires_grad={:d}", was.requires_grad);
  }
  if (was.sizes.size() != now.sizes.size()) {
    return fmt::format("rank mismatch. expected {}, actual {}", was.sizes.size(), now.sizes.size());
  }
  for (size_t i = 0; i < was.sizes.size(); ++i) {
    if (was.sizes[i] != now.sizes[i]) {
      return fmt::format("size mismatch at index {}. expected {}, actual {}", i, was.sizes[i],
                         now.sizes[i]);
    }
  }
  for (size_t i = 0; i < was.strides.size(); ++i) {
    if (was.strides[i] != now.strides[i]) {
      return fmt::format("stride mismatch at index {}. expected {}, actual {}", i, was.strides[i],
                         now.strides[i]);
    }
  }
  return "";
}

// `g` and, below it, one guard per item of a tuple or list, recursively. `above` holds the
// containers `v` is inside: one holding itself would be walked forever (torch guards the
// paths the trace reads through it, which the reference does not follow), so it is refused.
void AddWithItems(const Value& v, GuardedValue g, std::vector<GuardedValue>& out, WalkPath& above) {
  RefuseIfInside(above, v,
                 "a list or tuple holding itself, handed to a compiled frame (" + g.name + ")");
  out.push_back(g);
  const std::vector<Value>* items = ItemsOf(v);
  if (items == nullptr) return;
  Inside inside(above, v);
  for (size_t i = 0; i < items->size(); ++i) {
    GuardedValue item = GuardOne((*items)[i], fmt::format("{}[{}]", g.name, i), g.index);
    item.cell = g.cell;
    item.cell_id = g.cell_id;
    item.attrs = g.attrs;
    item.owner = g.owner;
    item.items = g.items;
    item.items.push_back(i);
    item.parent = g.object;
    AddWithItems((*items)[i], std::move(item), out, above);
  }
}

void AddWithItems(const Value& v, GuardedValue g, std::vector<GuardedValue>& out) {
  WalkPath above;
  AddWithItems(v, std::move(g), out, above);
}

// A class statement's instance's attributes, each with its items (and, an instance, its own
// attributes: `chain` holds the instances above, so a cycle stops), then "absent" for each
// name of its class chain that no attribute of the instance shadows (a method, a class
// constant: torch guards those the trace read through the instance).
void AddAttributes(const Value& v, const GuardedValue& instance, std::vector<GuardedValue>& out,
                   std::vector<const Object*>& chain) {
  const auto* i = DynCast<PyInstance>(v);
  if (i == nullptr || !i->type->user_defined || instance.cell) return;
  if (std::find(chain.begin(), chain.end(), i) != chain.end()) return;
  chain.push_back(i);
  auto attribute = [&](const Value& value, const std::string& name) {
    GuardedValue g = GuardOne(value, fmt::format("{}.{}", instance.name, name), instance.index);
    g.attrs = instance.attrs;
    g.attrs.push_back(name);
    g.owner = i->id();
    return g;
  };
  for (const auto& [key, value] : i->attrs->Items()) {
    GuardedValue g = attribute(value, DynCast<PyStr>(key)->value());
    AddWithItems(value, g, out);
    AddAttributes(value, g, out, chain);
  }
  for (const PyType* t = i->type.get(); t != nullptr; t = t->base.get()) {
    for (const auto& [key, value] : t->dict->Items()) {
      const std::string& name = DynCast<PyStr>(key)->value();
      if (!IsSpecialName(name) && !i->attrs->GetStr(name)) out.push_back(attribute(Value(), name));
    }
  }
  chain.pop_back();
}

}  // namespace

const std::vector<Value>* ItemsOf(const Value& v) {
  if (const auto* t = DynCast<PyTuple>(v)) return &t->items();
  if (const auto* l = DynCast<PyList>(v)) return &l->items();
  return nullptr;
}

std::vector<GuardedValue> Guards(const Value& v, const std::string& source, size_t index) {
  std::vector<GuardedValue> out;
  AddWithItems(v, GuardOne(v, LocalName(source), index), out);
  if (Is<PyInstance>(v)) {
    std::vector<const Object*> chain;
    AddAttributes(v, GuardedValue(out[0]), out, chain);  // a copy: `out` grows
  }
  const PyFunction* f = UserFunction(v);
  const auto* closure = f != nullptr ? DynCast<PyTuple>(f->closure) : nullptr;
  for (size_t i = 0; closure != nullptr && i < closure->items().size(); ++i) {
    const auto* cell = DynCast<PyCell>(closure->items()[i]);
    GuardedValue g = GuardOne(
        cell->contents, fmt::format("{}.__closure__[{}].cell_contents", out[0].name, i), index);
    g.cell = i;
    g.cell_id = cell->id();
    AddWithItems(cell->contents, std::move(g), out);
  }
  return out;
}

Value GuardedInput(const GuardedValue& g, const Value& frame_value) {
  // Hot (every guard of every warm call): most guard a frame value itself.
  if (!g.cell && g.attrs.empty() && g.items.empty()) return frame_value;
  Value v = frame_value;
  if (g.cell) {
    const PyCell* cell = CellOf(frame_value, *g.cell);
    v = cell != nullptr ? cell->contents : Value();
  }
  for (const std::string& attr : g.attrs) {
    const auto* instance = DynCast<PyInstance>(v);
    v = instance != nullptr ? instance->attrs->GetStr(attr) : Value();
  }
  for (size_t i : g.items) {
    const std::vector<Value>* items = v ? ItemsOf(v) : nullptr;
    v = items != nullptr && i < items->size() ? (*items)[i] : Value();
  }
  return v;
}

std::string GuardFailure(const GuardedValue& cached, const Value& now) {
  const auto* t = DynCast<PyTensor>(now);
  // A tensor against a tensor's guard: its metadata compared as it is, with no guard text
  // formatted (a warm call checks every tensor guard; the text is what the metadata says).
  if (cached.tensor && t != nullptr) {
    std::string why = TensorFailure(*cached.tensor, t->tensor());
    if (why.empty()) return "";
    return fmt::format("tensor '{}' {}", cached.name, why);
  }
  std::string guard = GuardOf(now);
  // torch guards a dict's keys and the values the trace read, which the reference does not
  // track: equal contents pass them, other contents may or may not.
  if (cached.dict && (cached.guard == kOpaqueDict || guard != cached.guard)) {
    RefuseNotModeled(fmt::format(
        "a compiled frame called again after the dict it read ({}) {}: torch guards its keys "
        "and the values read",
        cached.name, cached.guard == kOpaqueDict ? "held a value guarded by identity" : "changed"));
  }
  if (guard == cached.guard) return "";
  // A constant's guard: torch's line also carries the source line it came from and a user
  // stack (not modeled).
  return fmt::format("{} == {}", cached.name, cached.guard.substr(cached.guard.find(' ') + 1));
}

std::string LocalOf(const GuardedValue& g) { return g.name.substr(0, g.name.find_first_of("[.")); }

void Reads::ReadLocal(const std::string& name) {
  auto [at, inserted] = locals_.insert(name);
  if (inserted) journal_.push_back({.into = Inserted::Into::kLocals, .local = at});
}

void Reads::ReadCellOf(ObjectId cell) {
  auto [at, inserted] = cells_.insert(cell);
  if (inserted) journal_.push_back({.into = Inserted::Into::kCells, .id = at});
}

void Reads::Use(ObjectId object) {
  auto [at, inserted] = used_.insert(object);
  if (inserted) journal_.push_back({.into = Inserted::Into::kUsed, .id = at});
}

void Reads::UseShallow(ObjectId container) {
  if (auto [at, inserted] = used_shallow_.insert(container); inserted) {
    journal_.push_back({.into = Inserted::Into::kUsedShallow, .id = at});
  }
}

void Reads::ReadItem(ObjectId container, size_t index) {
  UseShallow(container);
  if (auto [at, inserted] = items_read_.insert({container, index}); inserted) {
    journal_.push_back({.into = Inserted::Into::kItems, .item = at});
  }
}

bool Reads::UsesItem(const GuardedValue& g) const {
  if (!Uses(g.object)) return false;
  return g.items.empty() || used_.contains(g.parent) ||
         items_read_.contains({g.parent, g.items.back()});
}

std::vector<ObjectId> Reads::UsedInOrder() const {
  std::vector<ObjectId> out;
  Ids seen;  // a container subscripted, then used whole, is journaled twice
  for (const Inserted& i : journal_) {
    const bool used = i.into == Inserted::Into::kUsed || i.into == Inserted::Into::kUsedShallow;
    if (used && seen.insert(*i.id).second) out.push_back(*i.id);
  }
  return out;
}

void Reads::ReadClassAttribute(ObjectId owner, const std::string& name) {
  auto [at, inserted] = class_attributes_.insert({owner, name});
  if (inserted) journal_.push_back({.into = Inserted::Into::kClassAttributes, .attribute = at});
}

void Reads::UseAt(ValuePath path) {
  auto [at, inserted] = used_at_.insert(std::move(path));
  if (inserted) journal_.push_back({.into = Inserted::Into::kUsedAt, .path = at});
}

void Reads::UseAllOf(const Reads& other) {
  for (ObjectId object : other.used_) Use(object);
  for (ObjectId container : other.used_shallow_) UseShallow(container);
  for (const auto& [container, index] : other.items_read_) ReadItem(container, index);
  for (const auto& [owner, name] : other.class_attributes_) ReadClassAttribute(owner, name);
}

Reads Reads::UsedSoFar() const {
  Reads copy;
  copy.UseAllOf(*this);
  return copy;
}

void Reads::Rollback(Mark mark) {
  while (journal_.size() > mark) {
    const Inserted& last = journal_.back();
    switch (last.into) {
      case Inserted::Into::kLocals:
        locals_.erase(last.local);
        break;
      case Inserted::Into::kCells:
        cells_.erase(last.id);
        break;
      case Inserted::Into::kUsed:
        used_.erase(last.id);
        break;
      case Inserted::Into::kUsedShallow:
        used_shallow_.erase(last.id);
        break;
      case Inserted::Into::kItems:
        items_read_.erase(last.item);
        break;
      case Inserted::Into::kClassAttributes:
        class_attributes_.erase(last.attribute);
        break;
      case Inserted::Into::kUsedAt:
        used_at_.erase(last.path);
        break;
    }
    journal_.pop_back();
  }
}

bool Reads::Read(const GuardedValue& g) const {
  const std::string local = LocalOf(g);
  // A nested resume function's values are unpacked into its inner resume functions' calls
  // (LIST_EXTEND iterates them): realized, so guarded.
  if (local == "__nested_frame_values") return true;
  if (!locals_.contains(local) || !ReadCell(g)) return false;
  // A name of the instance's class the trace read through it stays unshadowed.
  if (!g.attrs.empty() && g.object == 0) {
    return class_attributes_.contains({g.owner, g.attrs.back()});
  }
  // A cell's contents count as used once the cell is read; anything else once used.
  if ((g.cell && g.items.empty()) || UsesItem(g)) return true;
  // A container realized where it came from reaches what it holds, but its constants only
  // once used there (the stack's constant `1` does not guard an item holding 1).
  return !g.constant && std::any_of(used_at_.begin(), used_at_.end(),
                                    [&](const ValuePath& path) { return path.Holds(g); });
}

bool ValuePath::Holds(const GuardedValue& g) const {
  return !g.cell && g.attrs.empty() && g.index == index && g.items.size() >= items.size() &&
         std::equal(items.begin(), items.end(), g.items.begin());
}

std::string GlobalGuard::Failure() const {
  Value now = globals->GetStr(name);
  for (const GuardedValue& g : guards) {
    std::string why = GuardFailure(g, GuardedInput(g, now));
    if (!why.empty()) return why;
  }
  return "";
}

void GlobalGuardList::Add(GlobalGuard guard) {
  index_.emplace(guard.globals, guard.name);
  guards_.push_back(std::move(guard));
}

void GlobalGuardList::resize(size_t n) {
  for (size_t i = n; i < guards_.size(); ++i) index_.erase({guards_[i].globals, guards_[i].name});
  guards_.resize(std::min(n, guards_.size()));
}

std::vector<GlobalGuard> GlobalGuardsOf(const PyDict& globals, const Value& callee) {
  std::vector<GlobalGuard> out;
  for (const auto& [key, value] : globals.Items()) {
    const auto* name = DynCast<PyStr>(key);
    if (name != nullptr && value == callee) {
      out.push_back(
          {&globals, name->value(), Guards(callee, fmt::format("G['{}']", name->value()), 0)});
    }
  }
  return out;
}

}  // namespace tdc::dynamo
