// A graph break inside the with block of a class statement's context manager, which Dynamo
// traces as a GenericContextWrappingVariable and cannot resume under
// (symbolic_convert.py's break_graph_if_unsupported). Leaving each traced frame that has such
// managers active, a break gets "Graph break under GenericContextWrappingVariable" chained to
// its text (a frame's own conditional jump does not pass through that wrapper); no frame in or
// under one can end the graph (should_compile_partial_graph asks the frames around it too).
// The root frame having them is skipped; otherwise the break ends at a call of a frame around
// them, which then runs as a frame of its own (upstream error_messages/test_generic_ctx_mgr_*,
// test_nested_generic_ctx_mgr, test_skip_frame_in_loop_message; golden
// classes/break_under_user_context_manager and its wrap variant).
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/classes.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

bool IsGenericContextExit(const Frame& f, size_t index) {
  if (std::ranges::find(f.with_exits, index) == f.with_exits.end()) return false;
  const auto* exit = DynCast<PyMethod>(f.stack[index]);
  return exit != nullptr && IsUserInstance(exit->self);
}

namespace {

// The classes of the class statements' context managers whose with blocks `f` is inside,
// outermost first: the __exit__ each with statement keeps on the frame's stack.
std::vector<std::string> ActiveGenericContexts(const Frame& f) {
  std::vector<std::string> classes;
  for (size_t index : f.with_exits) {
    if (IsGenericContextExit(f, index)) {
      classes.emplace_back(TypeName(DynCast<PyMethod>(f.stack[index])->self));
    }
  }
  return classes;
}

}  // namespace

std::optional<size_t> Dynamo::UnderGenericContexts(const Trace& t, BreakText& text) const {
  if (!t.used_class_values) return std::nullopt;  // breaks are common, these managers are not
  const auto& frames = in_.frames();
  const size_t innermost = frames.size() - 1;
  std::optional<size_t> outermost;
  std::vector<std::vector<std::string>> active(frames.size());
  for (size_t depth = t.root_depth; depth <= innermost; ++depth) {
    active[depth] = ActiveGenericContexts(*frames[depth]);
    if (!active[depth].empty() && !outermost) outermost = depth;
  }
  if (!outermost) return std::nullopt;
  // A break that ends the frame another way (skip_frame(), step_unsupported(), `not` on a
  // tensor, an unsupported context manager) takes another way through Dynamo: not probed.
  if (text.then != BreakText::Then::kResume) {
    RefuseNotModeled(
        "a graph break that skips or steps back its frame (skip_frame(), step_unsupported(), "
        "`not` on a tensor, an unsupported context manager) inside the with block of a class "
        "statement's context manager (torch: graph break under GenericContextWrappingVariable)");
  }
  // Under nested graph breaks, managers two calls below the root or deeper: torch compiles
  // up to the previous resumable state instead ("Encountered graph break that we cannot
  // resume from", probed), not modeled.
  if (NestedGraphBreaks() && *outermost > t.root_depth + 1) {
    RefuseNotModeled(
        "a graph break under a class statement's context manager entered two calls below the "
        "compiled frame or deeper, under nested graph breaks (torch: graph break under "
        "GenericContextWrappingVariable, then a step back)");
  }
  const bool jump = text.at_jump || text.from_inlined_jump;
  for (size_t depth = innermost + 1; depth-- > t.root_depth;) {
    if (jump && depth == innermost) continue;
    if (!active[depth].empty()) text = GenericContextBreakText(std::move(text), active[depth]);
  }
  if (*outermost == t.root_depth) text.then = BreakText::Then::kSkipFrame;
  return outermost;
}

}  // namespace tdc::dynamo
