// Side effects (R-graph-outputs): traced code that stores a tensor the graph computes where
// it outlives the frame (a global, an item of a list or dict the frame was given) makes torch
// replay that store after the graph and output the tensor from it (torch 2.13.0, probed:
// `d["a"] = x + 1`, `lst.append(x + 3)`, `global g; g = x + 1`, `obj.t = x + 1` each add the stored
// tensor to the output tuple; golden upstream/decorators/test_nonstrict_trace_pre_existing_dict_
// with_side_effects). The reference models the stores into the frame's own dicts and lists,
// whose order torch's codegen follows (library/replayed_stores); a stored tensor anywhere else
// is refused instead of being emitted without the output (D13).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/classes.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

using Seen = std::unordered_set<const Object*>;
template <typename Found>
void VisitTensors(const Value& v, Seen& seen, const Found& found);

// Calls `found(tensor)` for each tensor the items of `v` hold through lists, tuples, dicts
// and class statements' instances, each container once (a list may hold itself).
template <typename Found>
void VisitItems(const Value& v, Seen& seen, const Found& found) {
  if (const auto* tuple = DynCast<PyTuple>(v)) {
    for (const Value& item : tuple->items()) VisitTensors(item, seen, found);
  } else if (const auto* list = DynCast<PyList>(v)) {
    for (const Value& item : list->items()) VisitTensors(item, seen, found);
  } else if (const auto* dict = DynCast<PyDict>(v)) {
    for (const auto& [key, value] : dict->Items()) VisitTensors(value, seen, found);
  } else if (IsUserInstance(v)) {
    for (const auto& [name, value] : DynCast<PyInstance>(v)->attrs->Items()) {
      VisitTensors(value, seen, found);
    }
  }
}

template <typename Found>
void VisitTensors(const Value& v, Seen& seen, const Found& found) {
  if (!v || !seen.insert(v.get()).second) return;
  if (Is<PyTensor>(v)) return found(v);
  VisitItems(v, seen, found);
}

// The items of a dict (its values) or a list; none for anything else.
std::vector<Value> ItemsOfContainer(const Value& v) {
  std::vector<Value> items;
  if (const auto* dict = DynCast<PyDict>(v)) {
    for (auto& [key, item] : dict->Items()) items.push_back(item);
  } else if (const auto* list = DynCast<PyList>(v)) {
    items = list->items();
  }
  return items;
}

// Calls `found(c)` for each dict or list inside `v`'s tuples, lists and dicts (not `v`),
// each container once (a list may hold itself).
template <typename Found>
void VisitContainers(const Value& v, Seen& seen, const Found& found) {
  if (!seen.insert(v.get()).second) return;
  std::vector<Value> items;
  if (const auto* tuple = DynCast<PyTuple>(v)) {
    items = tuple->items();
  } else {
    items = ItemsOfContainer(v);
  }
  for (const Value& item : items) {
    if (Is<PyDict>(item) || Is<PyList>(item)) found(item);
    if (Is<PyDict>(item) || Is<PyList>(item) || Is<PyTuple>(item))
      VisitContainers(item, seen, found);
  }
}

// Calls `reached(o)` for each object reachable from `pending` through items, attributes,
// cells, closures (and, `through_globals`, functions' globals) and bound methods, until it
// returns true; whether it did.
template <typename Reached>
bool Walk(std::vector<const Object*> pending, bool through_globals, const Reached& reached) {
  Seen seen;
  while (!pending.empty()) {
    const Object* o = pending.back();
    pending.pop_back();
    if (o == nullptr || !seen.insert(o).second) continue;
    if (reached(o)) return true;
    auto push = [&](const Value& v) { pending.push_back(v.get()); };
    if (const auto* tuple = dynamic_cast<const PyTuple*>(o)) {
      for (const Value& item : tuple->items()) push(item);
    } else if (const auto* list = dynamic_cast<const PyList*>(o)) {
      for (const Value& item : list->items()) push(item);
    } else if (const auto* dict = dynamic_cast<const PyDict*>(o)) {
      for (const auto& [key, value] : dict->Items()) {
        push(key);
        push(value);
      }
    } else if (const auto* instance = dynamic_cast<const PyInstance*>(o)) {
      push(instance->attrs);
    } else if (const auto* cell = dynamic_cast<const PyCell*>(o)) {
      push(cell->contents);
    } else if (const auto* function = dynamic_cast<const PyFunction*>(o)) {
      push(function->closure);
      if (through_globals) push(function->globals);
    } else if (const auto* method = dynamic_cast<const PyMethod*>(o)) {
      push(method->self);
      push(method->function);
    }
  }
  return false;
}

