// Graph breaks (spec §3.3, SEMANTICS §8): logging and counting them, fullgraph's
// Unsupported, running the breaking call eagerly, and going on as a resume function (the
// graph itself is emitted by emit_graph.cc).
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/liveness.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

bool IsVariadic(const lang::Call* call) {
  if (call == nullptr) return false;
  for (const auto& arg : call->args) {
    if (arg->kind == lang::NodeKind::kStarred) return true;
  }
  for (const auto& kw : call->keywords) {
    if (!kw->arg) return true;
  }
  return false;
}

}  // namespace

void Dynamo::LogBreak(const Trace& t, const BreakText& text, bool ends_frame, size_t level) {
  if (rules_.on(Rule::kGbCounter) && !ends_frame && !text.at_jump) {
    in_.process().compiler.counters.Add("graph_break", FormatBreak(text));
  }
  CommitBreakLog(BreakLogAt(t, text, ends_frame, level));
}

void Dynamo::CommitBreakLog(BreakLog log) {
  // torch logs a break's user stack once per location (R-gb-log-dedup).
  if (!logged_locations_.insert(log.dedup_key).second && rules_.on(Rule::kGbLogDedup) &&
      !Verbose()) {
    log.record.user_stack.reset();
  }
  records_.graph_breaks.push_back(std::move(log.record));
}

BreakLog Dynamo::BreakLogAt(const Trace& t, const BreakText& text, bool ends_frame,
                            size_t level) const {
  const auto& frames = in_.frames();
  // Where Dynamo says the break is: the innermost frame, or under nested graph breaks the
  // inlined frame ending the graph (log_graph_break's frame_loc); its duplicate checker
  // then keys on the lines of the frames around it too.
  const bool nested = level > t.root_depth && NestedGraphBreaks();
  const Frame& at = nested ? *frames[level] : *frames.back();
  graph::GraphBreak record;
  record.location = graph::FileLine{at.program->filename, LineOf(at)};
  // A frame waiting in a nested resume function is at its call of the inner frame's resume
  // function, `__nested_resume_fns[-1](*...)`.
  bool variadic = IsVariadic(frames[level]->call) || level + 1 <= t.waiting_above;
  // The frames whose lines key the duplicate check besides the location.
  size_t keyed_frames_end = nested ? level : t.root_depth;
  // A context manager's function wrapper breaking at its call of its function: torch's frame
  // of the wrapper, below every interpreter frame; under nested graph breaks its variadic call
  // ends the graph, and the frames above it key the check.
  if (const WrapperCall* wrapper = CallByWrapper();
      wrapper != nullptr && wrapper->at && !ends_frame) {
    record.location = *wrapper->at;
    if (NestedGraphBreaks()) {
      variadic = true;
      keyed_frames_end = frames.size();
    }
  }
  record.reason = ends_frame     ? FrameEndingReason(text.then)
                  : text.at_jump ? text.gb_type
                                 : BreakReason(variadic);
  record.gb_type = text.gb_type;
  record.explanation = RecordedExplanation(text.explanation);
  record.hints = text.hints;
  record.context = text.context;
  // torch's duplicate checker keys on the gb type and the location (a step_unsupported()
  // record's type is the exception class, apart from any Unsupported's).
  std::string location =
      fmt::format("{} {}:{}", text.duplicate_type.empty() ? text.gb_type : text.duplicate_type,
                  record.location->file, record.location->line);
  for (size_t i = t.root_depth; i < keyed_frames_end; ++i) {
    location += fmt::format(" in {}:{}", frames[i]->program->filename, LineOf(*frames[i]));
  }
  if (Verbose() && StackHasResumeFrames()) {
    RefuseNotModeled(
        "torch._dynamo.config.verbose = True: a graph break's user stack through a resume "
        "function (torch's verbose log shows the frames uncollapsed) is not modeled");
  }
  std::vector<graph::StackFrame> stack;
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = *frames[i];
    // torch's own frames (external_utils' wrappers) are not in a user stack.
    std::optional<int64_t> line = ShownLine(i);
    if (f.program->filename.starts_with("<torch>") || !line) continue;
    graph::StackFrame shown{f.program->filename, *line, CodeName(*f.scope)};
    // torch's collapse_resume_frames: consecutive frames of one name show as the last of
    // them (a recursive call inlined, or into a resume function of its own function:
    // upstream nested_graph_breaks/test_recursive_compiled_fn_with_graph_break).
    if (!stack.empty() && stack.back().name == shown.name) {
      stack.back() = std::move(shown);
    } else {
      stack.push_back(std::move(shown));
    }
  }
  record.user_stack = std::move(stack);
  return {std::move(record), std::move(location)};
}

