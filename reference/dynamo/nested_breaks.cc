// Nested graph breaks (spec §3.4; profile torch-2.13-ngb, torch._dynamo.config.
// nested_graph_breaks=True): a break inside inlined callees ends the graph where it is,
// with every op traced before it at every level; the breaking call runs eagerly and one
// resume function, calling the inner frames' resume functions, goes on in all of them
// (graph_break.cc's BreakAtCall and StartResume do both). These say which frame ends the
// graph when the break's own frame cannot.
#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

bool Dynamo::NestedGraphBreaks() const {
  Value flag = in_.process().modules()[ModuleId::kTorchDynamoConfig]->GetAttr("nested_graph_breaks");
  return flag && IsTruthy(flag);
}

size_t Dynamo::NestedBreakLevel(const Trace& t) {
  const auto& frames = in_.frames();
  auto in_try = [&](size_t depth) {
    const Frame& f = *frames[depth];
    return ResumabilityOf(*std::get<UserCode>(f.function->code).def).InTry(f.stmt);
  };
  // A root frame inside a try block cannot end the graph at its call either: no inlined
  // frame can (should_compile_partial_graph asks its parents), the root handles the break.
  if (in_try(t.root_depth)) return t.root_depth;
  for (size_t depth = t.root_depth + 1; depth < frames.size(); ++depth) {
    const Frame& f = *frames[depth];
    // torch's own frames (a compiled function inlined through
    // getattr_and_trace_no_nested_graph_breaks) allow no nested break below them.
    const bool can = !f.program->filename.starts_with("<torch>") && !inlined_compiled_.contains(depth) && !in_try(depth);
    if (!can) return depth - 1;
  }
  return frames.size() - 1;
}

bool Dynamo::BackedgeAtOrAbove(const Trace& t, size_t depth) {
  for (size_t d = t.root_depth; d <= depth; ++d) {
    const Frame& f = *in_.frames()[d];
    if (ResumabilityOf(*std::get<UserCode>(f.function->code).def).BackedgeAfter(f.stmt)) return true;
  }
  return false;
}

}  // namespace tdc::dynamo
