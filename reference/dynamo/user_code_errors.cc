// The errors Dynamo raises while it traces, with the user code appended (exc.py's
// augment_exc_message): the traceback of the traced frames (CPython 3.11's format, torch's
// own frames where it has them between), and the verbosity hint.
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/user_traceback.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::string Dynamo::UserTraceback(const Trace& t, bool after_call, bool callers_after_call) const {
  std::vector<TracebackEntry> entries;
  const auto& frames = in_.frames();
  for (size_t i = t.root_depth; i < frames.size(); ++i) {
    const Frame& f = *frames[i];
    if (inlined_compiled_.contains(i)) {
      for (TracebackEntry& e : CompiledFunctionPolyfillFrames()) entries.push_back(std::move(e));
    }
    for (const CondBranch& branch : cond_branches_) {
      if (branch.trace_serial == t.serial && branch.depth == i &&
          branch.entry == CondEntry::kTorchCond)
        entries.push_back(TorchCondFrame());
    }
    int64_t line = LineOf(f);
    std::optional<SourceSpan> where;
    if (f.call != nullptr) where = CallPosition(f.stmt, *f.call);
    if (f.call == nullptr && i + 1 == frames.size() && branch_at_) where = branch_at_;
    const bool innermost = i + 1 == frames.size();
    if ((innermost ? after_call : callers_after_call) && f.call != nullptr && f.stmt != nullptr) {
      where = SpanAfterCall(*f.stmt, *f.call);
    }
    entries.push_back(
        {f.program->filename, line, CodeName(*f.scope), std::string(f.program->Line(line)), where});
  }
  return FormatUserTraceback(entries);
}

bool Dynamo::Verbose() const {
  Value flag = in_.process().modules()[ModuleId::kTorchDynamoConfig]->GetAttr("verbose");
  return flag && IsTruthy(flag);
}

bool Dynamo::StackHasResumeFrames() const {
  if (!folded_frames_.empty() || !shown_lines_.empty() || !pending_resumes_.empty()) return true;
  return std::any_of(contexts_.begin(), contexts_.end(), [](const std::unique_ptr<Trace>& t) {
    return t != nullptr && (t->resume || !t->folded.empty());
  });
}

void Dynamo::RaiseWithUserCode(ExcType type, const std::string& message, bool after_call,
                               bool callers_after_call) {
  try {
    Raise(in_.heap(), type,
          message +
              UserCodeTail(UserTraceback(*Tracing(), after_call, callers_after_call), Verbose()));
  } catch (const PyError& error) {
    throw TraceError{error};
  }
}

void Dynamo::RaiseFromTracing(const PyError& error) {
  // convert_frame._compile re-raises these as they are and rewraps the rest "for clarity".
  const ExcType type = error.type();
  if (type == ExcType::kAssertionError || type == ExcType::kIndexError) {
    RaiseWithUserCode(type, Str(error.exception()));
  }
  RaiseWithUserCode(ExcType::kInternalTorchDynamoError,
                    fmt::format("{}: {}", ExcTypeName(type), Str(error.exception())));
}

}  // namespace tdc::dynamo
