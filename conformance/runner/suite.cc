// Every step that reads or writes a file gives back its value or its error text; RunSuite
// prints the error and stops, so each error is printed in one place.
#include "conformance/runner/suite.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <variant>

#include "conformance/executor/executor.h"
#include "conformance/executor/safe_text.h"
#include "conformance/executor/signal_name.h"
#include "conformance/runner/expectations.h"
#include "conformance/runner/failure_folder.h"
#include "conformance/runner/generated.h"
#include "conformance/runner/interrupt.h"
#include "conformance/runner/report.h"
#include "conformance/runner/run_temp_dir.h"
#include "conformance/runner/runner.h"
#include "conformance/runner/selection.h"
#include "conformance/runner/shrink_generated.h"
#include "conformance/runner/strays.h"

namespace tdc::conformance {

namespace {

template <typename T>
using OrError = std::variant<T, std::string>;

std::string GeneratedDir(const SuiteOptions& o) { return o.out + "/generated"; }
std::string FailuresDir(const SuiteOptions& o) { return o.out + "/failures"; }

// Writes the generated programs `ids` name (generated.h); the verdicts known before running.
OrError<std::map<std::string, Verdict>> Prepare(const SuiteOptions& o,
                                                const std::vector<std::string>& ids) {
  const bool by_torch =
      std::ranges::any_of(ids, [](const std::string& id) { return id.starts_with("fuzz:torch:"); });
  if (by_torch && std::filesystem::path(o.out).is_absolute()) {
    // The oracle names a program by its path in the repository (fixtures/SCHEMA.md, meta.fixture).
    std::error_code unknown;
    return fmt::format("tdconform: error: --vs-torch: --out {} must lie inside the repository ({})",
                       o.out, std::filesystem::current_path(unknown).string());
  }
  return PrepareGenerated(ids, {GeneratedDir(o), o.python});
}

// Keeps (or removes) the case's failure folder; the line naming it, if kept.
std::string KeepFolder(const SuiteOptions& o, const CaseResult& result) {
  if (auto error = UpdateFailureFolder(FailuresDir(o), GeneratedDir(o), result,
                                       ReproCommand(result.id, o.library))) {
    return *error + "\n";
  }
  return KeepsFolder(result) ? fmt::format("  details: {}/{}/\n", FailuresDir(o), result.id) : "";
}

// The suite (its case ids and the generated programs') and the ids the options select of it.
struct Selected {
  std::vector<std::string> suite, ids;
};
OrError<Selected> SelectIds(const SuiteOptions& o) {
  auto read = ReadCaseList(o.cases);
  if (auto* error = std::get_if<std::string>(&read)) return *error;
  Selected out;
  out.suite = std::get<std::vector<std::string>>(std::move(read));
  if (o.engine == "torch") out.suite = TorchCaseIds(out.suite);
  const std::vector<std::string> generated = GeneratedCaseIds({o.fuzz, o.seed, o.vs_torch});
  out.suite.insert(out.suite.end(), generated.begin(), generated.end());
  auto from_environment = ShardFromEnvironment();
  if (auto* error = std::get_if<std::string>(&from_environment))
    return fmt::format("tdconform: error: {}", *error);
  Selection selection{o.filters, o.excludes, std::nullopt, std::get<Shard>(from_environment)};
  if (!o.caselist.empty()) {
    auto listed = ReadCaseList(o.caselist);
    if (auto* error = std::get_if<std::string>(&listed)) return *error;
    selection.caselist = std::get<std::vector<std::string>>(std::move(listed));
    if (auto unknown = FirstUnknown(out.suite, *selection.caselist)) {
      return fmt::format("{}:1:1: error: '{}' is no case of the suite ({})", o.caselist,
                         SafeText(*unknown), o.cases);
    }
  }
  if (!o.shard.empty()) {
    auto shard = ParseShard(o.shard);
    if (auto* error = std::get_if<std::string>(&shard))
      return fmt::format("tdconform: error: --shard: {}", *error);
    selection.shard = std::get<Shard>(shard);
  }
  out.ids = Select(out.suite, selection);
  return out;
}

// The expectations the run starts from: none without --expectations, and none when
// --update-expectations creates the file.
OrError<std::vector<Expectation>> StartingExpectations(const SuiteOptions& o) {
  const bool creating = o.update_expectations && !std::filesystem::exists(o.expectations);
  if (o.expectations.empty() || creating) return std::vector<Expectation>{};
  return ReadExpectations(o.expectations);
}

// Before the backend is loaded: the cases' temporary directory (run_temp_dir.h), or why it
// could not be made, said on stderr.
void MakeCasesTempDir(const SuiteOptions& o, RunTempDir& temp) {
  if (auto why = temp.MakeIfGuarded(o.out, SuitePaths(".", GeneratedDir(o))))
    fmt::print(stderr, "tdconform: note: {}\n", *why);
}

// The guard of the suite's files for this run's cases (suite_guard.h), planned once, and the
// report's words for it; without Landlock, none, said once on stderr.
std::pair<std::shared_ptr<const SuiteGuard>, std::string> GuardTheSuite(const SuiteOptions& o,
                                                                        const RunTempDir& temp) {
  // Its name is random: the report names its folder, as the same run gives the same bytes.
  const std::string temp_words =
      temp.made().empty() ? "" : fmt::format("; the cases' TMPDIR: a cases-tmp.* in {}", o.out);
  auto planned = PlanSuiteGuard(SuitePaths(".", GeneratedDir(o)));
  if (auto* why = std::get_if<std::string>(&planned)) {
    fmt::print(stderr, "tdconform: note: {}\n", *why);
    return {nullptr, "none: " + *why + temp_words};
  }
  auto guard = std::make_shared<const SuiteGuard>(std::get<SuiteGuard>(std::move(planned)));
  return {guard, fmt::format("landlock (ABI {}): {}{}", guard->landlock_abi,
                             fmt::join(guard->protected_paths, ", "), temp_words)};
}

SuiteStatus RunOne(const SuiteOptions& o, const std::set<std::string>& core) {
  RunTempDir temp;  // removed after the strays are killed
  KillStraysAtEnd strays;
  auto spec = ResolveCase(o.case_id, GeneratedDir(o));
  if (auto* error = std::get_if<std::string>(&spec)) {
    fmt::print(stderr, "tdconform: error: --case {}: {}\n", o.case_id, *error);
    return SuiteStatus::kError;
  }
  CaseResult result{o.case_id, {}, {}};
  auto decided = Prepare(o, {o.case_id});
  if (auto* error = std::get_if<std::string>(&decided)) {
    fmt::print(stderr, "{}\n", *error);
    return SuiteStatus::kError;
  }
  const auto& known = std::get<std::map<std::string, Verdict>>(decided);
  const auto golden_sha256 = GoldenDigests({o.case_id}, GeneratedDir(o));  // before loading
  MakeCasesTempDir(o, temp);
  auto loaded = LoadBackend(o.library, o.timeout);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    result.verdict = LoadVerdict(*failure);
  } else if (known.contains(o.case_id)) {
    result.verdict = known.at(o.case_id);
  } else {
    ExecutorOptions options{o.timeout, core.contains(o.case_id), o.tolerance,
                            GuardTheSuite(o, temp).first};
    if (!golden_sha256.empty()) options.golden_sha256 = golden_sha256.begin()->second;
    result.verdict =
        RunCase(*std::get<0>(loaded), std::get<CaseSpec>(spec), options, &result.records);
  }
  fmt::print("{}: {}\n", o.case_id, SafeText(FormatVerdict(result.verdict)));
  const std::string folder = KeepFolder(o, result);
  if (result.verdict.status == CaseStatus::kPass) return SuiteStatus::kSucceeded;
  fmt::print("repro: {}\n{}", SafeText(ReproCommand(o.case_id, o.library)), folder);
  return CountsAs(result.verdict.status) == Counts::kSkipped ? SuiteStatus::kSucceeded
                                                             : SuiteStatus::kFailed;
}

// The first --shrink generated cases the backend failed, shrunk into their failure folders.
void ShrinkFailures(const SuiteOptions& o, const LoadedBackend& backend,
                    const std::vector<CaseResult>& results, const std::set<std::string>& core,
                    const std::shared_ptr<const SuiteGuard>& guard) {
  int left = o.shrink;
  for (const CaseResult& r : results) {
    if (left <= 0) return;
    if (!WorthShrinking(r.id, r.verdict)) continue;
    --left;
    auto shrunk = ShrinkGenerated(
        backend, r.id, r.verdict, {o.timeout, core.contains(r.id), o.tolerance, guard},
        fmt::format("{}/shrink/{}", o.out, r.id), fmt::format("{}/{}", FailuresDir(o), r.id));
    if (auto* error = std::get_if<std::string>(&shrunk)) {
      fmt::print(stderr, "{}\n", *error);
      continue;
    }
    const Shrunk& s = std::get<Shrunk>(shrunk);
    fmt::print("shrunk {}: {} ({} statements, from {}; {} runs)\n", SafeText(r.id), s.program,
               s.statements, s.statements_before, s.runs);
  }
}

// Runs `ids`, printing each verdict other than PASS as its case ends, as the closing line will
// count it (XFAIL, XPASS: `expectations` applied), flushed so a log being written shows it
// (and, on a terminal, which case just ended).
std::vector<CaseResult> RunPrinting(const SuiteOptions& o, const LoadedBackend& backend,
                                    const std::vector<std::string>& ids, RunnerOptions options,
                                    const std::vector<Expectation>& expectations,
                                    const std::string& today) {
  const bool terminal = isatty(fileno(stderr)) != 0;
  std::vector<CaseResult> results =
      RunCases(backend, ids, options, [&](size_t done, size_t total, const CaseResult& r) {
        if (terminal) fmt::print(stderr, "\r[{}/{}] {}\033[K", done, total, r.id);
        const std::string folder = KeepFolder(o, r);
        std::vector<CaseResult> shown{r};
        ApplyExpectations(expectations, today, shown);
        if (shown[0].verdict.status == CaseStatus::kPass) return;
        if (terminal) fmt::print(stderr, "\r\033[K");
        fmt::print("{}: {}\n  repro: {}\n{}", r.id, SafeText(FormatVerdict(shown[0].verdict)),
                   SafeText(ReproCommand(r.id, o.library)), folder);
        std::fflush(stdout);
      });
  if (terminal) fmt::print(stderr, "\r\033[K");
  return results;
}

// The run's reports (--json, --junit, --timings), each true at every step: written `running` before
// anything else, then complete, interrupted or not run (report.h). False when one could not
// be written (the error printed).
bool WriteReports(const SuiteOptions& o, const tdc_backend_info& info,
                  const std::vector<CaseResult>& results, const Tally& tally,
                  const ReportState& state) {
  bool written = true;
  auto write = [&](const std::string& path, const std::string& text) {
    if (path.empty()) return;
    if (auto error = WriteAtomically(path, text)) {
      fmt::print(stderr, "{}\n", *error);
      written = false;
    }
  };
  write(o.json, JsonReport(info, o.library, results, tally, state, o.tolerance)
                        .dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
                    "\n");
  write(o.junit, JunitReport(info, o.library, results, o.strict, state, o.tolerance));
  write(o.timings, TimingsReport(o.library, results, o.jobs, state)
                           .dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
                       "\n");
  return written;
}

// The run ends before any case: the error printed, the reports saying so.
SuiteStatus NotRun(const SuiteOptions& o, const std::string& error, SuiteStatus status,
                   const tdc_backend_info& info = {}) {
  fmt::print(stderr, "{}\n", error);
  WriteReports(o, info, {}, {0, 1, 0}, {RunState::kNotRun, error});
  return status;
}

// Two outputs of a run naming one file (the reports, the expectations file) would overwrite
// each other: an error, before anything is written.
std::optional<std::string> SameFiles(const SuiteOptions& o) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--json", &o.json},
      {"--junit", &o.junit},
      {"--timings", &o.timings},
      {"--expectations", &o.expectations}};
  for (size_t a = 0; a < std::size(outputs); ++a) {
    for (size_t b = a + 1; b < std::size(outputs); ++b) {
      if (outputs[a].second->empty() || outputs[b].second->empty()) continue;
      std::error_code error;
      if (std::filesystem::weakly_canonical(*outputs[a].second, error) ==
          std::filesystem::weakly_canonical(*outputs[b].second, error)) {
        return fmt::format("tdconform: error: {} and {} name the same file {}", outputs[a].first,
                           outputs[b].first, *outputs[a].second);
      }
    }
  }
  return std::nullopt;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Applies the expectations to the run as a whole, judges their entries, writes what was asked for
