// The runner: selection (globs, case lists, shards), running cases in order whatever the
// jobs, giving up on an unresponsive backend, the closing line, and reports that are the
// same bytes for the same results and replace their file whole.
#include "conformance/runner/runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "conformance/executor/bundled_backends_testing.h"
#include "conformance/runner/expectations.h"
#include "conformance/runner/report.h"
#include "conformance/runner/run_temp_dir.h"
#include "conformance/runner/selection.h"

namespace tdc::conformance {
namespace {

using testing::LoadBundled;

// TMPDIR at the directory above the suite (as /tmp is above a checkout under /tmp): the run
// makes a directory of its own in --out, points TMPDIR there while it lasts, and removes it
// (and only it: a `tmp` beside it stays) at its end, TMPDIR as it was; TMPDIR beside the
// suite: nothing made, nothing changed.
TEST(RunTempDirTest, MadeOnlyWhereTheGuardWouldKeepCasesOutOfTheTemporaryDirectory) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "run_temp_dir";
  fs::remove_all(root);
  const fs::path suite = root / "checkout", beside = root / "elsewhere", out = root / "out";
  fs::create_directories(suite / "fixtures");
  fs::create_directories(beside);
  fs::create_directories(out / "tmp");  // the user's, not the run's
  const std::vector<std::string> paths = {(suite / "fixtures").string()};
  const char* before = std::getenv("TMPDIR");
  const std::string tmpdir_before = before ? before : "";
  setenv("TMPDIR", suite.c_str(), 1);
  std::string made;
  {
    RunTempDir temp;
    EXPECT_EQ(temp.MakeIfGuarded(out.string(), paths), std::nullopt);
    made = temp.made();
    EXPECT_EQ(fs::path(made).parent_path(), fs::absolute(out));
    EXPECT_TRUE(fs::path(made).filename().string().starts_with("cases-tmp."));
    EXPECT_TRUE(fs::is_directory(made));
    EXPECT_EQ(std::string(std::getenv("TMPDIR")), made);
  }
  EXPECT_FALSE(fs::exists(made));
  EXPECT_TRUE(fs::is_directory(out / "tmp"));
  EXPECT_EQ(std::string(std::getenv("TMPDIR")), suite.string());
  setenv("TMPDIR", beside.c_str(), 1);
  {
    RunTempDir temp;
    EXPECT_EQ(temp.MakeIfGuarded(out.string(), paths), std::nullopt);
    EXPECT_EQ(temp.made(), "");
    EXPECT_EQ(std::string(std::getenv("TMPDIR")), beside.string());
  }
  if (before) {
    setenv("TMPDIR", tmpdir_before.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
}

TEST(SelectionTest, GlobsMatchTheWholeId) {
  EXPECT_TRUE(GlobMatch("fixtures:seed:*", "fixtures:seed:example5:profile=torch-2.13:level=aten"));
  EXPECT_TRUE(GlobMatch("*:level=aten", "fixtures:seed:example5:profile=torch-2.13:level=aten"));
  EXPECT_FALSE(GlobMatch("*:level=aten", "fixtures:seed:example5:profile=torch-2.13:level=dynamo"));
  EXPECT_TRUE(GlobMatch("fixtures:s??d:*", "fixtures:seed:x"));
  EXPECT_FALSE(GlobMatch("fixtures:seed", "fixtures:seed:x"));  // anchored at both ends
  EXPECT_TRUE(GlobMatch("*a*b*", "xxaxxbxx"));
  EXPECT_FALSE(GlobMatch("*a*b", "xxaxxbxx"));
  // A `*` is a wildcard even where the id has a `*` (tdc_caselist_fuzzer: `*` matched `*x` no
  // more once it had matched the id's `*` as a byte).
  EXPECT_TRUE(GlobMatch("*", "*x"));
  EXPECT_TRUE(GlobMatch("a*", "a*b"));
}

TEST(SelectionTest, FiltersExcludesAndCaseListsNarrowTheSuite) {
  const std::vector<std::string> suite = {"s:g:a:level=dynamo", "s:g:a:level=aten",
                                          "s:h:b:level=dynamo", "s:h:b:level=aten"};
  Selection filter;
  filter.filters = {"s:g:*", "*:b:level=aten"};
  EXPECT_EQ(Select(suite, filter), (std::vector<std::string>{suite[0], suite[1], suite[3]}));
  Selection exclude;
  exclude.excludes = {"*:level=aten"};
  EXPECT_EQ(Select(suite, exclude), (std::vector<std::string>{suite[0], suite[2]}));
  Selection listed;
  listed.caselist = std::vector<std::string>{suite[2], "s:z:not_in_the_suite"};
  EXPECT_EQ(Select(suite, listed), (std::vector<std::string>{suite[2]}));
}

TEST(SelectionTest, TheShardsOfOneCountPartitionTheSelection) {
  std::vector<std::string> suite;
  for (int i = 0; i < 23; ++i) suite.push_back(fmt::format("s:g:c{}", i));
  std::multiset<std::string> seen;
  for (int i = 0; i < 4; ++i) {
    Selection s;
    s.shard = std::get<Shard>(ParseShard(fmt::format("{}/4", i)));
    for (const std::string& id : Select(suite, s)) seen.insert(id);
  }
  EXPECT_EQ(seen, std::multiset<std::string>(suite.begin(), suite.end()));
  EXPECT_EQ(std::get<std::string>(ParseShard("4/4")), "shard '4/4' is not i/n with 0 <= i < n");
  EXPECT_TRUE(std::holds_alternative<std::string>(ParseShard("1")));
}

TEST(SelectionTest, ABadCaseListLineIsLocated) {
  const std::string path = ::testing::TempDir() + "/bad_caselist.txt";
  std::ofstream(path) << "# comment\nfixtures:seed:x:profile=torch-2.13:level=aten\nnot an id\n";
  auto read = ReadCaseList(path);
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_TRUE(std::get<std::string>(read).starts_with(path + ":3:1: error: "))
      << std::get<std::string>(read);
}

// Template cases: two passing, one NOT_SUPPORTED (a reduction), in a fixed order.
const std::vector<std::string> kCases = {
    "fixtures:seed:example5_graph_break:profile=torch-2.13:level=dynamo",
    "fixtures:disable:s18_partial_disable:profile=torch-2.13:level=aten",
    "fixtures:probes:sum:profile=torch-2.13:level=dynamo",
};

TEST(RunnerTest, ResultsAndReportsAreTheSameWhateverTheJobs) {
  auto backend = LoadBundled("template");
  ASSERT_TRUE(backend);
  RunnerOptions one;
  RunnerOptions three;
  three.jobs = 3;
  std::vector<CaseResult> a = RunCases(*backend, kCases, one, nullptr);
  std::vector<CaseResult> b = RunCases(*backend, kCases, three, nullptr);
  ASSERT_EQ(a.size(), kCases.size());
  for (size_t i = 0; i < kCases.size(); ++i) EXPECT_EQ(a[i].id, kCases[i]);
  EXPECT_EQ(StatusName(a[0].verdict.status), "PASS");
  EXPECT_EQ(StatusName(a[2].verdict.status), "NOT_SUPPORTED") << FormatVerdict(a[2].verdict);
  const std::string library = "libtdc_backend_template.so";
  EXPECT_EQ(JsonReport(backend->info(), library, a, Count(a)).dump(1),
            JsonReport(backend->info(), library, b, Count(b)).dump(1));
  EXPECT_EQ(JunitReport(backend->info(), library, a, false),
            JunitReport(backend->info(), library, b, false));
  EXPECT_EQ(ClosingLine(Count(a)), "2 passed, 0 failed, 1 skipped");
  EXPECT_TRUE(Succeeded(Count(a)));
}

TEST(RunnerTest, AnUnresponsiveBackendsRemainingCasesAreSkipped) {
  auto backend = LoadBundled("broken_hang_on_sin");
  ASSERT_TRUE(backend);
  // The first two cases trace sin: they time out; the third, with no sin, is not run.
  const std::vector<std::string> ids = {
      "fixtures:compile_switches:s14_compile_disable_false_cache_hit:profile=torch-2.13:level="
      "dynamo",
      "fixtures:compile_switches:s14_compile_disable_false_cache_hit:profile=torch-2.13:level=aten",
      "fixtures:disable:s18_partial_disable:profile=torch-2.13:level=aten",
  };
  RunnerOptions options;
  options.timeout_seconds = 1;
  options.max_timeouts = 2;
  std::vector<CaseResult> results = RunCases(*backend, ids, options, nullptr);
  ASSERT_EQ(results.size(), 3U);
  EXPECT_EQ(StatusName(results[0].verdict.status), "TIMEOUT");
  EXPECT_EQ(StatusName(results[1].verdict.status), "TIMEOUT");
  EXPECT_EQ(StatusName(results[2].verdict.status), "SKIPPED");
  EXPECT_EQ(results[2].verdict.reason, "backend_unresponsive");
  EXPECT_EQ(ClosingLine(Count(results)), "0 passed, 2 failed, 1 skipped");
  EXPECT_FALSE(Succeeded(Count(results)));
}

TEST(RunnerTest, AVerdictThatArrivedIsFinal) {
  // The backend forks a helper that keeps each case's pipe open: both cases still pass
  // (they were TIMEOUTs, and then the rest SKIPPED).
  auto backend = LoadBundled("broken_forks_keeping_pipe");
  ASSERT_TRUE(backend);
  RunnerOptions options;
  options.jobs = 2;
  options.timeout_seconds = 20;
  options.max_timeouts = 1;
  std::vector<CaseResult> results = RunCases(*backend, {kCases[0], kCases[1]}, options, nullptr);
  ASSERT_EQ(results.size(), 2U);
  for (const CaseResult& r : results) EXPECT_EQ(StatusName(r.verdict.status), "PASS") << r.id;
}

TEST(RunnerTest, AStoppedRunGivesBackOnlyTheCasesThatFinished) {
  auto backend = LoadBundled("broken_hang_on_sin");
  ASSERT_TRUE(backend);
  int stop[2];
  ASSERT_EQ(pipe(stop), 0);
  ASSERT_EQ(write(stop[1], "x", 1), 1);  // stopped from the start
  RunnerOptions options;
  options.timeout_seconds = 60;
  options.stop_fd = stop[0];
  const auto started = std::chrono::steady_clock::now();
  std::vector<CaseResult> results = RunCases(
      *backend,
      {"fixtures:compile_switches:s14_compile_disable_false_cache_hit:profile=torch-2.13:level="
       "dynamo"},
      options, nullptr);
  EXPECT_TRUE(results.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
  close(stop[0]);
  close(stop[1]);
}

TEST(RunnerTest, ARunWithNoPassIsNoSuccess) {
  EXPECT_FALSE(Succeeded({0, 0, 5}));
  EXPECT_TRUE(Succeeded({1, 0, 5}));
  EXPECT_FALSE(Succeeded({9, 1, 0}));
}

TEST(ReportTest, AReportReplacesItsFileWholeOrNotAtAll) {
  const std::string path = ::testing::TempDir() + "/report.json";
  ASSERT_FALSE(WriteAtomically(path, "old\n"));
  ASSERT_FALSE(WriteAtomically(path, "new\n"));
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "new\n");
  std::optional<std::string> error =
      WriteAtomically(::testing::TempDir() + "/no/such/dir/report.json", "x");
  ASSERT_TRUE(error);
  EXPECT_NE(error->find(":1:1: error: cannot write the report"), std::string::npos);
}

TEST(ReportTest, ARunNotCompleteNeverSucceedsAndJunitShowsIt) {
  std::vector<CaseResult> results = {{"s:g:a", Verdict::Pass()}};
  const tdc_backend_info info{sizeof(tdc_backend_info), "b", "1", "v", nullptr};
  nlohmann::ordered_json json =
      JsonReport(info, "lib.so", results, Count(results), {RunState::kInterrupted, "SIGINT"});
  EXPECT_EQ(json["state"], "interrupted");
  EXPECT_EQ(json["detail"], "SIGINT");
  EXPECT_EQ(json["summary"]["succeeded"], false);
  EXPECT_EQ(JsonReport(info, "lib.so", results, Count(results))["summary"]["succeeded"], true);
  const std::string junit =
      JunitReport(info, "lib.so", results, false, {RunState::kRunning, "not finished"});
  EXPECT_NE(junit.find("name=\"tdconform:run\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("errors=\"1\""), std::string::npos) << junit;
}

TEST(ReportTest, BackendStringsInReportsAreUtf8AndXmlLegal) {
  std::vector<CaseResult> results = {
      {"s:g:a", Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, "r", "\x1b[31mred\xff\x01")}};
  const tdc_backend_info info{sizeof(tdc_backend_info), "n\xfe", "\x1b", nullptr, nullptr};
  const std::string junit = JunitReport(info, "/lib\xff.so", results, false);
  for (unsigned char c : junit)
    EXPECT_TRUE(c >= 0x20 || c == '\n' || c == '\t' || c == '\r') << int(c);
  EXPECT_EQ(junit.find('\xff'), std::string::npos);
  EXPECT_EQ(junit.find('\xfe'), std::string::npos);
  // nlohmann's dump throws on invalid UTF-8: the report's strings are valid.
  const std::string json = JsonReport(info, "/lib\xff.so", results, Count(results)).dump();
  EXPECT_NE(json.find("\\\\x1b[31mred\xEF\xBF\xBD\\\\x01"), std::string::npos) << json;
}

TEST(ReportTest, TheReproCommandIsShellQuoted) {
  EXPECT_EQ(ReproCommand("s:g:it's", "/a b/lib.so"),
            "tdconform --case 's:g:it'\\''s' --backend '/a b/lib.so'");
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ExpectationsTest, EntriesNeedAStatusAndAReasonAndErrorsAreLocated) {
  auto good = ReadExpectations(WriteTemp(
      "good.txt", "# comment\n\ns:g:* FAIL expires=2027-01-31 pytorch#123\ns:h:x CRASH a b  \n"));
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(good))
      << std::get<std::string>(good);
  const auto& entries = std::get<std::vector<Expectation>>(good);
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].expires, "2027-01-31");
  EXPECT_EQ(entries[0].reason, "pytorch#123");
  EXPECT_EQ(entries[0].line, 3);
  EXPECT_EQ(entries[1].reason, "a b");
  const std::string no_reason = WriteTemp("no_reason.txt", "s:g:* FAIL\n");
  EXPECT_EQ(std::get<std::string>(ReadExpectations(no_reason)),
            no_reason + ":1:11: error: an expectation needs a reason");
  const std::string pass = WriteTemp("pass.txt", "s:g:*   PASS why\n");
  EXPECT_EQ(std::get<std::string>(ReadExpectations(pass)),
            pass + ":1:9: error: 'PASS' is not a status a case can be expected to end in");
  const std::string date = WriteTemp("date.txt", "s:g:* FAIL expires=2027-13-01 why\n");
  EXPECT_EQ(std::get<std::string>(ReadExpectations(date)),
            date + ":1:20: error: '2027-13-01' is not a date YYYY-MM-DD");
}

