// The single-case executor (issue 14): one case, `fixtures:<group>:<name>:profile=<p>:
// level=<dynamo|aten>`, is the fixture program run by the reference in compile mode with a
// loaded backend compiling every graph at that level; it runs in a child process under a
// timeout, and its outcome (each graph's outputs against the reference's, then the whole
// program against its golden through the comparator) becomes a verdict by DESIGN.md D7,
// computed by a judge process where no backend code runs (issue 32: backend_calls.h).
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_EXECUTOR_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_EXECUTOR_H_

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "conformance/executor/case_record.h"
#include "conformance/executor/suite_guard.h"
#include "conformance/executor/verdict.h"
#include "conformance/loader/loader.h"
#include "gpu/parity/policy.h"

namespace tdc::conformance {

struct CaseSpec {
  std::string id;       // as written
  std::string fixture;  // fixtures/<group>/<name>.py, relative to the repository root
  std::string profile;
  tdc_graph_level level = TDC_GRAPH_LEVEL_DYNAMO;
  // `torch:...`: run under real torch.compile with a Python backend (torch_engine.h), not on
  // the reference.
  bool torch_engine = false;
};

// The case an id names, or why it names none. A fixture case's program is
// fixtures/<group>/<name>.py (a `torch:<group>:<name>:profile=<p>` case's too, which has no
// level: torch.compile hands its backend Dynamo's graphs); a generated one's
// (`fuzz:<expected>:seed_<n>:...`, conformance/runner/generated.h) is
// <generated_dir>/<expected>/seed_<n>.py. Either's expected outcome is the .golden.json beside it.
std::variant<CaseSpec, std::string> ResolveCase(std::string_view id,
                                                const std::string& generated_dir = "");
// The golden document beside `fixture` (<stem>.py -> <stem>.golden.json).
std::string GoldenFileOf(const std::string& fixture);
// The id of `fixture` (fixtures/<group>/<name>.py) at `profile` and `level`.
std::string CaseIdOf(const std::string& fixture, const std::string& profile, tdc_graph_level level);
// The suite's torch: cases (`--engine torch`): one for each Dynamo-level fixture case of `ids`.
std::vector<std::string> TorchCaseIds(const std::vector<std::string>& ids);

struct ExecutorOptions {
  double timeout_seconds = 60;
  bool required = false;  // in the must-pass core set
  gpu::Policy tolerance;  // what each graph's outputs are held to (output_parity.h)
  // Applied in the case's process before any backend call (suite_guard.h); none: the suite's
  // files are only checked before each case.
  std::shared_ptr<const SuiteGuard> guard = nullptr;
  // The SHA-256 the case's golden had when the run started (before any backend code ran);
  // none: not checked.
  std::optional<std::string> golden_sha256 = std::nullopt;
};

// Runs `spec` on `backend` (paths relative to the working directory, the repository root);
// what the case handed back goes to `records` when given.
Verdict RunCase(const LoadedBackend& backend, const CaseSpec& spec, const ExecutorOptions& options,
                std::vector<CaseRecord>* records = nullptr);

// The same in steps, for a caller that keeps several cases running from one thread (a
// process forked from a multithreaded one may inherit a held lock, so the runner never
// forks from threads): StartCase forks the case's process (or gives its verdict at once);
// ReadFromCase takes what it wrote (false at its end); FinishCase reaps it (killing it when
// `timed_out`) and gives its verdict.
//
// The case's process sends where it is and the backend's raw answers (backend_calls.h), then
// `done`, which is final (whatever still holds its pipe); FinishCase then has the judge, a
// process where no backend code runs, compute the verdict from those answers.
struct CaseFiles {
  std::string source, golden_file, golden_text;  // read before the case's process starts
};
struct RunningCase {
  pid_t pid = -1;
  int fd = -1;  // the read end of its pipe
  std::chrono::steady_clock::time_point deadline;
  double timeout_seconds = 0;
  std::string buffer;
  CasePhase phase = CasePhase::kLoad;  // where it last said it was
  std::string detail;
  // The case: its backend (null: not to be judged), spec, options and files.
  const LoadedBackend* backend = nullptr;
  CaseSpec spec;
  ExecutorOptions options;
  std::shared_ptr<const CaseFiles> files;
  std::deque<nlohmann::json> calls;  // the backend's answers, as the case's process sent them
  bool done = false;                 // it said it was done
  bool first_line_read = false;
  // Why the guard could not be applied (the process's first line; it then ran no backend code).
  std::optional<std::string> unguarded;
  bool judge = false;               // this is the judge's process: its verdict and records count
  std::optional<Verdict> verdict;   // the judge's
  std::vector<CaseRecord> records;  // the judge's
};
std::variant<RunningCase, Verdict> StartCase(const LoadedBackend& backend, const CaseSpec& spec,
                                             const ExecutorOptions& options);
bool ReadFromCase(RunningCase& c);
Verdict FinishCase(RunningCase& c, bool timed_out);

// The verdict of a library that does not load: BACKEND_ERROR in phase load.
Verdict LoadVerdict(const LoadFailure& failure);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_EXECUTOR_H_