Value Dynamo::Break(const BreakText& reached, const Value& callee, CallArgs& args) {
  Trace& t = *Tracing();
  const bool step = reached.then == BreakText::Then::kStepUnsupported;
  const bool in_cond_branch = CheckCondBranchBreak(reached, reached.after_call);
  // fullgraph=True, or the error_on_graph_break flag where the break is traced (the
  // reference runs the traced code's with blocks, so the process flag is that one;
  // R-error-on-graph-break): a break is Unsupported. Not on a cache hit: the cached code,
  // compiled with its breaks by another torch.compile of the function, just runs (golden
  // nonstrict_trace/invalid_input_and_output_types).
  const bool error =
      t.record &&
      ((t.callback->fullgraph && rules_.on(Rule::kFullgraphUnsupported)) ||
       (in_.process().compiler.error_on_graph_break && rules_.on(Rule::kErrorOnGraphBreak)));
  if (error) {
    RaiseWithUserCode(ExcType::kUnsupported,
                      FormatBreak(step ? StepUnsupportedErrorText() : reached), reached.after_call);
  }
  BreakText text = reached;
  const size_t innermost = in_.frames().size() - 1;
  // Under a class statement's context manager of the root frame, the frame is skipped: no
  // resume function is made, so what it could not rebuild does not matter.
  const std::optional<size_t> blocked_from = UnderGenericContexts(t, text);
  const bool skip_root = blocked_from == t.root_depth;
  if (!skip_root) RefuseBreakAroundClassValues(t);
  const Ending ending = skip_root ? Ending{t.root_depth, Ending::Kind::kSkipFrame}
                        : innermost == t.root_depth
                            ? RootEnding(t, text)
                            : InlinedEnding(t, text, blocked_from.value_or(SIZE_MAX));
  using Kind = Ending::Kind;
  if (in_cond_branch) CheckCondBranchEnding(ending.level, ending.kind == Kind::kAtCall);
  text.then = ending.kind == Kind::kAtCall ? BreakText::Then::kResume
              : ending.kind == Kind::kStep ? BreakText::Then::kStepUnsupported
                                           : BreakText::Then::kSkipFrame;
  // A break that ends the frame is logged with its own reason and not counted (goldens
  // skip_frame/, step_unsupported/, graph_break/break_in_*).
  const bool ends_frame = ending.kind != Kind::kAtCall;
  if (t.record) LogBreak(t, text, ends_frame, ending.level);
  const Frame& here = *in_.frames().back();
  Explain(fmt::format("line {} in {}: {}", LineOf(here), CodeName(*here.scope), text.gb_type));
  return EndFrame(HowToEnd(t, ending), ending, reached, callee, args);
}

Dynamo::Ending Dynamo::RootEnding(const Trace& t, BreakText& text) {
  // What the frame does (spec §3.3): a break inside a try block steps back to the last
  // checkpoint, or skips the frame without one; one with a loop's backward jump ahead
  // skips it (R-step-graph-break). step_unsupported() steps back too. The same holds for a
  // break an inlined callee hands to the root frame's call (InlinedEnding).
  using Kind = Ending::Kind;
  const Frame& root = *in_.frames()[t.root_depth];
  const Resumability& shape = ResumabilityOf(*std::get<UserCode>(root.function->code).def);
  const bool can_step = t.CheckpointAt(t.root_depth) != nullptr;
  switch (text.then) {
    case BreakText::Then::kSkipFrame:
      return {t.root_depth, Kind::kSkipFrame};
    case BreakText::Then::kStepUnsupported:
      if (can_step) return {t.root_depth, Kind::kStep};
      text = StepEmptyCheckpointText();
      return {t.root_depth, Kind::kSkipFrame};
    case BreakText::Then::kStepBack:
      return {t.root_depth, can_step ? Kind::kStep : Kind::kSkipFrame};
    case BreakText::Then::kResume:
      break;
  }
  if (!rules_.on(Rule::kStepGraphBreak)) return {t.root_depth, Kind::kAtCall};
  if (shape.InTry(root.stmt)) return {t.root_depth, can_step ? Kind::kStep : Kind::kSkipFrame};
  if (shape.BackedgeAfter(root.stmt)) {
    auto [name, line] = CodeOfFrame(t.root_depth);
    text = LoopBreakText(text, name, root.program->filename, line);
    return {t.root_depth, Kind::kSkipFrame};
  }
  return {t.root_depth, Kind::kAtCall};
}

