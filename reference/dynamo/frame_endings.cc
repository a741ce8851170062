// How a traced frame ends at a graph break (spec §2.7, §2.8, §3.3, §3.4): the one place that
// acts on the ending Break decided (EndFrame); the checkpoints a step graph break compiles up
// to, skipping the frame, stepping back to a checkpoint; and the grad-mode nodes with blocks
// add around breaks.
#include <fmt/format.h>

#include <cstdlib>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/liveness.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

Dynamo::FrameEnding Dynamo::HowToEnd(const Trace& t, const Ending& ending) const {
  using Kind = Ending::Kind;
  if (ending.kind == Kind::kSkipFrame) {
    return t.rerooted ? FrameEnding::kSkipRerootedFrame : FrameEnding::kSkipFrame;
  }
  if (ending.level == in_.frames().size() - 1) {
    return ending.kind == Kind::kStep ? FrameEnding::kStepBack : FrameEnding::kBreakAtCall;
  }
  // The frame ending the graph waits at the call of its inner frame's resume function.
  if (ending.level + 1 <= t.waiting_above && ending.kind == Kind::kAtCall) {
    return FrameEnding::kReroot;
  }
  return rules_.on(Rule::kClassicReattribute) ? FrameEnding::kUnwindToCall
                                              : FrameEnding::kRunCallEagerly;
}

Value Dynamo::EndFrame(FrameEnding how, const Ending& ending, const BreakText& reached,
                       const Value& callee, CallArgs& args) {
  // A break at an instruction that is no call (`not t`) steps back, skips the frame or
  // unwinds to a call; the other endings run a call, which it has not.
  if (!callee && how != FrameEnding::kStepBack && how != FrameEnding::kSkipFrame &&
      how != FrameEnding::kUnwindToCall) {
    RefuseNotModeled(
        "a graph break at an instruction that is no call, ended otherwise than by "
        "stepping back, skipping the frame or its caller's break");
  }
  switch (how) {
    case FrameEnding::kBreakAtCall:
      if (CallByWrapper() != nullptr) throw WrapperBreak{false};
      return BreakAtCall(callee, std::move(args));
    case FrameEnding::kStepBack:
      if (callee && CallByWrapper() != nullptr) throw WrapperBreak{true};
      return StepBreak(callee, std::move(args));
    case FrameEnding::kReroot:
      return RerootAt(ending.level, reached, callee, args);
    case FrameEnding::kSkipFrame:
      SkipRootFrame();
    case FrameEnding::kSkipRerootedFrame:
      return SkipRerootedFrame(callee, std::move(args));
    case FrameEnding::kUnwindToCall:
      throw Restart{ending.level, ending.kind == Ending::Kind::kStep};
    case FrameEnding::kRunCallEagerly: {
      // R-classic-reattribute off: the callee's break only runs its call eagerly; the graph
      // goes on around it.
      EagerRegion eager(*this, false);
      return in_.Call(callee, std::move(args));
    }
  }
  std::abort();  // unreachable: every FrameEnding is handled above
}

const Resumability& Dynamo::ResumabilityOf(const lang::Node& def) {
  return resumability_.try_emplace(&def, def).first->second;
}

const CodeLayout& Dynamo::LayoutOf(const lang::Node& def) {
  return layouts_.try_emplace(&def, def).first->second;
}

const std::vector<Value>& Dynamo::StackAtBreak(Trace& t, const Frame& f) {
  if (f.opaque_stack > 0) {
    RefuseNotModeled(
        "a graph break while its frame's stack holds operands in a form the reference does "
        "not model (a dict display with ** or over 15 items, a call with * or ** arguments, "
        "items being unpacked, a def's decorators or defaults)");
  }
  // Probed: `y = acc[1] + g(x)` with g breaking guards acc[1] == 1 (G['T'][1], an int
  // argument n alike), in an inlined frame's stack under nested graph breaks too.
  for (const Value& v : f.stack) UseIfConstant(t, v);
  return f.stack;
}

std::vector<std::string> Dynamo::LiveAtCall(const Frame& f) {
  const CodeLayout& layout = LayoutOf(*std::get<UserCode>(f.function->code).def);
  std::optional<size_t> at = layout.AtCall(*f.call);
  if (!at) RefuseNotModeled("a graph break at a call outside its function's own code");
  return LiveLocalsAt(*f.scope, layout, *at);
}

