#include "conformance/runner/runner.h"

#include <fmt/format.h>

#include <atomic>
#include <mutex>
#include <thread>

namespace tdc::conformance {

std::vector<CaseResult> RunCases(const LoadedBackend& backend, const std::vector<std::string>& ids,
                                 const RunnerOptions& options, const OnResult& on_result) {
  std::vector<CaseResult> results(ids.size());
  std::atomic<size_t> next{0};
  std::mutex mutex;  // guards the counts below and on_result
  size_t done = 0;
  int timeouts_in_a_row = 0;
  bool unresponsive = false;
  auto work = [&] {
    for (size_t i; (i = next++) < ids.size();) {
      CaseResult result{ids[i], {}};
      bool skip;
      {
        std::lock_guard<std::mutex> lock(mutex);
        skip = unresponsive;
      }
      if (skip) {
        result.verdict = {CaseStatus::kSkipped, std::nullopt, "backend_unresponsive",
                          fmt::format("{} cases in a row timed out", options.max_timeouts)};
      } else if (auto spec = ResolveCase(ids[i]); auto* error = std::get_if<std::string>(&spec)) {
        result.verdict = Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "case_id", *error);
      } else {
        ExecutorOptions run{options.timeout_seconds, options.required.contains(ids[i])};
        result.verdict = RunCase(backend, std::get<CaseSpec>(spec), run);
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (!skip) {
        timeouts_in_a_row = result.verdict.status == CaseStatus::kTimeout ? timeouts_in_a_row + 1 : 0;
        if (options.max_timeouts > 0 && timeouts_in_a_row >= options.max_timeouts) unresponsive = true;
      }
      results[i] = std::move(result);
      if (on_result) on_result(++done, ids.size(), results[i]);
    }
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < options.jobs; ++j) workers.emplace_back(work);
  work();
  for (std::thread& t : workers) t.join();
  return results;
}

Tally Count(const std::vector<CaseResult>& results, bool strict) {
  Tally tally;
  for (const CaseResult& r : results) {
    if (strict && r.verdict.status == CaseStatus::kXPass) {
      ++tally.failed;
      continue;
    }
    switch (CountsAs(r.verdict.status)) {
      case Counts::kPassed: ++tally.passed; break;
      case Counts::kFailed: ++tally.failed; break;
      case Counts::kSkipped: ++tally.skipped; break;
    }
  }
  return tally;
}

std::string ClosingLine(const Tally& tally) {
  return fmt::format("{} passed, {} failed, {} skipped", tally.passed, tally.failed, tally.skipped);
}

bool Succeeded(const Tally& tally) { return tally.failed == 0 && tally.passed > 0; }

}  // namespace tdc::conformance
