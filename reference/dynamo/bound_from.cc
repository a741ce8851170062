// Where an inlined frame's values came from among the root frame's values (Trace::
// bound_from): torch's variables carry their source into the frames it inlines, so a
// nested graph break realizing an inlined frame's local guards that source only, where
// the reference, which realizes objects, would guard every place holding the same object
// (golden variants/guards__moved_argument_not_guarded__wrap under torch-2.13-ngb).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::optional<ValuePath> Dynamo::PathOfLocal(const Trace& t, size_t depth,
                                             const std::string& name) const {
  const Frame& f = *in_.frames()[depth];
  auto slot = f.scope->local_slot.find(name);
  if (slot == f.scope->local_slot.end() || !f.fast[slot->second]) return std::nullopt;
  const ObjectId object = f.fast[slot->second]->id();
  if (depth == t.root_depth) {
    for (const GuardedValue& g : t.guards) {
      if (!g.cell && g.items.empty() && g.name == name && g.object == object)
        return ValuePath{g.index, {}};
    }
    return std::nullopt;
  }
  auto bound = t.bound_from.find({depth, name});
  if (bound == t.bound_from.end() || bound->second.object != object) return std::nullopt;
  return bound->second.path;
}

std::optional<ValuePath> Dynamo::PathOfItem(const Trace& t, size_t depth, const std::string& name,
                                            size_t i, const Value& item) const {
  // The root's `*args` items are frame values of their own (L['args'][0]).
  if (depth == t.root_depth) {
    const std::string source = fmt::format("{}[{}]", name, i);
    for (const GuardedValue& g : t.guards) {
      if (!g.cell && g.items.empty() && g.name == source && g.object == item->id())
        return ValuePath{g.index, {}};
    }
  }
  std::optional<ValuePath> path = PathOfLocal(t, depth, name);
  if (path) path->items.push_back(i);
  return path;
}

void Dynamo::NoteBoundFrom(Trace& t, size_t depth, const PyFunction& function) {
  std::erase_if(t.bound_from, [&](const auto& entry) { return entry.first.first > depth; });
  const Frame& caller = *in_.frames()[depth];
  const lang::Node& def = *std::get<UserCode>(function.code).def;
  if (caller.call == nullptr || def.kind != lang::NodeKind::kFunctionDef) return;
  // The positional values the call passes, in order, where they come from a local by name.
  std::vector<std::optional<Trace::BoundFrom>> passed;
  for (const auto& arg : caller.call->args) {
    const bool starred = arg->kind == lang::NodeKind::kStarred;
    const lang::Expr& expr = starred ? *lang::As<lang::Starred>(*arg).value : *arg;
    const std::string* name =
        expr.kind == lang::NodeKind::kName ? &lang::As<lang::Name>(expr).id : nullptr;
    auto slot =
        name != nullptr ? caller.scope->local_slot.find(*name) : caller.scope->local_slot.end();
    const Value* value =
        slot != caller.scope->local_slot.end() ? &caller.fast[slot->second] : nullptr;
    if (!starred) {
      std::optional<ValuePath> path =
          value != nullptr && *value ? PathOfLocal(t, depth, *name) : std::nullopt;
      passed.push_back(path ? std::optional(Trace::BoundFrom{*path, (*value)->id()})
                            : std::nullopt);
      continue;
    }
    const std::vector<Value>* items = value != nullptr && *value ? ItemsOf(*value) : nullptr;
    if (items == nullptr) break;  // how many values it passes is not known here
    for (size_t i = 0; i < items->size(); ++i) {
      std::optional<ValuePath> path = PathOfItem(t, depth, *name, i, (*items)[i]);
      passed.push_back(path ? std::optional(Trace::BoundFrom{*path, (*items)[i]->id()})
                            : std::nullopt);
    }
  }
  const lang::Arguments& params = *lang::As<lang::FunctionDef>(def).args;
  std::vector<const std::string*> names;
  for (const auto& a : params.posonlyargs) names.push_back(&a->arg);
  for (const auto& a : params.args) names.push_back(&a->arg);
  for (size_t i = 0; i < names.size() && i < passed.size(); ++i) {
    if (passed[i]) t.bound_from[{depth + 1, *names[i]}] = *passed[i];
  }
}

}  // namespace tdc::dynamo
