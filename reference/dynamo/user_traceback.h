// The "from user code" traceback Dynamo attaches to an error raised while tracing
// (PLAN.md §2.6): CPython 3.11's traceback.format_list of the traced frames, with the
// carets under the instruction being run.
#ifndef TDCONFORM_REFERENCE_DYNAMO_USER_TRACEBACK_H_
#define TDCONFORM_REFERENCE_DYNAMO_USER_TRACEBACK_H_

#include <optional>
#include <string>
#include <vector>

#include "reference/base/source_location.h"
#include "reference/lang/ast.h"

namespace tdc::dynamo {

struct TracebackEntry {
  std::string file;
  int64_t line = 0;
  std::string name;
  std::string text;                 // the source line
  std::optional<SourceSpan> where;  // the running instruction's position (carets)
};

// format_list's text of `entries` (root first), the first line indented one more space
// as Dynamo joins it, without the final newline.
std::string FormatUserTraceback(const std::vector<TracebackEntry>& entries);

// The two frames of torch/_dynamo/polyfills/__init__.py through which Dynamo inlines a
// torch.compile'd function met while tracing (SEMANTICS §4.4).
std::vector<TracebackEntry> CompiledFunctionPolyfillFrames();
// torch.cond's frame (torch/_higher_order_ops/cond.py), between the frame calling torch.cond
// and a branch of it.
TracebackEntry TorchCondFrame();

// The position of the instruction running `call` in `stmt`: the call's span, except for a
// with-item's context expression, whose position runs on through the with statement
// (carets to the end of the line: golden set_stance/s31_forbid_in_graph).
SourceSpan CallPosition(const lang::Stmt* stmt, const lang::Call& call);

// Where Dynamo reports a "Skip inlining" break of `call` in `stmt`: the expression whose
// operand the call is (`wrapped(x) + 1`: golden msg_skip_inlining_disabled), or the call
// itself when a statement takes its value (`x = f1(x)`: found by tdfuzz --vs-torch).
SourceSpan SpanAfterCall(const lang::Stmt& stmt, const lang::Call& call);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_USER_TRACEBACK_H_