// Whether any of `targets` is reachable from `roots`.
bool ReachesAny(std::vector<const Object*> roots,
                const std::unordered_set<const Object*>& targets) {
  return Walk(std::move(roots), /*through_globals=*/true,
              [&](const Object* o) { return targets.contains(o); });
}

}  // namespace

void Dynamo::RefuseChangedTwice(const Trace::InlinedCall& call) const {
  const size_t end = std::min(call.changes_end, changes_.size());
  if (call.changes_begin >= end) return;
  std::unordered_set<const Object*> changed(changes_.begin() + call.changes_begin,
                                            changes_.begin() + end);
  // What outlives the call: its arguments and what the frames calling it hold.
  std::vector<const Object*> roots;
  for (const Value& v : call.args.positional) roots.push_back(v.get());
  for (const auto& [name, v] : call.args.keywords) roots.push_back(v.get());
  for (size_t depth = 0; depth <= call.depth && depth < in_.frames().size(); ++depth) {
    const Frame& f = *in_.frames()[depth];
    for (const Value& v : f.fast) roots.push_back(v.get());
    for (const auto& cell : f.cells) roots.push_back(cell.get());
    roots.push_back(f.globals.get());
    roots.push_back(f.class_namespace.get());
  }
  if (!ReachesAny(std::move(roots), changed)) return;
  const auto* function = DynCast<PyFunction>(call.function);
  RefuseNotModeled(fmt::format(
      "the reference runs a call of {} again (a graph break or a skipped frame), and its first "
      "run changed in place what outlives it (a list, dict, attribute, global or cell), which "
      "torch changes once: not modeled",
      function != nullptr ? function->name_text() : std::string_view("a callable")));
}