std::vector<std::string> Dynamo::LiveAfterCall(const Frame& f) {
  const CodeLayout& layout = LayoutOf(*std::get<UserCode>(f.function->code).def);
  std::optional<size_t> at = layout.AfterCall(*f.call);
  if (!at) RefuseNotModeled("a graph break at a call outside its function's own code");
  // torch resumes at such a jump's target instead (create_call_resume_at), while the graph's
  // outputs are those live at the call: not modeled.
  if (layout.code()[*at].op == LayoutInsn::Op::kJump) {
    RefuseNotModeled(
        "a graph break at a call followed at once by a jump (a ternary's first value)");
  }
  return LiveLocalsAt(*f.scope, layout, *at);
}

void Dynamo::OnStatement(const Frame& frame, const lang::Stmt& stmt) {
  Trace* t = Tracing();
  // torch speculates only once the graph has two calls (is_non_empty_graph: count_calls() > 1).
  // A cache hit runs the frame again without recording: its checkpoints are the compile's.
  if (t == nullptr || !t->graph.HasCalls(2)) return;
  const size_t depth = in_.frames().size() - 1;
  if (in_.frames()[depth] != &frame || depth < t->root_depth) return;
  // An inlined frame speculates under nested graph breaks only, where no frame around it is
  // in a try block (should_compile_partial_graph asks every parent, the root's included:
  // fuzz/known_issues' step_unsupported_in_callee_called_in_root_try_block, recorded by torch).
  if (depth > t->root_depth &&
      !(NestedGraphBreaks() && rules_.on(Rule::kNestedGraphBreak) && !TryAbove(*t, depth))) {
    return;
  }
  if (!ResumabilityOf(*std::get<UserCode>(frame.function->code).def).IsCheckpoint(&stmt)) return;
  const size_t i = depth - t->root_depth;
  if (t->checkpoints.size() <= i) t->checkpoints.resize(i + 1);
  t->checkpoints[i] = Trace::Checkpoint{&stmt,
                                        t->graph.mark(),
                                        frame.fast,
                                        t->inlined_calls.size(),
                                        t->reads.mark(),
                                        t->global_guards.size(),
                                        in_.process().grad_enabled};
}

Value Dynamo::StepBreak(const Value& callee, CallArgs args) {
  size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  const size_t level = in_.frames().size() - 1;
  const size_t root_depth = t.root_depth;
  const Trace::Checkpoint checkpoint = **t.CheckpointAt(level);
  const Frame& f = *in_.frames()[level];
  const auto& def = lang::As<lang::FunctionDef>(*std::get<UserCode>(f.function->code).def);
  t.graph.Rollback(checkpoint.mark);
  t.reads.Rollback(checkpoint.reads);
  t.global_guards.resize(checkpoint.global_guards);
  // The frames around it are at their calls (nested graph breaks): their stacks and live
  // locals are outputs too, and those that do more than return its value resume.
  // Outputs innermost frame first (golden nested_graph_breaks/try_and_loop_in_inlined_frames).
  std::vector<Value> live;
  const CodeLayout& layout = LayoutOf(def);
  std::optional<size_t> start = layout.StatementStart(*checkpoint.stmt);
  if (!start) RefuseNotModeled("a checkpoint outside its function's own code");
  for (const std::string& name : LiveLocalsAt(*f.scope, layout, *start)) {
    live.push_back(checkpoint.fast[f.scope->local_slot.at(name)]);
  }
  std::vector<ResumeLevel> resuming;
  for (size_t depth = level; depth-- > t.root_depth;) {
    const Frame& outer = *in_.frames()[depth];
    FrameAtCall at = AtCall(t, depth, false);
    const std::vector<Value>& stack = StackAtBreak(t, outer);
    live.insert(live.end(), stack.begin(), stack.end());
    live.insert(live.end(), at.values.begin(), at.values.end());
    if (at.resumes)
      resuming.insert(resuming.begin(), {depth, outer.function, outer.call, outer.stmt, stack,
                                         std::move(at.resume_names), at.resume_values, 0,
                                         outer.grad_enabled_at_start});
  }
  const int64_t line = level == t.root_depth ? checkpoint.stmt->span.begin.line
                                             : in_.frames()[t.root_depth]->call->span.begin.line;
  // The graph leaves grad mode as the frame found it, as at a break's call (BreakAtCall).
  if (checkpoint.grad_enabled != t.grad_enabled) AddGradModeNode(t, t.grad_enabled);
  Emit(t, rules_.on(Rule::kGraphOutputs) ? live : std::vector<Value>{}, line, false);
  Explain("the rest of the frame from the checkpoint runs eagerly, its calls offered to Dynamo");
  std::vector<Trace::InlinedCall> calls;
  for (size_t i = checkpoint.calls; i < t.inlined_calls.size(); ++i) {
    if (t.inlined_calls[i].depth == level) calls.push_back(std::move(t.inlined_calls[i]));
  }
  if (level > root_depth) {
    if (!rules_.on(Rule::kResumeFunction)) resuming.clear();
    if (!t.cache_hit) {
      in_.process().compiler.counters.MarkNotExact(
          "resumes",
          "counters['resumes'] after a step graph break in an inlined frame is not modeled (torch "
          "2.13.0 also makes a resume function of the stepping frame there)");
    }
    pending_resumes_.push_back({slot,
                                &f,
                                std::move(contexts_[slot]),
                                std::move(resuming),
                                {root_depth + 1, level - 1},
                                std::pair{root_depth, FirstLineOf(t)},
                                f.grad_enabled_at_start});
  }
  contexts_[slot] = nullptr;
  EagerRegion eager(*this, false);
  for (const auto& call : calls) RefuseChangedTwice(call);
  for (auto& call : calls) in_.Call(call.function, std::move(call.args));
  return callee ? in_.Call(callee, std::move(args)) : in_.heap().None();
}

