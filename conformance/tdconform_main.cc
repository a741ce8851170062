// tdconform: conformance of a compiler backend loaded through the tdconform C ABI
// (conformance/abi/tdconform_backend.h). `--case ID` runs one case and prints its verdict;
// otherwise every selected case of the suite runs (conformance/runner), each non-PASS
// verdict is printed with its repro command, and the run closes with `N passed, M failed,
// K skipped` (DESIGN.md D7): exit status 0 when nothing failed and something passed. With
// `--fuzz N --seed S` generated programs run too (conformance/runner/generated.h); each
// failure leaves a folder under <out>/failures (conformance/runner/failure_folder.h).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "conformance/executor/executor.h"
#include "conformance/runner/expectations.h"
#include "conformance/runner/failure_folder.h"
#include "conformance/runner/generated.h"
#include "conformance/runner/report.h"
#include "conformance/runner/runner.h"
#include "conformance/runner/selection.h"

namespace tdc::conformance {
namespace {

struct Options {
  std::string case_id, library, cases = TDC_DEFAULT_CASES, core_set = "conformance/core-set.txt";
  std::string caselist, shard, json, junit, expectations;
  std::string out = "tdconform-out", python = ".venv/bin/python";
  std::vector<std::string> filters, excludes;
  bool list = false, strict = false, update_expectations = false, vs_torch = false;
  int jobs = 1, max_timeouts = 3, fuzz = 0;
  uint64_t seed = 1;
  double timeout = 60;
  std::string generated_dir() const { return out + "/generated"; }
  std::string failures_dir() const { return out + "/failures"; }
};

// Writes the generated programs `ids` name (generated.h); the verdicts known before running,
// or nullopt after printing why nothing could be written.
std::optional<std::map<std::string, Verdict>> Prepare(const Options& o,
                                                      const std::vector<std::string>& ids) {
  const bool by_torch =
      std::ranges::any_of(ids, [](const std::string& id) { return id.starts_with("fuzz:torch:"); });
  if (by_torch && std::filesystem::path(o.out).is_absolute()) {
    // The oracle names a program by its path in the repository (fixtures/SCHEMA.md, meta.fixture).
    fmt::print(stderr,
               "tdconform: error: --vs-torch: --out {} must lie inside the repository ({})\n",
               o.out, std::filesystem::current_path().string());
    return std::nullopt;
  }
  auto prepared = PrepareGenerated(ids, {o.generated_dir(), o.python});
  if (auto* error = std::get_if<std::string>(&prepared)) {
    fmt::print(stderr, "{}\n", *error);
    return std::nullopt;
  }
  return std::get<0>(std::move(prepared));
}

// Keeps (or removes) the case's failure folder; the line naming it, if kept.
std::string KeepFolder(const Options& o, const CaseResult& result) {
  if (auto error = UpdateFailureFolder(o.failures_dir(), o.generated_dir(), result,
                                       ReproCommand(result.id, o.library))) {
    return *error + "\n";
  }
  return KeepsFolder(result) ? fmt::format("  details: {}/{}/\n", o.failures_dir(), result.id) : "";
}

// A list file's ids, or nullopt after printing its error.
std::optional<std::vector<std::string>> ReadIds(const std::string& path) {
  auto ids = ReadCaseList(path);
  if (auto* error = std::get_if<std::string>(&ids)) {
    fmt::print(stderr, "{}\n", *error);
    return std::nullopt;
  }
  return std::get<std::vector<std::string>>(std::move(ids));
}

int RunOne(const Options& o, const std::set<std::string>& core) {
  auto spec = ResolveCase(o.case_id, o.generated_dir());
  if (auto* error = std::get_if<std::string>(&spec)) {
    fmt::print(stderr, "tdconform: error: --case {}: {}\n", o.case_id, *error);
    return 2;
  }
  CaseResult result{o.case_id, {}, {}};
  std::optional<std::map<std::string, Verdict>> decided = Prepare(o, {o.case_id});
  if (!decided) return 2;
  auto loaded = LoadBackend(o.library);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    result.verdict = LoadVerdict(*failure);
  } else if (decided->contains(o.case_id)) {
    result.verdict = decided->at(o.case_id);
  } else {
    result.verdict = RunCase(*std::get<0>(loaded), std::get<CaseSpec>(spec),
                             {o.timeout, core.contains(o.case_id)}, &result.records);
  }
  fmt::print("{}: {}\n", o.case_id, FormatVerdict(result.verdict));
  const std::string folder = KeepFolder(o, result);
  if (result.verdict.status == CaseStatus::kPass) return 0;
  fmt::print("repro: {}\n{}", ReproCommand(o.case_id, o.library), folder);
  return CountsAs(result.verdict.status) == Counts::kSkipped ? 0 : 1;
}

int RunSuite(const Options& o, const std::set<std::string>& core) {
  std::optional<std::vector<std::string>> suite = ReadIds(o.cases);
  if (!suite) return 2;
  const std::vector<std::string> generated = GeneratedCaseIds({o.fuzz, o.seed, o.vs_torch});
  suite->insert(suite->end(), generated.begin(), generated.end());
  Selection selection{o.filters, o.excludes, std::nullopt,
                      ShardFromEnvironment().value_or(Shard{})};
  if (!o.caselist.empty()) {
    selection.caselist = ReadIds(o.caselist);
    if (!selection.caselist) return 2;
  }
  if (!o.shard.empty()) {
    auto shard = ParseShard(o.shard);
    if (auto* error = std::get_if<std::string>(&shard)) {
      fmt::print(stderr, "tdconform: error: --shard: {}\n", *error);
      return 2;
    }
    selection.shard = std::get<Shard>(shard);
  }
  const std::vector<std::string> ids = Select(*suite, selection);
  if (o.list) {
    for (const std::string& id : ids) fmt::print("{}\n", id);
    return 0;
  }
  auto loaded = LoadBackend(o.library);
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    // No case runs (DESIGN.md D7): the library is not a backend of this ABI.
    fmt::print("{}: {}\n", o.library, FormatVerdict(LoadVerdict(*failure)));
    fmt::print("{}\n", ClosingLine({0, 1, 0}));
    return 1;
  }
  std::vector<Expectation> expectations;
  // --update-expectations may create the file; otherwise it must be there.
  const bool creating = o.update_expectations && !std::filesystem::exists(o.expectations);
  if (!o.expectations.empty() && !creating) {
    auto read = ReadExpectations(o.expectations);
    if (auto* error = std::get_if<std::string>(&read)) {
      fmt::print(stderr, "{}\n", *error);
      return 2;
    }
    expectations = std::get<std::vector<Expectation>>(std::move(read));
  }
  if (o.fuzz > 0) {
    fmt::print("generated: {} programs, seeds {} to {} (expected outcome from {})\n", o.fuzz,
               o.seed, o.seed + static_cast<uint64_t>(o.fuzz) - 1,
               o.vs_torch ? "torch 2.13.0" : "the reference");
  }
  std::optional<std::map<std::string, Verdict>> decided = Prepare(o, ids);
  if (!decided) return 2;
  const LoadedBackend& backend = *std::get<0>(loaded);
  const bool terminal = isatty(fileno(stderr)) != 0;
  RunnerOptions options{o.jobs, o.timeout,         o.max_timeouts,
                        core,   o.generated_dir(), std::move(*decided)};
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
  int status = 0;
  // Expectations apply to the run as a whole; the verdicts printed above are the raw ones.
  const std::string today = Today();
  const std::vector<Expectation> stale = ApplyExpectations(expectations, today, results);
  for (const Expectation& e : stale) {
    fmt::print("{}:{}: stale expectation: {} {} matched no case ending that way\n", o.expectations,
               e.line, e.pattern, StatusName(e.status));
  }
  if (o.update_expectations) {
    if (auto error =
            WriteAtomically(o.expectations, WriteExpectations(expectations, today, results))) {
      fmt::print(stderr, "{}\n", *error);
      status = 2;
    }
  }
  Tally tally = Count(results, o.strict);
  if (o.strict) tally.failed += static_cast<int>(stale.size());
  if (!o.json.empty()) {
    if (auto error = WriteAtomically(
            o.json, JsonReport(backend.info(), o.library, results, tally).dump(1) + "\n")) {
      fmt::print(stderr, "{}\n", *error);
      status = 2;
    }
  }
  if (!o.junit.empty()) {
    if (auto error =
            WriteAtomically(o.junit, JunitReport(backend.info(), o.library, results, o.strict))) {
      fmt::print(stderr, "{}\n", *error);
      status = 2;
    }
  }
  fmt::print("{}\n", ClosingLine(tally));
  return status != 0 ? status : (Succeeded(tally) ? 0 : 1);
}

}  // namespace
}  // namespace tdc::conformance

