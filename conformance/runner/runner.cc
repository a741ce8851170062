#include "conformance/runner/runner.h"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <chrono>

#include "conformance/executor/output_parity.h"
#include "reference/base/read_file.h"
#include "reference/base/sha256.h"

namespace tdc::conformance {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A case whose process runs: its index in the run, when it started, the process.
struct InFlight {
  size_t index;
  Clock::time_point started;
  RunningCase process;
};

}  // namespace

std::map<std::string, std::string> GoldenDigests(const std::vector<std::string>& ids,
                                                 const std::string& generated_dir) {
  std::map<std::string, std::string> digests;
  for (const std::string& id : ids) {
    auto spec = ResolveCase(id, generated_dir);
    if (!std::holds_alternative<CaseSpec>(spec)) continue;
    const std::string golden = GoldenFileOf(std::get<CaseSpec>(spec).fixture);
    if (digests.contains(golden)) continue;
    if (std::optional<std::string> text = ReadFile(golden)) digests[golden] = Sha256Hex(*text);
  }
  return digests;
}

std::vector<CaseResult> RunCases(const LoadedBackend& backend, const std::vector<std::string>& ids,
                                 const RunnerOptions& options, const OnResult& on_result) {
  std::vector<CaseResult> results(ids.size());
  std::vector<bool> finished(ids.size(), false);
  bool stopped = false;
  size_t next = 0, done = 0;
  int timeouts_in_a_row = 0;
  bool unresponsive = false;
  std::vector<InFlight> running;
  auto finish = [&](size_t i, Verdict verdict, bool counted, std::vector<CaseRecord> records = {},
                    std::optional<double> seconds = std::nullopt) {
    if (counted) {
      timeouts_in_a_row = verdict.status == CaseStatus::kTimeout ? timeouts_in_a_row + 1 : 0;
      if (options.max_timeouts > 0 && timeouts_in_a_row >= options.max_timeouts)
        unresponsive = true;
    }
    results[i] = {ids[i], std::move(verdict), std::move(records)};
    results[i].outputs = JudgedOutputs(results[i].records);
    results[i].seconds = seconds;
    finished[i] = true;
    ++done;
    if (on_result) on_result(done, ids.size(), results[i]);
    results[i].records.clear();
  };
  // One thread: up to `jobs` case processes at a time, their pipes polled together.
  while (done < ids.size() && !stopped) {
    while (running.size() < static_cast<size_t>(std::max(options.jobs, 1)) && next < ids.size()) {
      const size_t i = next++;
      if (unresponsive) {
        finish(i,
               {CaseStatus::kSkipped, std::nullopt, "backend_unresponsive",
                fmt::format("{} cases in a row timed out", options.max_timeouts)},
               false);
        continue;
      }
      if (auto known = options.decided.find(ids[i]); known != options.decided.end()) {
        finish(i, known->second, false);
        continue;
      }
      auto spec = ResolveCase(ids[i], options.generated_dir);
      if (auto* error = std::get_if<std::string>(&spec)) {
        finish(i, Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "case_id", *error),
               true);
        continue;
      }
      const Clock::time_point started = Clock::now();
      const CaseSpec& resolved = std::get<CaseSpec>(spec);
      ExecutorOptions case_options{options.timeout_seconds, options.required.contains(ids[i]),
                                   options.tolerance, options.guard};
      if (auto digest = options.golden_sha256.find(GoldenFileOf(resolved.fixture));
          digest != options.golden_sha256.end()) {
        case_options.golden_sha256 = digest->second;
      }
      auto launched = StartCase(backend, resolved, case_options);
      if (auto* verdict = std::get_if<Verdict>(&launched)) {
        finish(i, std::move(*verdict), true, {}, SecondsSince(started));
      } else {
        running.push_back({i, started, std::move(std::get<RunningCase>(launched))});
      }
    }
    if (running.empty()) continue;
    const auto now = Clock::now();
    auto soonest = std::min_element(
        running.begin(), running.end(),
        [](const auto& a, const auto& b) { return a.process.deadline < b.process.deadline; });
    const auto wait =
        std::chrono::duration_cast<std::chrono::milliseconds>(soonest->process.deadline - now);
    std::vector<pollfd> fds;
    for (const InFlight& c : running) fds.push_back({c.process.fd, POLLIN, 0});
    fds.push_back({options.stop_fd, POLLIN, 0});  // poll ignores a negative fd
    poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait.count(), 0)));
    if (fds.back().revents != 0) {
      for (InFlight& c : running) {
        c.process.backend = nullptr;  // killed, neither judged nor counted
        FinishCase(c.process, /*timed_out=*/true);
      }
      running.clear();
      stopped = true;
      break;
    }
    for (size_t k = running.size(); k-- > 0;) {
      RunningCase& c = running[k].process;
      bool ended = false, timed_out = false;
      if (fds[k].revents != 0) ended = !ReadFromCase(c);
      if (!ended && Clock::now() >= c.deadline) ended = timed_out = true;
      if (!ended) continue;
      Verdict verdict = FinishCase(c, timed_out);
      InFlight ended_case = std::move(running[k]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      finish(ended_case.index, std::move(verdict), true, std::move(ended_case.process.records),
             SecondsSince(ended_case.started));
    }
  }
  if (stopped) {
    std::vector<CaseResult> kept;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (finished[i]) kept.push_back(std::move(results[i]));
    }
    return kept;
  }
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
      case Counts::kPassed:
        ++tally.passed;
        break;
      case Counts::kFailed:
        ++tally.failed;
        break;
      case Counts::kSkipped:
        ++tally.skipped;
        break;
    }
  }
  return tally;
}

std::string ClosingLine(const Tally& tally) {
  return fmt::format("{} passed, {} failed, {} skipped", tally.passed, tally.failed, tally.skipped);
}

bool Succeeded(const Tally& tally) { return tally.failed == 0 && tally.passed > 0; }

}  // namespace tdc::conformance
