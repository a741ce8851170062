// Every step that reads or writes a file gives back its value or its error text; RunSuite
// prints the error and stops, so each error is printed in one place.
#include "conformance/runner/suite.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include "conformance/executor/executor.h"
#include "conformance/runner/expectations.h"
#include "conformance/runner/failure_folder.h"
#include "conformance/runner/generated.h"
#include "conformance/runner/report.h"
#include "conformance/runner/runner.h"
#include "conformance/runner/selection.h"

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
    return fmt::format("tdconform: error: --vs-torch: --out {} must lie inside the repository ({})",
                       o.out, std::filesystem::current_path().string());
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

// The ids the options select from the suite and the generated programs.
OrError<std::vector<std::string>> SelectIds(const SuiteOptions& o) {
  auto suite = ReadCaseList(o.cases);
  if (auto* error = std::get_if<std::string>(&suite)) return *error;
  std::vector<std::string>& ids = std::get<std::vector<std::string>>(suite);
  const std::vector<std::string> generated = GeneratedCaseIds({o.fuzz, o.seed, o.vs_torch});
  ids.insert(ids.end(), generated.begin(), generated.end());
  Selection selection{o.filters, o.excludes, std::nullopt,
                      ShardFromEnvironment().value_or(Shard{})};
  if (!o.caselist.empty()) {
    auto listed = ReadCaseList(o.caselist);
    if (auto* error = std::get_if<std::string>(&listed)) return *error;
    selection.caselist = std::get<std::vector<std::string>>(std::move(listed));
  }
  if (!o.shard.empty()) {
    auto shard = ParseShard(o.shard);
    if (auto* error = std::get_if<std::string>(&shard))
      return fmt::format("tdconform: error: --shard: {}", *error);
    selection.shard = std::get<Shard>(shard);
  }
  return Select(ids, selection);
}

// The expectations the run starts from: none without --expectations, and none when
// --update-expectations creates the file.
OrError<std::vector<Expectation>> StartingExpectations(const SuiteOptions& o) {
  const bool creating = o.update_expectations && !std::filesystem::exists(o.expectations);
  if (o.expectations.empty() || creating) return std::vector<Expectation>{};
  return ReadExpectations(o.expectations);
}

SuiteStatus RunOne(const SuiteOptions& o, const std::set<std::string>& core) {
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
  auto loaded = LoadBackend(o.library);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    result.verdict = LoadVerdict(*failure);
  } else if (known.contains(o.case_id)) {
    result.verdict = known.at(o.case_id);
  } else {
    result.verdict = RunCase(*std::get<0>(loaded), std::get<CaseSpec>(spec),
                             {o.timeout, core.contains(o.case_id)}, &result.records);
  }
  fmt::print("{}: {}\n", o.case_id, FormatVerdict(result.verdict));
  const std::string folder = KeepFolder(o, result);
  if (result.verdict.status == CaseStatus::kPass) return SuiteStatus::kSucceeded;
  fmt::print("repro: {}\n{}", ReproCommand(o.case_id, o.library), folder);
  return CountsAs(result.verdict.status) == Counts::kSkipped ? SuiteStatus::kSucceeded
                                                             : SuiteStatus::kFailed;
}

// Runs `ids`, printing each non-PASS verdict as its case ends (and, on a terminal, which case
// just ended).
std::vector<CaseResult> RunPrinting(const SuiteOptions& o, const LoadedBackend& backend,
                                    const std::vector<std::string>& ids, RunnerOptions options) {
  const bool terminal = isatty(fileno(stderr)) != 0;
  std::vector<CaseResult> results =
      RunCases(backend, ids, options, [&](size_t done, size_t total, const CaseResult& r) {
        if (terminal) fmt::print(stderr, "\r[{}/{}] {}\033[K", done, total, r.id);
        const std::string folder = KeepFolder(o, r);
        if (r.verdict.status == CaseStatus::kPass) return;
        if (terminal) fmt::print(stderr, "\r\033[K");
        fmt::print("{}: {}\n  repro: {}\n{}", r.id, FormatVerdict(r.verdict),
                   ReproCommand(r.id, o.library), folder);
      });
  if (terminal) fmt::print(stderr, "\r\033[K");
  return results;
}