namespace {

// An installed tdconform's data, beside it (<prefix>/share/tdconform: fixtures/, cases.txt,
// core-set.txt); empty in the build tree, which runs from the repository root.
std::filesystem::path InstalledData() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::canonical("/proc/self/exe", error);
  if (error) return {};
  const std::filesystem::path data = exe.parent_path().parent_path() / "share" / "tdconform";
  return std::filesystem::exists(data / "cases.txt") ? data : std::filesystem::path();
}

// Cases name their fixtures relative to the data: the paths the user gave are made absolute
// before tdconform works from there.
void WorkFrom(const std::filesystem::path& data, tdc::conformance::Options& o) {
  for (std::string* path : {&o.library, &o.caselist, &o.json, &o.junit, &o.expectations, &o.cases,
                            &o.core_set, &o.out, &o.python}) {
    if (!path->empty()) *path = std::filesystem::absolute(*path).string();
  }
  std::filesystem::current_path(data);
}

}  // namespace

int main(int argc, char** argv) {
  tdc::conformance::Options o;
  const std::filesystem::path data = InstalledData();
  if (!data.empty()) {
    o.cases = (data / "cases.txt").string();
    o.core_set = (data / "core-set.txt").string();
  }
  CLI::App app{"tdconform: conformance of a compiler backend loaded through the tdconform C ABI"};
  app.add_option("--backend", o.library, "the backend's shared library");
  app.add_option("--case", o.case_id,
                 "run this case alone: fixtures:<group>:<name>:profile=<p>:level=<dynamo|aten>");
  app.add_option("--filter", o.filters, "run the cases matching this glob (* and ?; repeatable)");
  app.add_option("--exclude", o.excludes, "leave out the cases matching this glob (repeatable)");
  app.add_option("--caselist", o.caselist, "run only the ids this file lists, one a line");
  app.add_flag("--list", o.list, "print the selected case ids and run nothing");
  app.add_option("--jobs", o.jobs, "cases run at a time (default 1)")->check(CLI::PositiveNumber);
  app.add_option("--shard", o.shard,
                 "run shard i of n (i/n; GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS otherwise)");
  app.add_option("--timeout", o.timeout, "seconds a case may take (default 60)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-timeouts", o.max_timeouts,
                 "after this many TIMEOUTs in a row the rest is SKIPPED (default 3; 0: never)");
  app.add_option("--json", o.json, "write the report as JSON (tdconform-report/1)");
  app.add_option("--junit", o.junit, "write the report as JUnit XML");
  app.add_option("--expectations", o.expectations,
                 "the failures accepted for now (conformance/runner/expectations.h)");
  app.add_flag("--strict", o.strict, "an XPASS or a stale expectation fails the run");
  app.add_flag("--update-expectations", o.update_expectations,
               "rewrite --expectations FILE to accept this run's non-PASS results");
  app.add_option("--fuzz", o.fuzz, "also run N generated programs (fuzz:<expected>:seed_<n>:...)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--seed", o.seed,
                 "the first generated program's seed (program i uses seed + i; default 1)");
  app.add_flag("--vs-torch", o.vs_torch,
               "generated programs' expected outcome recorded from torch 2.13.0 by the oracle "
               "(needs --python)");
  app.add_option("--python", o.python,
                 "the Python with torch 2.13.0 that runs the oracle (default .venv/bin/python)");
  app.add_option("--out", o.out,
                 "where failure folders and generated programs go (default tdconform-out)");
  app.add_option("--cases", o.cases, "the suite's case ids, one a line (default: the build's)");
  app.add_option("--core-set", o.core_set,
                 "the must-pass case list (default conformance/core-set.txt)");
  CLI11_PARSE(app, argc, argv);
  if (o.update_expectations && o.expectations.empty()) {
    fmt::print(stderr, "tdconform: error: --update-expectations needs --expectations FILE\n");
    return 2;
  }
  if (o.library.empty() && !o.list) {
    fmt::print(stderr, "tdconform: error: --backend is required (except with --list)\n");
    return 2;
  }
  if (!data.empty()) WorkFrom(data, o);
  // Programs under the working directory are named relative to it, as the oracle names them
  // in what torch prints (a graph break's "Skipping frame f2 (<path> line 151)").
  if (const auto inside =
          std::filesystem::absolute(o.out).lexically_relative(std::filesystem::current_path());
      !inside.empty() && *inside.begin() != "..") {
    o.out = inside.string();
  }
  std::set<std::string> core;
  if (auto ids = tdc::conformance::ReadCaseList(o.core_set);
      std::holds_alternative<std::vector<std::string>>(ids)) {
    const auto& list = std::get<std::vector<std::string>>(ids);
    core.insert(list.begin(), list.end());
  }
  return o.case_id.empty() ? tdc::conformance::RunSuite(o, core)
                           : tdc::conformance::RunOne(o, core);
}
