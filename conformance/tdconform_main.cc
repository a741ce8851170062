// tdconform: conformance of a compiler backend loaded through the tdconform C ABI
// (conformance/abi/tdconform_backend.h). `--case ID` runs one case and prints its verdict;
// otherwise every selected case of the suite runs (conformance/runner/suite.h). This file only
// reads the command line and finds the suite's data.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "conformance/runner/suite.h"

namespace {

constexpr int kMaxJobs = 1024;
constexpr double kMaxTimeout = 7 * 24 * 3600;  // a week

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
void WorkFrom(const std::filesystem::path& data, tdc::conformance::SuiteOptions& o) {
  for (std::string* path : {&o.library, &o.caselist, &o.json, &o.junit, &o.timings, &o.expectations,
                            &o.cases, &o.core_set, &o.out, &o.python}) {
    if (!path->empty()) *path = std::filesystem::absolute(*path).string();
  }
  std::filesystem::current_path(data);
}

}  // namespace

int main(int argc, char** argv) {
  tdc::conformance::SuiteOptions o;
  o.cases = TDC_DEFAULT_CASES;
  const std::filesystem::path data = InstalledData();
  if (!data.empty()) {
    o.cases = (data / "cases.txt").string();
    o.core_set = (data / "core-set.txt").string();
  }
  CLI::App app{"tdconform: conformance of a compiler backend loaded through the tdconform C ABI"};
  app.add_option("--backend", o.library, "the backend's shared library");
  app.add_option("--case", o.case_id,
                 "run this case alone: fixtures:<group>:<name>:profile=<p>:level=<dynamo|aten>, "
                 "or torch:<group>:<name>:profile=<p>");
  app.add_option("--engine", o.engine,
                 "what runs the suite's programs: reference (default; the backend gets the "
                 "reference's graphs at each level it declares), or torch (real torch.compile "
                 "with a py:MODULE:ATTR backend; cases torch:<group>:<name>:profile=<p>)")
      ->check(CLI::IsMember({"reference", "torch"}));
  app.add_option("--filter", o.filters, "run the cases matching this glob (* and ?; repeatable)");
  app.add_option("--exclude", o.excludes, "leave out the cases matching this glob (repeatable)");
  app.add_option("--caselist", o.caselist, "run only the ids this file lists, one a line");
  app.add_flag("--list", o.list, "print the selected case ids and run nothing");
  app.add_option("--jobs", o.jobs, "cases run at a time (default 1)")
      ->check(CLI::Range(1, kMaxJobs));
  app.add_option("--shard", o.shard,
                 "run shard i of n (i/n; GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS otherwise)");
  app.add_option("--timeout", o.timeout,
                 "seconds a case, and loading the backend, may take (default 60)")
      ->check(CLI::Validator(
          [](std::string& text) {
            // Not nan, not inf: a deadline past the clock's range is no deadline.
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0 ||
                value > kMaxTimeout)
              return fmt::format("a number of seconds above 0, at most {}", kMaxTimeout);
            return std::string();
          },
          "SECONDS"));
  app.add_option_function<std::string>(
         "--tolerance",
         [&o](const std::string& text) {
           o.tolerance = std::get<tdc::gpu::Policy>(tdc::gpu::ParsePolicy(text));
         },
         "what each graph's outputs are held to: torch-default (default), dynamo-same, cosine, "
         "ulp N (gpu/parity/policy.h)")
      ->check(CLI::Validator(
          [](std::string& text) {
            auto parsed = tdc::gpu::ParsePolicy(text);
            auto* why = std::get_if<std::string>(&parsed);
            return why ? *why : std::string();
          },
          "POLICY"));
  app.add_option("--max-timeouts", o.max_timeouts,
                 "after this many TIMEOUTs in a row the rest is SKIPPED (default 3; 0: never)");
  app.add_option("--json", o.json, "write the report as JSON (tdconform-report/1)");
  app.add_option("--junit", o.junit, "write the report as JUnit XML");
  app.add_option("--timings", o.timings,
                 "write each case's wall-clock seconds as JSON (tdconform-timings/1; the reports "
                 "hold no times, so that one run's reports are another's byte for byte)");
  app.add_option("--expectations", o.expectations,
                 "the failures accepted for now (conformance/runner/expectations.h)");
  app.add_flag("--strict", o.strict, "an XPASS or a stale expectation fails the run");
  app.add_flag("--update-expectations", o.update_expectations,
               "rewrite --expectations FILE to accept this run's non-PASS results");
  app.add_option("--fuzz", o.fuzz, "also run N generated programs (fuzz:<expected>:seed_<n>:...)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--seed", o.seed,
                 "the first generated program's seed (program i uses seed + i; default 1)");
  app.add_option("--shrink", o.shrink,
                 "shrink this many generated cases the backend fails into their failure folders "
                 "(shrunk.py; default 3)")
      ->check(CLI::NonNegativeNumber);
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
    return static_cast<int>(tdc::conformance::SuiteStatus::kError);
  }
  if (o.library.empty() && !o.list) {
    fmt::print(stderr, "tdconform: error: --backend is required (except with --list)\n");
    return static_cast<int>(tdc::conformance::SuiteStatus::kError);
  }
  if (o.engine == "torch" && !o.library.starts_with("py:") && !o.list) {
    fmt::print(stderr,
               "tdconform: error: --engine torch runs a torch.compile backend callable: "
               "--backend py:MODULE:ATTR\n");
    return static_cast<int>(tdc::conformance::SuiteStatus::kError);
  }
  if (o.engine == "torch" && o.fuzz > 0) {
    fmt::print(stderr, "tdconform: error: --fuzz runs on the reference engine only\n");
    return static_cast<int>(tdc::conformance::SuiteStatus::kError);
  }
  if (!data.empty()) WorkFrom(data, o);
  // Programs under the working directory are named relative to it, as the oracle names them
  // in what torch prints (a graph break's "Skipping frame f2 (<path> line 151)").
  if (const auto inside =
          std::filesystem::absolute(o.out).lexically_relative(std::filesystem::current_path());
      !inside.empty() && *inside.begin() != "..") {
    o.out = inside.string();
  }
  try {
    return static_cast<int>(tdc::conformance::RunSuite(o));
  } catch (const std::exception& error) {
    // The run's steps give their errors back as values; this is the last line against a
    // library call that throws (std::filesystem, fmt's writes), said instead of an abort.
    fmt::print(stderr, "tdconform: internal error: {}\n", error.what());
    return static_cast<int>(tdc::conformance::SuiteStatus::kError);
  }
}