// Applies the expectations to the run as a whole (the verdicts printed as cases ended are the
// raw ones), writes what was asked for and closes the run.
SuiteStatus Conclude(const SuiteOptions& o, const LoadedBackend& backend,
                     std::vector<Expectation> expectations, std::vector<CaseResult>& results) {
  bool written = true;
  auto write = [&](const std::string& path, const std::string& text) {
    if (auto error = WriteAtomically(path, text)) {
      fmt::print(stderr, "{}\n", *error);
      written = false;
    }
  };
  const std::string today = Today();
  const std::vector<Expectation> stale = ApplyExpectations(expectations, today, results);
  for (const Expectation& e : stale) {
    fmt::print("{}:{}: stale expectation: {} {} matched no case ending that way\n", o.expectations,
               e.line, e.pattern, StatusName(e.status));
  }
  if (o.update_expectations) write(o.expectations, WriteExpectations(expectations, today, results));
  Tally tally = Count(results, o.strict);
  if (o.strict) tally.failed += static_cast<int>(stale.size());
  if (!o.json.empty())
    write(o.json, JsonReport(backend.info(), o.library, results, tally).dump(1) + "\n");
  if (!o.junit.empty()) write(o.junit, JunitReport(backend.info(), o.library, results, o.strict));
  fmt::print("{}\n", ClosingLine(tally));
  if (!written) return SuiteStatus::kError;
  return Succeeded(tally) ? SuiteStatus::kSucceeded : SuiteStatus::kFailed;
}

SuiteStatus RunAll(const SuiteOptions& o, const std::set<std::string>& core) {
  auto selected = SelectIds(o);
  if (auto* error = std::get_if<std::string>(&selected)) {
    fmt::print(stderr, "{}\n", *error);
    return SuiteStatus::kError;
  }
  const auto& ids = std::get<std::vector<std::string>>(selected);
  if (o.list) {
    for (const std::string& id : ids) fmt::print("{}\n", id);
    return SuiteStatus::kSucceeded;
  }
  auto loaded = LoadBackend(o.library);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    // No case runs (DESIGN.md D7): the library is not a backend of this ABI.
    fmt::print("{}: {}\n", o.library, FormatVerdict(LoadVerdict(*failure)));
    fmt::print("{}\n", ClosingLine({0, 1, 0}));
    return SuiteStatus::kFailed;
  }
  auto expectations = StartingExpectations(o);
  if (auto* error = std::get_if<std::string>(&expectations)) {
    fmt::print(stderr, "{}\n", *error);
    return SuiteStatus::kError;
  }
  if (o.fuzz > 0) {
    fmt::print("generated: {} programs, seeds {} to {} (expected outcome from {})\n", o.fuzz,
               o.seed, o.seed + static_cast<uint64_t>(o.fuzz) - 1,
               o.vs_torch ? "torch 2.13.0" : "the reference");
  }
  auto decided = Prepare(o, ids);
  if (auto* error = std::get_if<std::string>(&decided)) {
    fmt::print(stderr, "{}\n", *error);
    return SuiteStatus::kError;
  }
  const LoadedBackend& backend = *std::get<0>(loaded);
  RunnerOptions options{
      o.jobs, o.timeout,       o.max_timeouts,
      core,   GeneratedDir(o), std::get<std::map<std::string, Verdict>>(std::move(decided))};
  std::vector<CaseResult> results = RunPrinting(o, backend, ids, std::move(options));
  return Conclude(o, backend, std::get<std::vector<Expectation>>(std::move(expectations)), results);
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
