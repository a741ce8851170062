// Instances of a class statement's class that traced code makes (Trace::made): Dynamo
// traces them as it traces the frame's own arguments (SEMANTICS §7.4), except where torch
// would have to rebuild one it cannot, or resume inside one half made.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// Whether `v`, or an item of a tuple or list it is, is a method bound to an instance
// `made` holds.
bool HoldsMethodOfMade(const Value& v, const std::unordered_set<const Object*>& made) {
  if (const auto* m = DynCast<PyMethod>(v)) return made.contains(m->self.get());
  const std::vector<Value>* items = ItemsOf(v);
  if (items == nullptr) return false;
  for (const Value& item : *items) {
    if (HoldsMethodOfMade(item, made)) return true;
  }
  return false;
}

}  // namespace

void Dynamo::OnNewInstance(const Value& instance) {
  if (Trace* t = Tracing()) t->made.insert(instance.get());
}

void Dynamo::RefuseBreakAroundMadeInstances(const Trace& t) const {
  if (t.made.empty()) return;
  const auto& frames = in_.frames();
  for (size_t depth = t.root_depth; depth < frames.size(); ++depth) {
    const Frame& f = *frames[depth];
    // torch 2.13.0 does not resume inside the __init__ of an object it makes (upstream
    // nested_graph_breaks/test_graph_break_during_user_class_init: frames it skips).
    if (f.function && f.function->name_text() == "__init__" && !f.fast.empty() &&
        t.made.contains(f.fast[0].get())) {
      RefuseNotModeled(
          "a graph break inside the __init__ of an instance the traced code makes is not "
          "modeled");
    }
    // Nor does it rebuild a bound method of one for the resume function (upstream
    // error_messages/test_reconstruction_failure_gb: "Reconstruction failure").
    auto refuse_if_method = [&](const Value& v) {
      if (HoldsMethodOfMade(v, t.made)) {
        RefuseNotModeled(
            "a method bound to an instance the traced code made, live at a graph break, is not "
            "modeled (torch cannot rebuild it)");
      }
    };
    for (const Value& v : f.fast) refuse_if_method(v);
    for (const Value& v : f.stack) refuse_if_method(v);
  }
}

}  // namespace tdc::dynamo
