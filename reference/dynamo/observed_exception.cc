// An exception raised by a raise statement of traced code (Dynamo's "observed exception"):
// a traced frame that handles it goes on tracing, as the interpreter runs the handler; one
// reaching the compiled function's frame unhandled is, under fullgraph=True, Unsupported
// gb0088 (torch 2.13.0: symbolic_convert's exception table walk finds no handler). Without
// fullgraph the frame runs eagerly and raises it (R-observed-exception).
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

void Dynamo::RaiseIfObservedUnhandled(const PyError& error) {
  const Trace* t = Tracing();
  if (t == nullptr || !t->observed || t->observed->exception != error.exception()) return;
  if (!FullgraphRecording(*t) || !rules_.on(Rule::kFullgraphUnsupported)) return;
  Explain("an exception raised in the fullgraph trace reached its frame unhandled: Unsupported");
  Raise(in_.heap(), ExcType::kUnsupported,
        FormatBreak(ObservedExceptionText(Repr(error.exception()))) +
            UserCodeTail(t->observed->traceback, Verbose()));
}

}  // namespace tdc::dynamo