TEST(ExpectationsTest, ExpectedResultsAreXfailPassesXpassAndUnusedEntriesStale) {
  auto verdict = [](CaseStatus s) { return Verdict::Of(s, CasePhase::kCompare, "r", "m"); };
  std::vector<CaseResult> results = {{"s:g:a", verdict(CaseStatus::kFail)},
                                     {"s:g:b", Verdict::Pass()},
                                     {"s:g:c", verdict(CaseStatus::kCrash)},
                                     {"s:g:d", verdict(CaseStatus::kNotSupported)}};
  auto read = ReadExpectations(WriteTemp("apply.txt",
                                         "s:g:a FAIL known\n"
                                         "s:g:b FAIL fixed since\n"
                                         "s:g:c FAIL crashes now\n"
                                         "s:z:* FAIL matches nothing\n"
                                         "s:g:d NOT_SUPPORTED expires=2020-01-01 expired\n"));
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(read));
  const auto& expectations = std::get<std::vector<Expectation>>(read);
  std::vector<Expectation> stale = ApplyExpectations(expectations, "2026-11-30", results);
  EXPECT_EQ(StatusName(results[0].verdict.status), "XFAIL");
  EXPECT_EQ(StatusName(results[1].verdict.status), "XPASS");
  EXPECT_EQ(StatusName(results[2].verdict.status), "CRASH");          // another failure stays one
  EXPECT_EQ(StatusName(results[3].verdict.status), "NOT_SUPPORTED");  // its entry expired
  ASSERT_EQ(stale.size(), 3U);
  EXPECT_EQ(stale[0].pattern, "s:g:b");
  EXPECT_EQ(stale[1].pattern, "s:z:*");
  EXPECT_EQ(stale[2].pattern, "s:g:d");
  EXPECT_EQ(ClosingLine(Count(results)), "1 passed, 1 failed, 2 skipped");
  EXPECT_EQ(ClosingLine(Count(results, /*strict=*/true)), "0 passed, 2 failed, 2 skipped");
  // The rewritten file accepts the run as it is, keeping the reasons of unexpired entries.
  EXPECT_EQ(WriteExpectations(expectations, "2026-11-30", results),
            "# tdconform expectations (conformance/runner/expectations.h), written by "
            "--update-expectations.\n"
            "s:g:a FAIL known\n"
            "s:g:c CRASH crashes now\n"
            "s:g:d NOT_SUPPORTED NOT_SUPPORTED compare/r: m\n");
}