void Dynamo::ResumeAround(const Frame& frame, const Value& result) {
  if (pending_resumes_.empty() || pending_resumes_.back().frame != &frame) return;
  PendingResume pending = std::move(pending_resumes_.back());
  pending_resumes_.pop_back();
  if (pending.levels.empty()) {
    contexts_[pending.slot] = nullptr;
    return;
  }
  pending.levels.back().stack.push_back(
      result);  // the frame's value goes to the deepest frame resuming
  if (pending.mode_at_call && in_.process().grad_enabled != *pending.mode_at_call) {
    pending.levels.front().called_under =
        ModeLeftByCall(*pending.trace, *pending.mode_at_call, pending.levels);
  }
  const size_t caller = pending.trace->root_depth;
  const int64_t caller_line = FirstLineOf(*pending.trace);
  contexts_[pending.slot] = std::move(pending.trace);
  StartResume(pending.slot, std::move(pending.levels));
  // The caller's frame and the resume function's, when they are one function's, show as one
  // (collapse_resume_frames): its line is the resume function's.
  Trace* resumed = contexts_[pending.slot].get();
  if (resumed != nullptr && resumed->root_depth > caller)
    resumed->at_first_line.emplace_back(caller, caller_line);
}

// torch drops the partial graph and runs the skipped code eagerly from its start (its calls
// offered), which the reference does by running the call that began the trace again: a
// skipped root frame is then eager from its first statement (is_compiling() False there),
// a skipped resume function's frame hits its cache entry up to the break that calls it.
// What the abandoned run did to the heap is not undone: a change in place of what outlives
// the call before a frame-skipping break would happen twice, and is refused.
void Dynamo::SkipRootFrame() {
  size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  Trace::InlinedCall root_call{
      t.root_depth - 1, in_.frames()[t.root_depth]->function, {}, 0, t.changes_begin};
  for (const auto& [value, source] : t.inputs) root_call.args.positional.push_back(value);
  RefuseChangedTwice(root_call);
  code_cache_.Of(t.key).skip = CodeState::Skip::kSkipFrame;
  Explain(
      "the frame is skipped: the partial graph is discarded; its call runs again, the code eagerly "
      "from now "
      "on, its calls offered to Dynamo");
  throw RerunFrame{slot};
}

void Dynamo::OnGradModeSet(bool enabled) {
  Trace* t = Tracing();
  if (t != nullptr) AddGradModeNode(*t, enabled);
}

void Dynamo::AddGradModeNode(Trace& t, bool enabled) {
  if (!rules_.on(Rule::kGradModeContext)) return;
  t.graph.AddCall(graph::NodeOp::kCallFunction, std::string(kSetGradEnabled),
                  CallArgs{{in_.heap().Bool(enabled)}, {}}, in_.heap().None(), Fragment{});
}

}  // namespace tdc::dynamo
