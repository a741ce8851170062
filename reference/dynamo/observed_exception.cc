// An exception raised in traced code (Dynamo's "observed exception"): a traced frame that
// handles it goes on tracing, as the interpreter runs the handler; one reaching the
// compiled function's frame unhandled is, under fullgraph=True, Unsupported gb0088 (torch
// 2.13.0: symbolic_convert's exception table walk finds no handler). Without fullgraph its
// graph break is logged, the code skipped from then on and the call run again eagerly
// (R-observed-exception).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/messages.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

bool FullgraphRecording(const Trace& t) { return t.record && t.callback->fullgraph; }

}  // namespace

void Dynamo::OnRaise(const Value& exception) {
  Trace* t = Tracing();
  if (t == nullptr || !t->record) return;
  if (!t->callback->fullgraph) {
    // A raise statement raising again an exception a frame left and a handler caught: torch
    // logs it where the statement is, the reference where it first left a frame.
    if (t->observed && t->observed->exception == exception) {
      RefuseNotModeled("raising again an exception caught in traced code is not modeled");
    }
    return;
  }
  if (!rules_.on(Rule::kFullgraphUnsupported)) return;
  // The traceback is the frames' where the statement raises, before they unwind.
  t->observed = Trace::Observed{exception, UserTraceback(*t, false), {}};
}

void Dynamo::OnBindFailure(const PyFunction& function, const PyError& error) {
  Trace* t = Tracing();
  // The compiled function's own arguments are bound by CPython before Dynamo sees its frame.
  if (t == nullptr || in_.frames().size() <= t->root_depth) return;
  // Inlining, torch does not raise the TypeError in the trace: its graph break "failed to
  // bind arguments when attempting to inline" (gb7312) runs the call eagerly, or skips the
  // frame inside a try block (probed).
  RefuseNotModeled(fmt::format(
      "a call of {} whose arguments do not bind in traced code ({}) is not modeled (torch's "
      "graph break \"failed to bind arguments when attempting to inline\")",
      function.qualname_text(), error.what()));
}

void Dynamo::OnErrorLeavingFrame(const Frame& frame, const PyError& error) {
  Trace* t = Tracing();
  // Without fullgraph, torch logs the exception's graph break where it leaves the innermost
  // frame it was raised in (probed on torch 2.13.0: a raise statement, a list's IndexError,
  // a dict's KeyError), if it reaches the compiled function's frame unhandled.
  if (t == nullptr || !t->record || t->callback->fullgraph) return;
  // Through a with block or a try statement torch logs it where the block re-raises it (the
  // with statement's line: probed), which the reference does not follow: refused if it
  // reaches the compiled frame (SkipOnObservedException).
  bool through_block = false;
  const lang::Node& def = *std::get<UserCode>(frame.function->code).def;
  if (const lang::Stmt* at = frame.stmt;
      at != nullptr && def.kind == lang::NodeKind::kFunctionDef) {
    const Resumability& shape = ResumabilityOf(lang::As<lang::FunctionDef>(def));
    through_block = at->kind == lang::NodeKind::kWith || at->kind == lang::NodeKind::kTry ||
                    shape.InWith(at) || shape.InTry(at);
  }
  if (t->observed && t->observed->exception == error.exception()) {
    t->observed->through_block |= through_block;
    return;
  }
  BreakText text = ObservedExceptionText(Repr(error.exception()));
  text.then = BreakText::Then::kSkipFrame;
  t->observed = Trace::Observed{error.exception(), "", BreakLogAt(*t, text, true, t->root_depth),
                                through_block};
}

bool Dynamo::SkipOnObservedException(const PyError& error, const Value& function) {
  Trace* t = Tracing();
  if (t == nullptr || !t->record || t->callback->fullgraph || !t->observed ||
      t->observed->exception != error.exception()) {
    return false;
  }
  if (t->observed->through_block) {
    RefuseNotModeled(
        "an exception leaving a compiled frame unhandled through a with block or a try "
        "statement (torch logs its graph break where the block re-raises it) is not modeled");
  }
  if (t->resume && !t->inlined_calls.empty()) {
    RefuseNotModeled(
        "an exception leaving a resume function whose trace inlined calls (torch runs it again "
        "eagerly, offering them as frames) is not modeled");
  }
  // torch: "Failed to handle graph break gracefully. Skipping the function and falling back
  // to eager": the partial graph is discarded, the code skipped from now on, and the call
  // runs again eagerly, offering the frames it calls (probed on torch 2.13.0: a callee that
  // raised is then traced as a frame of its own and logs its break again; a later call that
  // would not raise compiles nothing). A resume function's rest already ran eagerly as far
  // as the exception, which propagates.
  if (!t->resume) {
    // (The frame has returned: its caller's frames are below root_depth.)
    Trace::InlinedCall root_call{t->root_depth - 1, function, {}, 0, t->changes_begin};
    for (const auto& [value, source] : t->inputs) root_call.args.positional.push_back(value);
    RefuseChangedTwice(root_call);
  }
  CommitBreakLog(std::move(t->observed->log));
  code_cache_.Of(t->key).skip = CodeState::Skip::kSkipFrame;
  Explain(fmt::format("{}: an exception reached its frame unhandled: skipped from now on{}",
                      t->code_name, t->resume ? "" : ", its call runs again eagerly"));
  return !t->resume;
}

void Dynamo::RaiseIfObservedUnhandled(const PyError& error) {
  Trace* t = Tracing();
  if (t == nullptr || !t->observed || t->observed->exception != error.exception()) return;
  if (!FullgraphRecording(*t) || !rules_.on(Rule::kFullgraphUnsupported)) return;
  Explain("an exception raised in the fullgraph trace reached its frame unhandled: Unsupported");
  Raise(in_.heap(), ExcType::kUnsupported,
        FormatBreak(ObservedExceptionText(Repr(error.exception()))) +
            UserCodeTail(t->observed->traceback, Verbose()));
}

}  // namespace tdc::dynamo
