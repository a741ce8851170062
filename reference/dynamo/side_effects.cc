// D13 for side effects: traced code that stores a tensor the graph computes where it
// outlives the frame (a global, an item of a list or dict the frame was given) makes torch
// replay that store after the graph and output the tensor from it (torch 2.13.0, probed:
// `d["a"] = x + 1`, `lst.append(x + 3)`, `global g; g = x + 1` each add the stored tensor
// to the output tuple; golden upstream/decorators/test_nonstrict_trace_pre_existing_dict_
// with_side_effects). The reference does not model that replay, so such a graph is refused
// instead of being emitted without the output.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

using Seen = std::unordered_set<const Object*>;
template <typename Found>
void VisitTensors(const Value& v, Seen& seen, const Found& found);

// Calls `found(tensor)` for each tensor the items of `v` hold through lists, tuples and
// dicts, each container once (a list may hold itself).
template <typename Found>
void VisitItems(const Value& v, Seen& seen, const Found& found) {
  if (const auto* tuple = DynCast<PyTuple>(v)) {
    for (const Value& item : tuple->items()) VisitTensors(item, seen, found);
  } else if (const auto* list = DynCast<PyList>(v)) {
    for (const Value& item : list->items()) VisitTensors(item, seen, found);
  } else if (const auto* dict = DynCast<PyDict>(v)) {
    for (const auto& [key, value] : dict->Items()) VisitTensors(value, seen, found);
  }
}

template <typename Found>
void VisitTensors(const Value& v, Seen& seen, const Found& found) {
  if (!v || !seen.insert(v.get()).second) return;
  if (Is<PyTensor>(v)) return found(v);
  VisitItems(v, seen, found);
}

}  // namespace

void Dynamo::RefuseUnreplayedStores(const Trace& t, const std::vector<Value>& live) {
  std::vector<const PyTensor*> outputs;
  for (const Value& v : live) CollectTensors(v, outputs);
  auto refuse_if_stored = [&](const std::string& where) {
    return [&, where](const Value& tensor) {
      if (!t.graph.NodeOf(tensor)) return;
      if (std::find(outputs.begin(), outputs.end(), tensor.get()) != outputs.end()) return;
      RefuseNotModeled(fmt::format(
          "a tensor the graph computes stored in {}, where it outlives the frame, is not "
          "modeled (torch replays the store after the graph and outputs the tensor)",
          where));
    };
  };
  Seen seen;
  // What the frame was given: its values themselves were made before the trace, what they
  // hold now may not be.
  for (const auto& [value, source] : t.inputs) {
    seen.insert(value.get());
    VisitItems(value, seen, refuse_if_stored(source));
  }
  for (const auto& [name, value] : DynCast<PyDict>(t.globals)->Items()) {
    VisitTensors(value, seen, refuse_if_stored(fmt::format("the global {}", Repr(name))));
  }
}

}  // namespace tdc::dynamo