namespace {

void RealizeWalk(Reads& reads, const Value& v, WalkPath& path) {
  switch (v->kind()) {
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
      return;
    case ObjectKind::kTuple:
    case ObjectKind::kList:
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
  // A tuple's or list's constants are not reached (R-lazy-guards: guarded once used where
  // they are), what else it holds is.
  const std::vector<Value>* items = ItemsOf(v);
  if (items == nullptr) {
    reads.Use(v->id());
    return;
  }
  RefuseIfInside(path, v,
                 "a list or tuple holding itself, realized for code run outside the graph");
  Inside inside(path, v);
  reads.UseShallow(v->id());
  for (size_t i = 0; i < items->size(); ++i) {
    if (!IsPythonConstant((*items)[i])) reads.ReadItem(v->id(), i);
    RealizeWalk(reads, (*items)[i], path);
  }
}

}  // namespace

void Dynamo::Realize(Trace& t, const Value& v) {
  WalkPath path;
  RealizeWalk(t.reads, v, path);
}

void Dynamo::UseIfConstant(Trace& t, const Value& v) {
  if (IsPythonConstant(v)) t.reads.Use(v->id());
}

void Dynamo::RealizeArguments(Trace& t, const CallArgs& args) {
  for (const Value& v : args.positional) Realize(t, v);
  for (const auto& [name, v] : args.keywords) Realize(t, v);
}

void Dynamo::RealizeBreakArguments(Trace& t, size_t depth, const CallArgs& args) const {
  // The root frame's stack at its break is realized, a constant on it too (torch guards an
  // int the root passes to a callee whose break it takes at its call; under nested graph
  // breaks an inlined frame ending the graph at its call does not guard one: probed). A
  // variadic call's stack holds its arguments' tuple, whose constants are not guarded.
  if (depth == t.root_depth && !IsVariadic(in_.frames()[depth]->call)) {
    for (const Value& v : args.positional) UseIfConstant(t, v);
    for (const auto& [name, v] : args.keywords) UseIfConstant(t, v);
  }
  RealizeArguments(t, args);
}

void Dynamo::UseMovedLocals(Trace& t, const std::vector<std::string>& names,
                            const std::vector<Value>& values) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (!values[i]) continue;
    // A frame value still in its own local is passed as it came.
    bool unmoved = std::any_of(t.guards.begin(), t.guards.end(), [&](const GuardedValue& g) {
      return g.object == values[i]->id() && !g.cell && g.items.empty() && g.name == names[i];
    });
    if (!unmoved) Realize(t, values[i]);
  }
}

void Dynamo::UseLiveLocals(Trace& t, size_t depth, const std::vector<std::string>& names,
                           const std::vector<Value>& values) {
  // An inlined frame's locals hold the root's values under its names: handed on, realized
  // (where they came from, when the reference knows it).
  if (depth == t.root_depth) {
    UseMovedLocals(t, names, values);
    return;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (!values[i]) continue;
    // A constant is not guarded there (probed: an int parameter of an inlined frame, live
    // after its call a nested break ends the graph at).
    if (IsPythonConstant(values[i])) continue;
    if (std::optional<ValuePath> path = PathOfLocal(t, depth, names[i])) {
      t.reads.UseAt(std::move(*path));
    } else {
      Realize(t, values[i]);
    }
  }
}

