// The runner (issue 15): runs the selected cases on one backend through the single-case
// executor, `jobs` case processes at a time (from one thread), and gives up on a backend
// that stops answering: after `max_timeouts` TIMEOUTs in a row, the cases not yet started are
// SKIPPED (backend_unresponsive). Results come back in the order the cases were given,
// whatever the jobs; a run stopped (RunnerOptions::stop_fd) gives back the cases that
// finished, in that order.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_RUNNER_H_
#define TDCONFORM_CONFORMANCE_RUNNER_RUNNER_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "conformance/executor/executor.h"
#include "conformance/runner/case_result.h"

namespace tdc::conformance {

struct RunnerOptions {
  int jobs = 1;
  double timeout_seconds = 60;
  int max_timeouts = 3;
  gpu::Policy tolerance;                   // what graphs' outputs are held to
  std::set<std::string> required;          // the must-pass core set
  std::string generated_dir;               // where generated cases' programs are (generated.h)
  std::map<std::string, Verdict> decided;  // verdicts known before running (generated.h)
  // Applied in each case's process (suite_guard.h).
  std::shared_ptr<const SuiteGuard> guard = nullptr;
  // Each golden's SHA-256 when the run started (GoldenDigests): a case whose golden differs
  // is HARNESS_ERROR suite_modified.
  std::map<std::string, std::string> golden_sha256 = {};
  // Readable when the run must stop (interrupt.h): the running cases are killed and only
  // the finished ones come back. -1: none.
  int stop_fd = -1;
};

// Called once per case as it ends.
using OnResult = std::function<void(size_t done, size_t total, const CaseResult& result)>;

// The SHA-256 of the golden of each case of `ids` that has one (cases resolved with
// `generated_dir`), by golden file: read before any backend code runs, what the run's cases are
// checked against.
std::map<std::string, std::string> GoldenDigests(const std::vector<std::string>& ids,
                                                 const std::string& generated_dir);

std::vector<CaseResult> RunCases(const LoadedBackend& backend, const std::vector<std::string>& ids,
                                 const RunnerOptions& options, const OnResult& on_result);

struct Tally {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};
// With `strict`, an XPASS counts as failed (its expectation is out of date).
Tally Count(const std::vector<CaseResult>& results, bool strict = false);
// DESIGN.md D7's closing line: `N passed, M failed, K skipped`.
std::string ClosingLine(const Tally& tally);
// A run succeeds when nothing failed and something passed.
bool Succeeded(const Tally& tally);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_RUNNER_H_
