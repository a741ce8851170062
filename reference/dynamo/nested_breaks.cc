// Nested graph breaks (spec §3.4; profile torch-2.13-ngb, torch._dynamo.config.
// nested_graph_breaks=True): a break inside inlined callees ends the graph where it is,
// with every op traced before it at every level; the breaking call runs eagerly and one
// resume function, calling the inner frames' resume functions, goes on in all of them
// (graph_break.cc's BreakAtCall, resume_functions.cc's StartResume). Here: which frame ends
// the graph when the break's own frame cannot, a frame waiting in a nested resume function
// handing its inner frame's resume function over as a frame of its own (RerootAt,
// ReplayInnerResume), and what user stacks show meanwhile (ShownLine).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

bool Dynamo::NestedGraphBreaks() const {
  Value flag =
      in_.process().modules()[ModuleId::kTorchDynamoConfig]->GetAttr("nested_graph_breaks");
  if (!flag || !IsTruthy(flag)) return false;
  // A compiled function is inlined through getattr_and_trace_no_nested_graph_breaks, which
  // sets the flag off for its extent (polyfills: `with disable_nested_graph_breaks()`).
  const Trace* t = Tracing();
  return t == nullptr || std::none_of(inlined_compiled_.begin(), inlined_compiled_.end(),
                                      [&](size_t depth) { return depth > t->root_depth; });
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
  // Nor can a polyfill's frame (inline_user_function_return without
  // allow_nested_graph_breaks) or those it calls: its caller ends the graph at its call.
  for (size_t depth = t.root_depth + 1; depth < frames.size(); ++depth) {
    if (in_try(depth) || polyfill_frames_.contains(depth)) return depth - 1;
  }
  return frames.size() - 1;
}

bool Dynamo::TryAbove(const Trace& t, size_t depth) {
  for (size_t d = t.root_depth; d < depth; ++d) {
    const Frame& f = *in_.frames()[d];
    if (ResumabilityOf(*std::get<UserCode>(f.function->code).def).InTry(f.stmt)) return true;
  }
  return false;
}

bool Dynamo::InPolyfill(const Trace& t, size_t depth) const {
  return std::any_of(polyfill_frames_.begin(), polyfill_frames_.end(),
                     [&](size_t d) { return d > t.root_depth && d <= depth; });
}

Dynamo::Ending Dynamo::InlinedEnding(Trace& t, BreakText& text, size_t blocked_from) {
  using Kind = Ending::Kind;
  const size_t innermost = in_.frames().size() - 1;
  const size_t deepest = NestedGraphBreaks() && rules_.on(Rule::kNestedGraphBreak)
                             ? NestedBreakLevel(t)
                             : t.root_depth;
  for (size_t level = innermost; level > t.root_depth; --level) {
    // Leaving an inlined frame, an exception loses its frame skip (inline_call_): the
    // caller meets an ordinary break.
    if (level == innermost && text.then == BreakText::Then::kSkipFrame) {
      text.then = BreakText::Then::kResume;
      continue;
    }
    // step_unsupported() is no break at its call: the frame steps back to its checkpoint,
    // or has none (golden step_unsupported/in_inlined_callee).
    if (level == innermost && text.then == BreakText::Then::kStepUnsupported) {
      if (t.CheckpointAt(level) != nullptr) return {level, Kind::kStep};
      text = StepEmptyCheckpointText();
      continue;
    }
    // An instruction the frame cannot resume after: it steps back to its checkpoint (under
    // nested graph breaks, where inlined frames have them), or its caller breaks at its call.
    if (level == innermost && text.then == BreakText::Then::kStepBack) {
      if (t.CheckpointAt(level) != nullptr) return {level, Kind::kStep};
      text.then = BreakText::Then::kResume;
      continue;
    }
    if (level >= blocked_from) continue;  // its call wrapper passes the break on
    if (level <= deepest) {
      if (!BackedgeAtOrAbove(t, level)) return {level, Kind::kAtCall};
      // A loop in this frame or around it: the frame would be skipped, which the
      // inlining drops (golden variants/graph_break__break_in_loop__wrap).
      auto [name, line] = CodeOfFrame(level);
      text = LoopBreakText(text, name, in_.frames()[level]->program->filename, line);
      continue;
    }
    // A frame that cannot end the graph at its call steps back to its checkpoint, if it
    // has one (golden variants/graph_break__break_in_try_block__wrap) and no frame around it
    // is in a try block: those cannot compile a partial graph either (probed on torch
    // 2.13.0; golden graph_break/break_in_callee_in_loop_or_try).
    // A polyfill's frame, or one it calls, has no partial graph to step back to either.
    if (t.CheckpointAt(level) != nullptr && !TryAbove(t, level) && !InPolyfill(t, level))
      return {level, Kind::kStep};
  }
  // The break reaches the root frame's call, which decides as for a break of its own: a try
  // block around the call steps back or skips the frame, a loop around it skips the frame
  // (golden graph_break/break_in_callee_in_loop_or_try).
  text.then = BreakText::Then::kResume;
  return RootEnding(t, text);
}

