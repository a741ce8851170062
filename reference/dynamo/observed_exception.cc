// An exception raised by a raise statement of traced code (Dynamo's "observed exception"):
// a traced frame that handles it goes on tracing, as the interpreter runs the handler; one
// reaching the compiled function's frame unhandled is, under fullgraph=True, Unsupported
// gb0088 (torch 2.13.0: symbolic_convert's exception table walk finds no handler). Without
// fullgraph the frame runs eagerly and raises it (R-observed-exception).
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
  if (t == nullptr || !FullgraphRecording(*t) || !rules_.on(Rule::kFullgraphUnsupported)) return;
  // The traceback is the frames' where the statement raises, before they unwind.
  t->observed = Trace::Observed{exception, UserTraceback(*t, false)};
}

void Dynamo::OnErrorLeavingFrame(const Frame& frame, const PyError& error) {
  Trace* t = Tracing();
  // Without fullgraph, torch logs the exception's graph break where it leaves the innermost
  // frame it was raised in (probed on torch 2.13.0: a raise statement, a list's IndexError,
  // a dict's KeyError), if it reaches the compiled function's frame unhandled.
  if (t == nullptr || !t->record || t->callback->fullgraph) return;
  // Through a with block or a try statement torch logs it where the block re-raises it (the
  // with statement's line: probed), which the reference does not follow.
  const lang::Node& def = *std::get<UserCode>(frame.function->code).def;
  const lang::Stmt* at = frame.stmt;
  if (at != nullptr && def.kind == lang::NodeKind::kFunctionDef) {
    const Resumability& shape = ResumabilityOf(lang::As<lang::FunctionDef>(def));
    if (at->kind == lang::NodeKind::kWith || at->kind == lang::NodeKind::kTry || shape.InWith(at) ||
        shape.InTry(at)) {
      RefuseNotModeled(
          "an exception leaving a compiled frame unhandled through a with block or a try "
          "statement (torch logs its graph break where the block re-raises it) is not modeled");
    }
  }
  if (t->observed && t->observed->exception == error.exception()) return;
  BreakText text = ObservedExceptionText(Repr(error.exception()));
  text.then = BreakText::Then::kSkipFrame;
  t->observed = Trace::Observed{error.exception(), "", BreakLogAt(*t, text, true, t->root_depth)};
}

bool Dynamo::SkipOnObservedException(const PyError& error) {
  Trace* t = Tracing();
  if (t == nullptr || !t->record || t->callback->fullgraph || !t->observed ||
      t->observed->exception != error.exception()) {
    return false;
  }
  // torch: "Failed to handle graph break gracefully. Skipping the function and falling back
  // to eager": the partial graph is discarded, the code skipped from now on, and the call
  // runs again eagerly, offering the frames it calls (probed on torch 2.13.0: a callee that
  // raised is then traced as a frame of its own and logs its break again; a later call that
  // would not raise compiles nothing).
  CommitBreakLog(std::move(t->observed->log));
  if (t->resume && !t->inlined_calls.empty()) {
    RefuseNotModeled(
        "an exception leaving a resume function whose trace inlined calls (torch runs it again "
        "eagerly, offering them as frames) is not modeled");
  }
  Trace::InlinedCall root_call{
      t->root_depth - 1, in_.frames()[t->root_depth]->function, {}, 0, t->changes_begin};
  for (const auto& [value, source] : t->inputs) root_call.args.positional.push_back(value);
  RefuseChangedTwice(root_call);
  code_cache_.Of(t->key).skip = CodeState::Skip::kSkipFrame;
  Explain(fmt::format("{}: an exception reached its frame unhandled: skipped from now on{}",
                      t->code_name, t->resume ? "" : ", its call runs again eagerly"));
  // A resume function's rest already ran eagerly as far as the exception: it propagates.
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
