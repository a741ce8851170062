// Instances of a class statement's class that traced code makes (Trace::made): Dynamo
// traces them as it traces the frame's own arguments (SEMANTICS §7.4). A graph break around
// the values of class statements is refused where torch would have to rebuild what it
// cannot for a resume function (a method bound to a made instance, a descriptor or super
// object) or resume inside an instance half made; a break under a class statement's context
// manager is generic_contexts.cc's.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// What torch could not rebuild for a resume function in `v` or an item of a tuple or list
// it is (null when nothing): a method bound to an instance `made` holds, a super,
// property, staticmethod or classmethod object.
const char* Unrebuildable(const Value& v, const std::unordered_set<const Object*>& made) {
  runtime::CheckStackLeft();
  if (const auto* m = DynCast<PyMethod>(v); m != nullptr && made.contains(m->self.get())) {
    return "a method bound to an instance the traced code made";
  }
  if (IsClassMachinery(v)) return "a super, property, staticmethod or classmethod object";
  const std::vector<Value>* items = ItemsOf(v);
  for (size_t i = 0; items != nullptr && i < items->size(); ++i) {
    if (const char* what = Unrebuildable((*items)[i], made)) return what;
  }
  return nullptr;
}

}  // namespace

void Dynamo::OnNewInstance(const Value& instance) {
  if (Trace* t = Tracing()) t->made.insert(instance.get());
}

void Dynamo::RefuseBreakAroundClassValues(const Trace& t) const {
  if (!t.used_class_values) return;  // breaks are common, these are not
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
    // Nor does torch rebuild a method bound to a made instance for the resume function
    // (upstream error_messages/test_reconstruction_failure_gb: "Reconstruction failure").
    auto refuse_if_unrebuildable = [&](const Value& v) {
      if (const char* what = Unrebuildable(v, t.made)) {
        RefuseNotModeled(
            fmt::format("{}, live at a graph break, is not modeled (torch cannot "
                        "rebuild it for the resume function)",
                        what));
      }
    };
    for (const Value& v : f.fast) refuse_if_unrebuildable(v);
    // A context manager's __exit__ marks a frame that cannot end the graph, so never resumes
    // (generic_contexts.cc).
    for (size_t index = 0; index < f.stack.size(); ++index) {
      if (!IsGenericContextExit(f, index)) refuse_if_unrebuildable(f.stack[index]);
    }
  }
}

}  // namespace tdc::dynamo