TEST(ExpectationsTest, DatesAreDaysOfTheCalendarAndReasonsAreBounded) {
  const std::string feb30 = WriteTemp("feb30.txt", "s:g:* FAIL expires=2026-02-30 why\n");
  EXPECT_EQ(std::get<std::string>(ReadExpectations(feb30)),
            feb30 + ":1:20: error: '2026-02-30' is not a date YYYY-MM-DD");
  EXPECT_TRUE(std::holds_alternative<std::vector<Expectation>>(
      ReadExpectations(WriteTemp("leap.txt", "s:g:* FAIL expires=2028-02-29 why\n"))));
  EXPECT_TRUE(std::holds_alternative<std::string>(
      ReadExpectations(WriteTemp("noleap.txt", "s:g:* FAIL expires=2100-02-29 why\n"))));
  const std::string long_reason =
      WriteTemp("long.txt", "s:g:* FAIL " + std::string(kMaxReason + 1, 'r') + "\n");
  EXPECT_EQ(std::get<std::string>(ReadExpectations(long_reason)),
            long_reason + ":1:12: error: a reason of 4097 bytes (at most 4096)");
}

TEST(ExpectationsTest, FilesAndTheirTextReadAlike) {
  const std::string expectations = "\xEF\xBB\xBF# c\ns:g:* FAIL expires=2027-01-31 why\ns:h:x\n";
  const std::string path = WriteTemp("text.txt", expectations);
  EXPECT_EQ(std::get<std::string>(ReadExpectations(path)),
            std::get<std::string>(ExpectationsFromText(expectations, path)));
  const std::string good = WriteTemp("text_good.txt", "s:g:* FAIL expires=2027-01-31 why\n");
  auto from_file = ReadExpectations(good);
  auto from_text = ExpectationsFromText("s:g:* FAIL expires=2027-01-31 why\n", good);
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(from_file));
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(from_text));
  ASSERT_EQ(std::get<std::vector<Expectation>>(from_file).size(), 1U);
  ASSERT_EQ(std::get<std::vector<Expectation>>(from_text).size(), 1U);
  EXPECT_EQ(std::get<std::vector<Expectation>>(from_file)[0].reason,
            std::get<std::vector<Expectation>>(from_text)[0].reason);
  const std::string cases = "\xEF\xBB\xBF# c\ns:g:a\n\ns:g:b";
  EXPECT_EQ(std::get<std::vector<std::string>>(ReadCaseList(WriteTemp("text_cases.txt", cases))),
            std::get<std::vector<std::string>>(CaseListFromText(cases, "text_cases.txt")));
  const std::string bad = WriteTemp("text_bad_cases.txt", "s:g:a\nnot an id\n");
  EXPECT_EQ(std::get<std::string>(ReadCaseList(bad)),
            std::get<std::string>(CaseListFromText("s:g:a\nnot an id\n", bad)));
}