Value Dynamo::RerootAt(size_t level, const BreakText& reached, const Value& callee,
                       CallArgs& args) {
  const size_t slot = contexts_.size() - 1;
  std::unique_ptr<Trace> old = std::move(contexts_[slot]);
  auto split = std::find_if(old->chain.begin(), old->chain.end(),
                            [&](const ResumeLevel& l) { return l.depth > level; });
  std::vector<ResumeLevel> waiting(old->chain.begin(), split);
  std::vector<ResumeLevel> inner(split, old->chain.end());
  // A frame returning at once between them has no resume function to be waiting in.
  if (waiting.empty() || waiting.back().depth != level || inner.empty() ||
      inner.front().depth != level + 1) {
    RefuseNotModeled("a graph break ending the graph at a call that a nested graph break resumed");
  }
  // Nothing was traced at the waiting frames: the graph ends empty at `level`'s call, and
  // what the abandoned inlining read is not guarded (it is the new frame's).
  GraphBuilder traced = std::move(old->graph);
  old->graph = GraphBuilder();
  Reads reads = std::exchange(old->reads, Reads{});
  GlobalGuardList globals = std::exchange(old->global_guards, {});
  Emit(*old, {}, LineOf(*in_.frames()[old->root_depth]), false);
  Explain(fmt::format("runs eagerly: the resume function of {} (a frame of its own)",
                      CodeName(*in_.frames()[level + 1]->scope)));
  std::unique_ptr<Trace> frame = MakeResume(*old, inner, &traced);
  if (!old->cache_hit) {
    in_.process().compiler.counters.MarkNotExact(
        "resumes",
        "counters['resumes'] after a graph break ending the graph at a call a nested graph break "
        "resumed is not modeled (the resume codes torch makes there are not probed)");
  }
  if (frame != nullptr) frame->rerooted = true;
  if (frame != nullptr && frame->record) {
    // What the waiting trace read and did in those frames is the new frame's trace.
    frame->reads = std::move(reads);
    frame->global_guards = std::move(globals);
    const size_t offset = frame->root_depth - old->root_depth;
    if (old->checkpoints.size() > offset)
      frame->checkpoints.assign(old->checkpoints.begin() + offset, old->checkpoints.end());
    for (const Trace::InlinedCall& call : old->inlined_calls) {
      if (call.depth >= frame->root_depth) frame->inlined_calls.push_back(call);
    }
    for (const Trace::ChainReturn& r : old->chain_returns) {
      if (r.depth <= frame->root_depth) continue;
      frame->chain_returns.push_back({r.depth, r.mark, r.result, r.line, r.error_on_graph_break,
                                      r.used.UsedSoFar(), r.global_guards});
    }
    // Those frames no longer wait (a frame called there is no resume function's).
    frame->waiting_above = std::min(frame->waiting_above, old->waiting_above);
  }
  // Its code skipped, the frame runs eagerly from its call of the inner frames' resume
  // function or, where it cannot, from its start: the calls it made run again.
  std::vector<Trace::InlinedCall> calls;
  const bool skipped = frame == nullptr;
  const std::optional<ResumeLevel> restart = EagerRestart(inner, old->chain_returns);
  if (skipped) {
    calls = CallsAt(*old, level + 1);
    ReplayInnerResume(*old, inner, old->chain_returns, traced);
  }
  // The waiting frames are folded into the compiled code that calls the frame, traced or not.
  const std::pair<size_t, size_t> folded{old->root_depth + 1, level};
  pending_resumes_.push_back(
      {slot, in_.frames()[level + 1], std::move(old), std::move(waiting), folded});
  contexts_[slot] = std::move(frame);
  if (Tracing() != nullptr) return Break(reached, callee, args);
  if (restart && (skipped || inner.size() == 1)) ResumeFrameEagerly(*restart);
  if (skipped && in_.frames().size() - 1 > level + 1) RefuseRunningCallAgain();
  return RunAgainEagerly(std::move(calls), callee, std::move(args));
}