Dynamo::FrameAtCall Dynamo::AtCall(Trace& t, size_t depth, bool breaking) {
  const Frame& f = *in_.frames()[depth];
  const lang::Node& def = *std::get<UserCode>(f.function->code).def;
  FrameAtCall at;
  auto values = [&](const std::vector<std::string>& names) {
    std::vector<Value> out;
    for (const std::string& name : names) out.push_back(f.fast[f.scope->local_slot.at(name)]);
    return out;
  };
  at.names = LiveAtCall(f);
  at.values = values(at.names);
  UseLiveLocals(t, depth, at.names, at.values);
  at.resume_names = breaking ? LiveAfterCall(f) : at.names;
  at.resume_values = values(at.resume_names);
  const bool returns = ReturnedAtOnce(def, f.stmt, *f.call) &&
                       !(f.stmt && ResumabilityOf(def).ReturnLeavesBlocks(f.stmt));
  at.resumes = !returns || !rules_.on(Rule::kReturnNoResume);
  return at;
}

Value Dynamo::BreakAtCall(const Value& callee, CallArgs args, bool via_polyfill) {
  size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  const auto& frames = in_.frames();
  const size_t innermost = frames.size() - 1;
  // Each frame from the root to the innermost is at a call: the graph outputs every
  // frame's stack (the breaking call's callee and arguments included) and live locals, and
  // each frame that does more than return the call's value resumes (R-return-no-resume).
  // The outputs go innermost frame first (golden nested_graph_breaks/live_values_across_frames).
  std::vector<Value> live;
  std::vector<ResumeLevel> resuming;
  for (size_t depth = innermost + 1; depth-- > t.root_depth;) {
    const Frame& f = *frames[depth];
    FrameAtCall at = AtCall(t, depth, depth == innermost);
    const std::vector<Value>& stack = StackAtBreak(t, f);
    live.insert(live.end(), stack.begin(), stack.end());
    if (depth == innermost) {
      live.push_back(callee);
      live.insert(live.end(), args.positional.begin(), args.positional.end());
      for (const auto& [k, v] : args.keywords) live.push_back(v);
    }
    live.insert(live.end(), at.values.begin(), at.values.end());
    if (at.resumes)
      resuming.insert(resuming.begin(),
                      {depth, f.function, f.call, f.stmt, stack, std::move(at.resume_names),
                       at.resume_values, 0, f.grad_enabled_at_start});
  }
  // The graph leaves grad mode as the frame found it: the break's call and the resume
  // function run inside the with blocks again (spec §3.3; golden graph_break/break_in_no_grad).
  if (in_.process().grad_enabled != t.grad_enabled) AddGradModeNode(t, t.grad_enabled);
  Emit(t, rules_.on(Rule::kGraphOutputs) ? live : std::vector<Value>{},
       LineOf(*frames[t.root_depth]), false);

  // The call runs eagerly; its frames are offered to Dynamo (R-skipped-callee-frame).
  Explain(fmt::format("runs eagerly: {}{}", FunctionReprOf(callee),
                      DisableWrapperOf(callee) == DisableWrapper::kRecursive
                          ? " (torch.compiler.disable: no frame inside it is converted)"
                          : " (frames it calls are offered to Dynamo)"));
  if (!resuming.empty() && rules_.on(Rule::kResumeFunction)) {
    resuming.front().called_under = ModeOfRebuiltContexts(t, resuming);
    if (resuming.front().called_under) in_.process().grad_enabled = *resuming.front().called_under;
  }
  // The compile made the resume functions' codes before the call runs (a frame the call
  // converts counts its own after them).
  if (rules_.on(Rule::kResumeFunction)) CountResumeCodes(t, resuming);
  const bool mode_at_call = in_.process().grad_enabled;
  Value result;
  try {
    FoldFrames fold(*this, t.root_depth + 1, innermost);
    EagerRegion eager(*this, !rules_.on(Rule::kSkippedCalleeFrame));
    result = in_.Call(callee, std::move(args));
  } catch (...) {
    contexts_[slot] = nullptr;
    throw;
  }
  if (resuming.empty() || !rules_.on(Rule::kResumeFunction)) {
    contexts_[slot] = nullptr;  // the rest runs as it is
    return result;
  }
  if (in_.process().grad_enabled != mode_at_call) {
    resuming.front().called_under = ModeLeftByCall(t, mode_at_call, resuming);
  }
  resuming.back().stack.push_back(result);  // the call's value goes to the deepest frame resuming
  resuming.back().value_from_polyfill = via_polyfill;
  ForgetReturnedContextManager(t, resuming);
  StartResume(slot, std::move(resuming));
  return result;
}

}  // namespace tdc::dynamo