// and closes the run. A run `interrupted` (by that signal) applies them without judging any entry
// stale and rewrites no expectations file.
SuiteStatus Conclude(const SuiteOptions& o, const LoadedBackend& backend, const Selected& selected,
                     std::vector<Expectation> expectations, const std::string& today,
                     std::vector<CaseResult>& results, int interrupted,
                     const std::string& suite_guard) {
  std::vector<Expectation> stale =
      StaleInThisRun(ApplyExpectations(expectations, today, results), selected.suite, selected.ids);
  if (interrupted != 0) stale.clear();
  for (const Expectation& e : stale) {
    if (e.expires && *e.expires < today) {
      fmt::print("{}:{}: stale expectation: {} {} expired on {}\n", o.expectations, e.line,
                 e.pattern, StatusName(e.status), *e.expires);
    } else {
      fmt::print("{}:{}: stale expectation: {} {} matched no case ending that way\n",
                 o.expectations, e.line, e.pattern, StatusName(e.status));
    }
  }
  bool written = true;
  if (o.update_expectations && interrupted == 0) {
    const std::string previous =
        std::filesystem::exists(o.expectations) ? ReadWhole(o.expectations) : std::string();
    if (auto error = WriteAtomically(
            o.expectations, UpdateExpectations(previous, expectations, selected.suite, selected.ids,
                                               today, results))) {
      fmt::print(stderr, "{}\n", *error);
      written = false;
    }
  }
  Tally tally = Count(results, o.strict);
  if (o.strict) tally.failed += static_cast<int>(stale.size());
  ReportState state;
  if (interrupted != 0) {
    state = {RunState::kInterrupted,
             fmt::format("interrupted by {} after {} of {} cases", SignalName(interrupted),
                         results.size(), selected.ids.size())};
    fmt::print(stderr, "tdconform: {}\n", state.detail);
  }
  state.suite_guard = suite_guard;
  written = WriteReports(o, backend.info(), results, tally, state) && written;
  fmt::print("{}\n", ClosingLine(tally));
  if (!written) return SuiteStatus::kError;
  return interrupted == 0 && Succeeded(tally) ? SuiteStatus::kSucceeded : SuiteStatus::kFailed;
}