std::vector<Trace::InlinedCall> Dynamo::CallsAt(const Trace& t, size_t depth) {
  std::vector<Trace::InlinedCall> calls;
  std::copy_if(t.inlined_calls.begin(), t.inlined_calls.end(), std::back_inserter(calls),
               [&](const Trace::InlinedCall& call) { return call.depth == depth; });
  return calls;
}

Value Dynamo::RunAgainEagerly(std::vector<Trace::InlinedCall> calls, const Value& callee,
                              CallArgs args) {
  for (const Trace::InlinedCall& call : calls) RefuseChangedTwice(call);
  EagerRegion eager(*this, false);
  for (Trace::InlinedCall& call : calls) {
    shown_lines_.emplace_back(call.depth, call.line);  // torch runs it again from there
    struct Pop {
      std::vector<std::pair<size_t, int64_t>>& lines;
      ~Pop() { lines.pop_back(); }
    } pop{shown_lines_};
    in_.Call(call.function, std::move(call.args));
  }
  return in_.Call(callee, std::move(args));
}

Value Dynamo::SkipRerootedFrame(const Value& callee, CallArgs args) {
  const size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  code_cache_.Of(t.key).skip = CodeState::Skip::kSkipFrame;
  Explain(
      "the frame is skipped: the partial graph is discarded; the calls it made run again, the rest "
      "of it "
      "eagerly, its calls offered to Dynamo");
  std::vector<Trace::InlinedCall> calls = CallsAt(t, t.root_depth);
  ReplayInnerResume(t, t.chain, t.chain_returns, t.graph);
  const std::optional<ResumeLevel> from = EagerRestart(t.chain, t.chain_returns);
  const bool below = in_.frames().size() - 1 > t.root_depth;
  contexts_[slot] = nullptr;
  if (from) ResumeFrameEagerly(*from);
  // Running the calls made so far again is right only where none of them still runs.
  if (below) RefuseRunningCallAgain();
  return RunAgainEagerly(std::move(calls), callee, std::move(args));
}

std::optional<ResumeLevel> Dynamo::EagerRestart(const std::vector<ResumeLevel>& chain,
                                                const std::vector<Trace::ChainReturn>& returns) {
  ResumeLevel from = chain.front();
  if (chain.size() == 1) return from;
  auto returned = std::find_if(returns.begin(), returns.end(), [&](const Trace::ChainReturn& r) {
    return r.depth == chain[1].depth;
  });
  if (returned == returns.end()) return std::nullopt;
  from.stack.push_back(returned->result);
  return from;
}