void Dynamo::AddReplayedStores(const Trace& t, bool at_return, std::vector<Value>& live) {
  const std::unordered_set<const Object*> changed = ChangedInTrace(t);
  auto is_input = [&](const Value& v) {
    return std::any_of(t.inputs.begin(), t.inputs.end(),
                       [&](const auto& input) { return input.first == v; });
  };
  auto is_container = [](const Value& v) { return Is<PyDict>(v) || Is<PyList>(v); };
  // The frame's own dicts and lists among the live values are loaded from their sources
  // after the graph, not rebuilt from its outputs: what the trace stored in them is
  // replayed, its tensors output below (probed: `z` live and `d` live after `d[k] = a` at a
  // break output z, then a). One inside another live value would be output after that
  // value's other tensors: not modeled.
  std::erase_if(live, [&](const Value& v) { return is_container(v) && is_input(v); });
  Seen visited;
  for (const Value& v : live) {
    VisitContainers(v, visited, [&](const Value& inner) {
      if (is_input(inner) && changed.contains(inner.get())) {
        RefuseNotModeled(
            "a changed dict or list the frame was given, inside a value the graph hands on (torch "
            "loads it from its source and replays its stores after the graph's outputs)");
      }
    });
  }
  std::vector<const PyTensor*> outputs;
  for (const Value& v : live) CollectTensors(v, outputs);
  auto is_stored = [&](const Value& v) {
    return v && Is<PyTensor>(v) && t.graph.NodeOf(v) &&
           std::find(outputs.begin(), outputs.end(), v.get()) == outputs.end();
  };
  AddReplayedCellStores(t, at_return, live, outputs, is_stored);
  // torch tracks a changed dict or list of the frame's as the trace first uses it, and
  // rebuilds each in that order, its items in their final order (probed: the output order of
  // `len(l); d[k] = a; l.append(b)` is l's, then d's).
  if (!changed.empty()) {
    for (ObjectId id : t.reads.UsedInOrder()) {
      auto input = std::find_if(t.inputs.begin(), t.inputs.end(), [&](const auto& in) {
        return in.first->id() == id && is_container(in.first) && changed.contains(in.first.get());
      });
      if (input == t.inputs.end()) continue;
      for (const Value& item : ItemsOfContainer(input->first)) {
        if (!is_stored(item)) continue;
        outputs.push_back(DynCast<PyTensor>(item));
        live.push_back(item);
      }
    }
  }
  // `where` says where the store went, made only for the refusal (the globals are many).
  auto refuse_if_stored = [&](auto where) {
    return [&is_stored, where](const Value& tensor) {
      if (!is_stored(tensor)) return;
      RefuseNotModeled(fmt::format(
          "a tensor the graph computes stored in {}, where it outlives the frame, is not "
          "modeled (torch replays the store after the graph and outputs the tensor)",
          where()));
    };
  };
  Seen seen;
  // What the frame was given: its values themselves were made before the trace, what they
  // hold now may not be.
  for (const auto& input : t.inputs) {
    const std::string& source = input.second;  // (clang captures no structured binding)
    seen.insert(input.first.get());
    VisitItems(input.first, seen, refuse_if_stored([&source] { return source; }));
  }
  for (const auto& global : DynCast<PyDict>(t.globals)->Items()) {
    const Value& name = global.first;
    const Value& value = global.second;
    VisitTensors(value, seen,
                 refuse_if_stored([&name] { return fmt::format("the global {}", Repr(name)); }));
  }
  // What the graph hands on (returned, or live at a break): an instance among it is rebuilt
  // by torch after the graph, its tensors output from it.
  for (const Value& value : live) {
    VisitItems(value, seen,
               refuse_if_stored([] { return std::string("an instance the graph hands on"); }));
  }
}