SuiteStatus RunAll(const SuiteOptions& o, const std::set<std::string>& core) {
  if (o.list) {
    auto selected = SelectIds(o);
    if (auto* error = std::get_if<std::string>(&selected)) {
      fmt::print(stderr, "{}\n", *error);
      return SuiteStatus::kError;
    }
    for (const std::string& id : std::get<Selected>(selected).ids) fmt::print("{}\n", id);
    return SuiteStatus::kSucceeded;
  }
  if (auto same = SameFiles(o)) {
    fmt::print(stderr, "{}\n", *same);
    return SuiteStatus::kError;
  }
  // From here to its end the run is stopped by SIGINT and SIGTERM, not ended, and leaves no
  // process behind.
  StopOnSignals signals;
  RunTempDir temp;  // removed after the strays are killed
  KillStraysAtEnd strays;
  if (!WriteReports(o, {}, {}, {}, {RunState::kRunning, "the run has not finished"}))
    return SuiteStatus::kError;
  auto selection = SelectIds(o);
  if (auto* error = std::get_if<std::string>(&selection))
    return NotRun(o, *error, SuiteStatus::kError);
  const Selected& selected = std::get<Selected>(selection);
  // Before the library's code first runs (its constructors, in the parent too).
  std::map<std::string, std::string> golden_sha256 = GoldenDigests(selected.ids, GeneratedDir(o));
  MakeCasesTempDir(o, temp);
  auto loaded = LoadBackend(o.library, o.timeout);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    // No case runs (DESIGN.md D7): the library is not a backend of this ABI.
    const std::string line =
        fmt::format("{}: {}", SafeText(o.library), FormatVerdict(LoadVerdict(*failure)));
    fmt::print("{}\n", line);
    WriteReports(o, {}, {}, {0, 1, 0}, {RunState::kNotRun, line});
    fmt::print("{}\n", ClosingLine({0, 1, 0}));
    return SuiteStatus::kFailed;
  }
  const LoadedBackend& backend = *std::get<0>(loaded);
  auto expectations = StartingExpectations(o);
  if (auto* error = std::get_if<std::string>(&expectations))
    return NotRun(o, *error, SuiteStatus::kError, backend.info());
  if (o.fuzz > 0) {
    fmt::print("generated: {} programs, seeds {} to {} (expected outcome from {})\n", o.fuzz,
               o.seed, o.seed + static_cast<uint64_t>(o.fuzz) - 1,
               o.vs_torch ? "torch 2.13.0" : "the reference");
  }
  auto decided = Prepare(o, selected.ids);
  if (auto* error = std::get_if<std::string>(&decided))
    return NotRun(o, *error, SuiteStatus::kError, backend.info());
  auto [guard, suite_guard] = GuardTheSuite(o, temp);
  RunnerOptions options{o.jobs,
                        o.timeout,
                        o.max_timeouts,
                        o.tolerance,
                        core,
                        GeneratedDir(o),
                        std::get<std::map<std::string, Verdict>>(std::move(decided)),
                        guard};
  options.stop_fd = signals.fd();
  options.golden_sha256 = std::move(golden_sha256);
  // One day for the whole run: the lines printed as cases end count expectations as the
  // closing line does.
  const std::string today = Today();
  std::vector<Expectation>& entries = std::get<std::vector<Expectation>>(expectations);
  std::vector<CaseResult> results =
      RunPrinting(o, backend, selected.ids, std::move(options), entries, today);
  if (!signals.signal()) ShrinkFailures(o, backend, results, core, guard);
  const SuiteStatus status = Conclude(o, backend, selected, std::move(entries), today, results,
                                      signals.signal(), suite_guard);
  strays.KillNow();
  signals.DieOfItIfAny();
  return status;
}

}  // namespace

SuiteStatus RunSuite(const SuiteOptions& options) {
  // An unreadable core set makes no case required.
  std::set<std::string> core;
  if (auto ids = ReadCaseList(options.core_set);
      std::holds_alternative<std::vector<std::string>>(ids)) {
    const auto& list = std::get<std::vector<std::string>>(ids);
    core.insert(list.begin(), list.end());
  }
  return options.case_id.empty() ? RunAll(options, core) : RunOne(options, core);
}

}  // namespace tdc::conformance