void Dynamo::RefuseRunningCallAgain() {
  RefuseNotModeled(
      "a skipped resume function made by re-rooting a nested one, broken inside a call it makes, "
      "that cannot run again from its start (it resumes after a data-dependent branch, or a "
      "block is open there)");
}

void Dynamo::ResumeFrameEagerly(const ResumeLevel& level) {
  Frame& f = *in_.frames()[level.depth];
  const lang::Node& def = *std::get<UserCode>(f.function->code).def;
  if (level.stack.size() != 1 || def.kind != lang::NodeKind::kFunctionDef ||
      !Interpreter::CanResumeAt(lang::As<lang::FunctionDef>(def).body, *level.stmt)) {
    return;
  }
  std::vector<Value> fast = f.fast;
  for (size_t i = 0; i < level.live.size(); ++i) {
    auto slot = f.scope->local_slot.find(level.live[i]);
    if (slot != f.scope->local_slot.end()) fast[slot->second] = level.values[i];
  }
  Explain(fmt::format("{} runs again eagerly from line {}, after its call", CodeName(*f.scope),
                      level.call->span.begin.line));
  throw ResumeFrame{&f, level.stmt, level.call, level.stack.back(), std::move(fast)};
}

void Dynamo::ReplayInnerResume(const Trace& like, const std::vector<ResumeLevel>& chain,
                               const std::vector<Trace::ChainReturn>& returns,
                               const GraphBuilder& graph) {
  if (chain.size() < 2) return;
  const size_t inner = chain[1].depth;
  auto returned = std::find_if(returns.begin(), returns.end(),
                               [&](const Trace::ChainReturn& r) { return r.depth == inner; });
  if (returned == returns.end()) return;
  GraphBuilder traced = graph;
  traced.Rollback(returned->mark);
  std::unique_ptr<Trace> frame =
      MakeResume(like, std::vector<ResumeLevel>(chain.begin() + 1, chain.end()), &traced);
  if (frame == nullptr) return;
  // It read its values as the trace that ran those frames used them until they returned.
  frame->reads.UseAllOf(returned->used);
  for (const std::string& name : chain[1].live) frame->reads.ReadLocal(name);
  frame->global_guards = returned->global_guards;
  const bool flag =
      std::exchange(in_.process().compiler.error_on_graph_break, returned->error_on_graph_break);
  Emit(*frame, {returned->result}, returned->line, /*at_return=*/true);
  in_.process().compiler.error_on_graph_break = flag;
}

bool Dynamo::BackedgeAtOrAbove(const Trace& t, size_t depth) {
  for (size_t d = t.root_depth; d <= depth; ++d) {
    const Frame& f = *in_.frames()[d];
    if (ResumabilityOf(*std::get<UserCode>(f.function->code).def).BackedgeAfter(f.stmt))
      return true;
  }
  return false;
}

std::optional<int64_t> Dynamo::ShownLine(size_t depth) const {
  for (const auto& [at, line] : shown_lines_) {
    if (at == depth) return line;
  }
  for (const auto& [first, last] : folded_frames_) {
    if (first <= depth && depth <= last) return std::nullopt;
  }
  for (const PendingResume& p : pending_resumes_) {
    if (p.folded.first <= depth && depth <= p.folded.second) return std::nullopt;
    if (p.at_first_line && p.at_first_line->first == depth) return p.at_first_line->second;
  }
  for (const std::unique_ptr<Trace>& t : contexts_) {
    if (t == nullptr) continue;
    for (const auto& [first, last] : t->folded) {
      if (first <= depth && depth <= last) return std::nullopt;
    }
    // The code a step graph break compiled calls the resume function from no line of the
    // source: a traceback shows the function's first line (golden
    // variants/nested_graph_breaks__try_and_loop_in_inlined_frames__wrap).
    for (const auto& [at, line] : t->at_first_line) {
      if (at == depth) return line;
    }
  }
  return LineOf(*in_.frames()[depth]);
}

}  // namespace tdc::dynamo