void Dynamo::AddReplayedCellStores(const Trace& t, bool at_return, std::vector<Value>& live,
                                   std::vector<const PyTensor*>& outputs,
                                   const std::function<bool(const Value&)>& is_stored) {
  const auto& frames = in_.frames();
  // The traced frame, when it is still running its code (not where a skipped frame replays
  // the resume functions of those it called).
  const Frame* root = t.root_depth < frames.size() ? frames[t.root_depth] : nullptr;
  if (root != nullptr &&
      (!root->function || std::get<UserCode>(root->function->code).def != t.key.def)) {
    root = nullptr;
  }
  // What the graph hands on: the live values and, at a nested break, the frames it returns
  // into, with the functions they called (torch's reachability walks their stacks).
  std::vector<const Object*> handed_on;
  for (const Value& v : live) handed_on.push_back(v.get());
  for (size_t depth = t.root_depth; root != nullptr && depth < frames.size(); ++depth) {
    for (const Value& v : frames[depth]->stack) handed_on.push_back(v.get());
    if (depth > t.root_depth) handed_on.push_back(frames[depth]->function.get());
  }
  // And what the trace changed in place that outlives it (a global stored, a list the frame
  // was given appended to): torch replays those changes, so what they hold escapes too.
  // (The changed objects themselves are only compared: one may be gone.)
  if (const std::unordered_set<const Object*> changed = ChangedInTrace(t); !changed.empty()) {
    std::vector<const Object*> outliving = {t.globals.get()};
    for (const auto& [value, source] : t.inputs) outliving.push_back(value.get());
    Walk(std::move(outliving), /*through_globals=*/false, [&](const Object* o) {
      if (changed.contains(o)) handed_on.push_back(o);
      return false;
    });
  }
  // The cells reachable from it (torch's walk does not enter functions' globals).
  std::unordered_set<const PyCell*> reached;
  Walk(handed_on, /*through_globals=*/false, [&](const Object* o) {
    if (const auto* cell = dynamic_cast<const PyCell*>(o)) reached.insert(cell);
    return false;
  });
  // torch tracks the root frame's cells as the frame starts (its cellvars as new cells, then
  // its freevars' cells, before any container) and replays a store into one that escapes the
  // frame: a freevar's cell always, a cellvar's when what the graph hands on holds a closure
  // over it or, at a break, the code after it reads it (LOAD_DEREF, LOAD_CLOSURE: torch's
  // livevars_analysis counts those), known where it breaks at a call (probed on torch
  // 2.13.0, golden graph_break/closure_cells_at_breaks).
  auto read_later = [&](const std::string& cell_name) {
    if (at_return) return false;
    // A def, lambda or comprehension closing over it from the break's line on loads it
    // (LOAD_CLOSURE), which the code layout does not list: not modeled.
    for (const runtime::Scope* nested : root->program->scopes.ChildrenOf(*root->scope)) {
      if (std::ranges::find(nested->freevars, cell_name) != nested->freevars.end() &&
          nested->node->span.begin.line >= LineOf(*root)) {
        RefuseNotModeled(fmt::format(
            "a tensor the graph computes held in the closure cell '{}' at a graph break, "
            "closed over by a def or lambda from there on, is not modeled",
            cell_name));
      }
    }
    if (root->call != nullptr) {
      const CodeLayout& layout = LayoutOf(*t.key.def);
      if (std::optional<size_t> at = layout.AtCall(*root->call)) {
        return layout.LiveFrom(*at).contains(cell_name);
      }
    }
    RefuseNotModeled(fmt::format(
        "a tensor the graph computes held in the closure cell '{}' at a graph break outside a "
        "call: whether torch hands it on (a later read of it) is not modeled",
        cell_name));
  };
  std::unordered_set<const PyCell*> own;
  if (root != nullptr) {
    const std::vector<std::string>& cellvars = root->scope->cellvars;
    for (size_t i = 0; i < root->cells.size(); ++i) {
      const PyCell* cell = root->cells[i].get();
      own.insert(cell);
      if (!is_stored(cell->contents)) continue;
      if (i >= cellvars.size() || reached.contains(cell) || read_later(cellvars[i])) {
        outputs.push_back(DynCast<PyTensor>(cell->contents));
        live.push_back(cell->contents);
      }
    }
  }
  // Other cells (an inlined frame's own, one from outside the compiled frame), those of the
  // frames a nested break returns into and those reachable from what the graph hands on,
  // are tracked as the trace meets them, among the containers: that order is not modeled.
  for (size_t depth = t.root_depth + 1; root != nullptr && depth < frames.size(); ++depth) {
    for (const Ref<PyCell>& cell : frames[depth]->cells) reached.insert(cell.get());
  }
  for (const PyCell* cell : reached) {
    if (!own.contains(cell) && is_stored(cell->contents)) {
      RefuseNotModeled(
          "a tensor the graph computes held in a closure cell an inlined function made, or one "
          "from outside the compiled frame, is not modeled (torch replays the cell's store "
          "after the graph, in an order not modeled)");
    }
  }
}

std::unordered_set<const Object*> Dynamo::ChangedInTrace(const Trace& t) const {
  const size_t begin = std::min(t.changes_begin, changes_.size());
  return {changes_.begin() + static_cast<std::ptrdiff_t>(begin), changes_.end()};
}

bool Dynamo::ChangedWhatOutlives(const Trace& t) const {
  std::unordered_set<const Object*> changed = ChangedInTrace(t);
  if (changed.empty()) return false;
  std::vector<const Object*> roots{t.globals.get()};
  for (const auto& [value, source] : t.inputs) roots.push_back(value.get());
  return ReachesAny(std::move(roots), changed);
}

}  // namespace tdc::dynamo