TEST(ExpectationsTest, AByteOrderMarkIsSkipped) {
  auto read = ReadExpectations(WriteTemp("bom.txt", "\xEF\xBB\xBFs:g:a FAIL known\n"));
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(read));
  ASSERT_EQ(std::get<std::vector<Expectation>>(read).size(), 1U);
  EXPECT_EQ(std::get<std::vector<Expectation>>(read)[0].pattern, "s:g:a");
  auto ids = ReadCaseList(WriteTemp("bom_cases.txt", "\xEF\xBB\xBFs:g:a\n"));
  ASSERT_TRUE(std::holds_alternative<std::vector<std::string>>(ids));
  EXPECT_EQ(std::get<std::vector<std::string>>(ids), std::vector<std::string>{"s:g:a"});
}

TEST(ExpectationsTest, APartialRunJudgesAndRewritesOnlyWhatItRan) {
  const std::vector<std::string> suite = {"s:g:a", "s:g:b", "s:h:c"};
  const std::vector<std::string> run = {"s:g:a"};  // --filter 's:g:a'
  const std::string text =
      "# accepted for now\n"
      "s:g:a FAIL known\n"
      "s:h:c CRASH not run this time\n"
      "s:g:* FAIL covers b too\n"
      "s:z:* FAIL matches no case\n";
  auto read = ReadExpectations(WriteTemp("partial.txt", text));
  ASSERT_TRUE(std::holds_alternative<std::vector<Expectation>>(read));
  const auto& expectations = std::get<std::vector<Expectation>>(read);
  std::vector<CaseResult> results = {
      {"s:g:a", Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, "r", "m")}};
  std::vector<Expectation> stale =
      StaleInThisRun(ApplyExpectations(expectations, "2026-11-30", results), suite, run);
  // s:h:c's entry is for a case not run, s:g:*'s also matches one (s:g:b): neither is stale;
  // s:z:* matches no case of the suite.
  ASSERT_EQ(stale.size(), 1U);
  EXPECT_EQ(stale[0].pattern, "s:z:*");
  // The comment and the entries for cases not run stay; s:g:a's own entry is rewritten,
  // s:z:* (no case of the suite) goes.
  EXPECT_EQ(UpdateExpectations(text, expectations, suite, run, "2026-11-30", results),
            "# accepted for now\n"
            "s:h:c CRASH not run this time\n"
            "s:g:* FAIL covers b too\n"
            "# tdconform expectations (conformance/runner/expectations.h), written by "
            "--update-expectations.\n"
            "s:g:a FAIL known\n");
}

TEST(SelectionTest, ShardVariablesAreCheckedAndUnknownListedIdsNamed) {
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
  ASSERT_TRUE(std::holds_alternative<Shard>(ShardFromEnvironment()));
  EXPECT_EQ(std::get<Shard>(ShardFromEnvironment()).count, 1);
  setenv("GTEST_TOTAL_SHARDS", "x", 1);
  setenv("GTEST_SHARD_INDEX", "0", 1);
  EXPECT_EQ(std::get<std::string>(ShardFromEnvironment()),
            "GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS=x: shard '0/x' is not i/n with 0 <= i < n");
  unsetenv("GTEST_SHARD_INDEX");
  EXPECT_TRUE(std::holds_alternative<std::string>(ShardFromEnvironment()));
  unsetenv("GTEST_TOTAL_SHARDS");
  EXPECT_EQ(FirstUnknown({"s:g:a", "s:g:b"}, {"s:g:b", "s:g:z", "s:g:y"}), "s:g:z");
  EXPECT_FALSE(FirstUnknown({"s:g:a", "s:g:b"}, {"s:g:b"}));
}

}  // namespace
}  // namespace tdc::conformance
