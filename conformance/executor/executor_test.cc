// The executor end to end, through the bundled backends: the reference backend passes
// every case, the C template passes the must-pass core set, and each deliberately broken
// backend gets the verdict DESIGN.md D7 and issue 14 require of it.
#include "conformance/executor/executor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "conformance/abi/tensors.h"
#include "conformance/executor/bundled_backends_testing.h"
#include "conformance/executor/core_set.h"
#include "conformance/executor/processes.h"
#include "conformance/executor/safe_text.h"
#include "reference/base/read_file.h"
#include "reference/base/sha256.h"

namespace tdc::conformance {
namespace {

using testing::BundledLibrary;
using testing::LoadBundled;

Verdict RunId(const LoadedBackend& backend, const std::string& id, bool required = false,
              double timeout = 30) {
  auto spec = ResolveCase(id);
  if (auto* error = std::get_if<std::string>(&spec))
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "id", *error);
  ExecutorOptions options;
  options.timeout_seconds = timeout;
  options.required = required;
  return RunCase(backend, std::get<CaseSpec>(spec), options);
}

// The lines of `path` but its comments.
std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("#")) lines.push_back(line);
  }
  return lines;
}

// Every TDC_CORE_SET_STRIDE-th case of the core set: 3 under ASan, where this test holds the
// template's C code (the same for each case) and the whole set took 160 s; 1 otherwise.
#ifndef TDC_CORE_SET_STRIDE
#define TDC_CORE_SET_STRIDE 1
#endif

TEST(ExecutorTest, TheTemplatePassesTheCoreSet) {
  auto backend = LoadBundled("template");
  ASSERT_TRUE(backend);
  std::vector<std::string> core = Lines("conformance/core-set.txt");
  EXPECT_GT(core.size(), 1000U);
  std::vector<std::string> failed;
  for (size_t i = 0; i < core.size(); i += TDC_CORE_SET_STRIDE) {
    Verdict v = RunId(*backend, core[i], /*required=*/true);
    if (v.status != CaseStatus::kPass) failed.push_back(core[i] + ": " + FormatVerdict(v));
  }
  EXPECT_TRUE(failed.empty()) << fmt::format("{}", fmt::join(failed, "\n"));
}

// Cases the broken backends run: graphs the template compiles, each with what the
// breakage needs (an add; two outputs; a custom op; sin; cos without sin).
constexpr const char* kAdd =
    "fixtures:allow_in_graph:s02_allow_then_disallow:profile=torch-2.13:level=dynamo";
constexpr const char* kTwoOutputs =
    "fixtures:disable:s18_partial_disable:profile=torch-2.13:level=dynamo";
constexpr const char* kCustomOp = "fixtures:names:custom_op:profile=torch-2.13:level=dynamo";
constexpr const char* kSin =
    "fixtures:compile_switches:s14_compile_disable_false_cache_hit:profile=torch-2.13:level=dynamo";
// A compiled graph run again on other values (a resume function's graph after a global the
// breaking callee reads changed).
constexpr const char* kRerunOnOtherValues =
    "fixtures:guards:global_read_by_a_breaking_callee:profile=torch-2.13:level=dynamo";
constexpr const char* kCosOnly =
    "fixtures:disable:disable_nested_compile_still_compiles:profile=torch-2.13:level=dynamo";

void ExpectVerdict(const Verdict& v, CaseStatus status, std::optional<CasePhase> phase,
                   const std::string& reason) {
  EXPECT_EQ(StatusName(v.status), StatusName(status)) << FormatVerdict(v);
  if (phase) {
    ASSERT_TRUE(v.phase) << FormatVerdict(v);
    EXPECT_EQ(PhaseName(*v.phase), PhaseName(*phase)) << FormatVerdict(v);
  }
  if (!reason.empty()) {
    EXPECT_EQ(v.reason, reason) << FormatVerdict(v);
  }
}

TEST(ExecutorTest, EachBrokenBackendGetsItsVerdict) {
  auto run = [](const std::string& name, const char* id, bool required = false,
                double timeout = 30) {
    auto backend = LoadBundled("broken_" + name);
    return backend ? RunId(*backend, id, required, timeout)
                   : Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "", "");
  };
  // The template itself passes each of these cases: the breakage alone changes the verdict.
  auto template_backend = LoadBundled("template");
  ASSERT_TRUE(template_backend);
  for (const char* id : {kAdd, kTwoOutputs, kCustomOp, kSin, kCosOnly, kRerunOnOtherValues}) {
    ExpectVerdict(RunId(*template_backend, id), CaseStatus::kPass, std::nullopt, "");
  }
  ExpectVerdict(run("wrong_numerics", kAdd), CaseStatus::kFail, CasePhase::kCompare,
                "value_mismatch");
  ExpectVerdict(run("ulp_drift", kAdd), CaseStatus::kPass, std::nullopt, "");
  ExpectVerdict(run("segv_in_run", kAdd), CaseStatus::kCrash, CasePhase::kBackendRun, "");
  // TIMEOUT on graphs with sin only.
  ExpectVerdict(run("hang_on_sin", kSin, false, 3), CaseStatus::kTimeout, CasePhase::kBackendRun,
                "timeout");
  ExpectVerdict(run("hang_on_sin", kCosOnly, false, 3), CaseStatus::kPass, std::nullopt, "");
  Verdict aborted = run("abort_on_custom_op", kCustomOp);
  ExpectVerdict(aborted, CaseStatus::kCrash, CasePhase::kBackendRun, "signal");
  EXPECT_NE(aborted.message.find("tdc.names_cube.default"), std::string::npos) << aborted.message;
  ExpectVerdict(run("ignore_second_output", kTwoOutputs), CaseStatus::kFail, CasePhase::kCompare,
                "output_mismatch");
  ExpectVerdict(run("claims_then_fails", kCosOnly), CaseStatus::kFail, CasePhase::kBackendCompile,
                "declared_but_unsupported");
  ExpectVerdict(run("rejects_all", kTwoOutputs, /*required=*/true), CaseStatus::kFail,
                CasePhase::kBackendCompile, "rejected_required");
  ExpectVerdict(run("rejects_all", kAdd), CaseStatus::kNotSupported, CasePhase::kBackendCompile,
                "rejected");
  ExpectVerdict(run("leaks", kAdd), CaseStatus::kFail, CasePhase::kAbi, "leaked_handles");
  // A cache hit runs the compiled graph again (torch calls the cached compiled function):
  // wrong only from its second run on, it fails the case with a cached call alone.
  ExpectVerdict(run("wrong_on_rerun", kSin), CaseStatus::kFail, CasePhase::kCompare,
                "value_mismatch");
  ExpectVerdict(run("wrong_on_rerun", kTwoOutputs), CaseStatus::kPass, std::nullopt, "");
  // Outputs handed out again by a later run: the values the program kept from the first run
  // change when the second computes others; when it computes the same, nothing shows.
  ExpectVerdict(run("reuses_outputs", kRerunOnOtherValues), CaseStatus::kFail, CasePhase::kCompare,
                "output_aliased");
  ExpectVerdict(run("reuses_outputs", kSin), CaseStatus::kPass, std::nullopt, "");
  auto mismatch = LoadBackend(BundledLibrary("broken_abi_major"));
  ASSERT_TRUE(std::holds_alternative<LoadFailure>(mismatch));
  ExpectVerdict(LoadVerdict(std::get<LoadFailure>(mismatch)), CaseStatus::kBackendError,
                CasePhase::kLoad, "abi_version");
}

// Whether a process named `comm` (other than a zombie) is alive.
bool Alive(const std::string& comm) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    const std::optional<std::vector<ProcessStat>> processes = ListProcesses();
    if (!processes) continue;  // /proc changed while it was listed
    return std::ranges::any_of(
        *processes, [&](const ProcessStat& p) { return p.comm == comm && p.state != 'Z'; });
  }
  ADD_FAILURE() << "/proc could not be read through";
  return false;
}

// Issue 32: backends that try to fool the harness or to break it, each with the verdict it
// must get (each got another one before the harness was hardened).
TEST(ExecutorTest, EachHostileBackendGetsItsVerdict) {
  auto run = [](const std::string& name, const char* id, double timeout = 30) {
    auto backend = LoadBundled("broken_" + name);
    return backend ? RunId(*backend, id, false, timeout)
                   : Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "", "");
  };
  // A helper forked with the case's pipe kept open: the verdict that arrived is final (it
  // was a TIMEOUT), and the helper dies with its case's process group.
  const auto started = std::chrono::steady_clock::now();
  ExpectVerdict(run("forks_keeping_pipe", kAdd, 20), CaseStatus::kPass, std::nullopt, "");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(15));
  for (int i = 0; i < 50 && Alive("tdc_orphan"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(Alive("tdc_orphan"));
  // A PASS verdict and the case's end written on the case's pipe, then an exit (every case
  // was a PASS): the judge finds no answer from the backend.
  ExpectVerdict(run("forges_verdict", kAdd), CaseStatus::kCrash, CasePhase::kLoad, "no_results");
  // Invalid UTF-8 and terminal escapes in a message: BACKEND_ERROR (it was a CRASH), the
  // message made safe.
  Verdict bad_utf8 = run("bad_utf8", kAdd);
  ExpectVerdict(bad_utf8, CaseStatus::kBackendError, CasePhase::kBackendCompile, "error");
  EXPECT_NE(bad_utf8.message.find("\\x1b[31merror\\x1b[0m: \xEF\xBF\xBD\xEF\xBF\xBD"),
            std::string::npos)
      << bad_utf8.message;
  EXPECT_EQ(SafeText(bad_utf8.message), bad_utf8.message);
  auto bad_info = LoadBundled("broken_bad_utf8");
  ASSERT_TRUE(bad_info);
  EXPECT_EQ(std::string(bad_info->info().name), "bad\xEF\xBF\xBD\xEF\xBF\xBDutf8");
  EXPECT_EQ(std::string(bad_info->info().version), "\\x1b[1m1.0\\x1b[0m");
  // A message without its NUL: read to the buffer's end (1024 bytes), not past it.
  Verdict no_nul = run("no_nul", kAdd);
  ExpectVerdict(no_nul, CaseStatus::kBackendError, CasePhase::kBackendCompile, "error");
  EXPECT_TRUE(no_nul.message.ends_with(" can_compile: " + std::string(1024, 'x')))
      << no_nul.message.size() << ": " << no_nul.message.substr(0, 80);
  // Writing into the read-only inputs.
  ExpectVerdict(run("writes_inputs", kAdd), CaseStatus::kFail, CasePhase::kAbi, "input_written");
  // alloc_tensor of 2**32 x 2**32 floats and of a size -1, run_node of node 2**40: each
  // refused (they were OK, an abort, a SIGBUS), so the backend goes on and passes.
  ExpectVerdict(run("abuses_host", kTwoOutputs), CaseStatus::kPass, std::nullopt, "");
  ExpectVerdict(
      run("abuses_host", "fixtures:disable:s18_partial_disable:profile=torch-2.13:level=aten"),
      CaseStatus::kPass, std::nullopt, "");
  // An entry point that never returns: BACKEND_ERROR load/load_timeout (it hung the run).
  const auto loading = std::chrono::steady_clock::now();
  auto slow = LoadBackend(BundledLibrary("broken_slow_load"), 2);
  ASSERT_TRUE(std::holds_alternative<LoadFailure>(slow));
  EXPECT_EQ(std::get<LoadFailure>(slow).reason, "load_timeout");
  EXPECT_LT(std::chrono::steady_clock::now() - loading, std::chrono::seconds(10));
  // The same for a get_info and a library constructor that never return.
  for (const char* hanging : {"broken_hangs_in_info", "broken_hangs_in_constructor"}) {
    const auto hanging_since = std::chrono::steady_clock::now();
    auto hung = LoadBackend(BundledLibrary(hanging), 2);
    ASSERT_TRUE(std::holds_alternative<LoadFailure>(hung)) << hanging;
    EXPECT_EQ(std::get<LoadFailure>(hung).reason, "load_timeout") << hanging;
    EXPECT_LT(std::chrono::steady_clock::now() - hanging_since, std::chrono::seconds(10))
        << hanging;
  }
  // chdir("/") in tdc_backend_get_api: the working directory is restored (every case was a
  // HARNESS_ERROR, its fixture unreadable).
  const std::filesystem::path before = std::filesystem::current_path();
  auto moved = LoadBundled("broken_chdir_on_load");
  ASSERT_TRUE(moved);
  EXPECT_EQ(std::filesystem::current_path(), before);
  ExpectVerdict(RunId(*moved, kAdd), CaseStatus::kPass, std::nullopt, "");
}

// A suite for a backend that appends to one of its fixtures: a copy of one fixture and its
// golden under a temporary directory; the fixture's path.
std::filesystem::path HostileSuite(const std::string& name, const std::string& stem) {
  const std::filesystem::path suite = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(suite);
  std::filesystem::create_directories((suite / stem).parent_path());
  for (const char* ext : {".py", ".golden.json"})
    std::filesystem::copy_file(std::filesystem::current_path() / (stem + ext),
                               suite / (stem + ext));
  return suite / (stem + ".py");
}

// Runs `id` twice in `suite` (the working directory meanwhile) with `options`, the
// writes_fixture backend appending to `target`.
std::pair<Verdict, Verdict> RunTwiceWritingTo(const std::filesystem::path& suite,
                                              const std::string& target,
                                              const ExecutorOptions& options) {
  const std::filesystem::path source = std::filesystem::current_path();
  setenv("TDC_HOSTILE_FIXTURE", target.c_str(), 1);
  auto backend = LoadBundled("broken_writes_fixture");
  std::filesystem::current_path(suite);
  auto spec = std::get<CaseSpec>(ResolveCase(kAdd));
  std::pair<Verdict, Verdict> verdicts{RunCase(*backend, spec, options),
                                       RunCase(*backend, spec, options)};
  std::filesystem::current_path(source);
  unsetenv("TDC_HOSTILE_FIXTURE");
  return verdicts;
}

// Without the guard (a kernel without Landlock) a backend that changes a fixture: the case it
// runs in is judged on the files as they were when it started, the next one is HARNESS_ERROR
// suite_modified (it was a FAIL, blamed on the backend).
TEST(ExecutorTest, ASuiteFileChangedByABackendIsNoFaultOfTheBackend) {
  const std::string stem = "fixtures/allow_in_graph/s02_allow_then_disallow";
  const std::filesystem::path fixture = HostileSuite("hostile_suite", stem);
  auto [first, second] =
      RunTwiceWritingTo(fixture.parent_path().parent_path().parent_path(), fixture, {});
  ExpectVerdict(first, CaseStatus::kPass, std::nullopt, "");
  ExpectVerdict(second, CaseStatus::kHarnessError, CasePhase::kParse, "suite_modified");
  // A golden changed so (in a fresh copy): no digest of its own holds it, the one it had when
  // the run started does (runner.h GoldenDigests).
  const std::filesystem::path other = HostileSuite("hostile_golden_suite", stem);
  const std::string golden = GoldenFileOf(other.string());
  ExecutorOptions options;
  options.golden_sha256 = Sha256Hex(ReadFile(golden).value());
  auto [before, after] =
      RunTwiceWritingTo(other.parent_path().parent_path().parent_path(), golden, options);
  ExpectVerdict(before, CaseStatus::kPass, std::nullopt, "");
  ExpectVerdict(after, CaseStatus::kHarnessError, CasePhase::kParse, "suite_modified");
  EXPECT_NE(after.message.find("changed since the run started"), std::string::npos)
      << after.message;
}

// With the guard, the case's process cannot write the suite: the fixture (by its path and
// through /proc/<the harness>/root, another view of the same file), its golden, the core set,
// nor make a file beside the harness's binaries. Both cases pass and nothing changed. A
// kernel without Landlock skips this (and says so).
TEST(ExecutorTest, TheGuardKeepsTheSuiteOutOfTheBackendsReach) {
  const std::string stem = "fixtures/allow_in_graph/s02_allow_then_disallow";
  const std::filesystem::path fixture = HostileSuite("guarded_suite", stem);
  const std::filesystem::path suite = fixture.parent_path().parent_path().parent_path();
  std::filesystem::create_directories(suite / "conformance");
  { std::ofstream(suite / "conformance/core-set.txt") << "# the core set\n"; }
  // A file beside the suite, there before the guard is planned.
  const std::filesystem::path elsewhere = suite.parent_path() / "guarded_suite_elsewhere.py";
  { std::ofstream(elsewhere) << "x = 1\n"; }
  auto planned = PlanSuiteGuard(SuitePaths(suite.string(), ""));
  if (auto* why = std::get_if<std::string>(&planned)) GTEST_SKIP() << *why;
  ExecutorOptions options;
  options.guard = std::make_shared<SuiteGuard>(std::get<SuiteGuard>(planned));
  const std::filesystem::path golden = suite / (stem + ".golden.json");
  const std::filesystem::path core_set = suite / "conformance/core-set.txt";
  const std::filesystem::path beside_harness =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "tdc_hostile_probe.py";
  const std::string before = ReadFile(fixture.string()).value();
  const std::string golden_before = ReadFile(golden.string()).value();
  const std::string through_proc =
      fmt::format("/proc/{}/root{}", getpid(), std::filesystem::canonical(fixture).string());
  for (const std::string& target : {fixture.string(), through_proc, golden.string(),
                                    core_set.string(), beside_harness.string()}) {
    auto [first, second] = RunTwiceWritingTo(suite, target, options);
    ExpectVerdict(first, CaseStatus::kPass, std::nullopt, "");
    ExpectVerdict(second, CaseStatus::kPass, std::nullopt, "");
    EXPECT_EQ(ReadFile(fixture.string()).value(), before) << target;
    EXPECT_EQ(ReadFile(golden.string()).value(), golden_before) << target;
    EXPECT_EQ(ReadFile(core_set.string()).value(), "# the core set\n") << target;
    EXPECT_FALSE(std::filesystem::exists(beside_harness)) << target;
  }
  // The same backend writes where the suite is not (the guard takes nothing else away).
  auto [first, second] = RunTwiceWritingTo(suite, elsewhere.string(), options);
  ExpectVerdict(first, CaseStatus::kPass, std::nullopt, "");
  EXPECT_EQ(ReadFile(elsewhere.string()).value(), "x = 1\n\n1 / 0\n\n1 / 0\n");
}

// A helper the backend leaves out of its case's process group writes PASS verdicts into every
// pipe the harness holds, opened through /proc/<harness>/fd (the judge's among them once it
// runs), while the backend computes wrong numbers; without a defence it wins (each case PASS).
// Under the guard the helper can open none of them (Landlock keeps a sandboxed process out of
// another's /proc/<pid>/fd, root's too): each case keeps the judge's FAIL.
TEST(ExecutorTest, UnderTheGuardNoHelperReachesTheJudgesPipe) {
  auto planned = PlanSuiteGuard(SuitePaths(std::filesystem::current_path().string(), ""));
  if (auto* why = std::get_if<std::string>(&planned)) GTEST_SKIP() << *why;
  ExecutorOptions options;
  options.guard = std::make_shared<SuiteGuard>(std::get<SuiteGuard>(planned));
  auto backend = LoadBundled("broken_forges_judge");
  ASSERT_TRUE(backend);
  const CaseSpec spec = std::get<CaseSpec>(ResolveCase(kAdd));
  for (int i = 0; i < 5; ++i) {
    ExpectVerdict(RunCase(*backend, spec, options), CaseStatus::kFail, CasePhase::kCompare,
                  "value_mismatch");
  }
}

// Without the guard (a kernel without Landlock), for a user without CAP_SYS_PTRACE: the
// harness and its judges are not dumpable, so the same helper cannot open their pipes either.
// Run as an unprivileged user (nobody, in a child, when the test runs as root); skipped, and
// said so, where root cannot become nobody or nobody cannot read the checkout (a private home).
TEST(ExecutorTest, WithoutTheGuardTheHarnessIsNotDumpable) {
  const auto three_fails = [] {
    auto backend = LoadBundled("broken_forges_judge");
    if (!backend) return false;
    const CaseSpec spec = std::get<CaseSpec>(ResolveCase(kAdd));
    for (int i = 0; i < 3; ++i) {
      const Verdict v = RunCase(*backend, spec, {});
      if (v.status != CaseStatus::kFail || v.reason != "value_mismatch") {
        std::fprintf(stderr, "case %d: %s\n", i, FormatVerdict(v).c_str());
        return false;
      }
    }
    return true;
  };
  if (geteuid() != 0) {
    EXPECT_TRUE(three_fails());
    return;
  }
  std::fflush(nullptr);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  enum Outcome { kAllFailed, kNotAllFailed, kNoSetuid, kUnreadable };
  if (child == 0) {
    constexpr uid_t kNobody = 65534;
    if (setgroups(0, nullptr) != 0 || setresgid(kNobody, kNobody, kNobody) != 0 ||
        setresuid(kNobody, kNobody, kNobody) != 0) {
      _exit(kNoSetuid);
    }
    // Changing credentials made this process non-dumpable; a process nobody starts is not.
    prctl(PR_SET_DUMPABLE, 1);
    const std::string fixture = std::get<CaseSpec>(ResolveCase(kAdd)).fixture;
    for (const std::string& file :
         {fixture, GoldenFileOf(fixture), BundledLibrary("broken_forges_judge")}) {
      if (access(file.c_str(), R_OK) != 0) _exit(kUnreadable);
    }
    _exit(three_fails() ? kAllFailed : kNotAllFailed);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == kNoSetuid) GTEST_SKIP() << "root here cannot become nobody";
  if (WEXITSTATUS(status) == kUnreadable) GTEST_SKIP() << "nobody cannot read the checkout";
  EXPECT_EQ(WEXITSTATUS(status), kAllFailed) << "a case was not FAIL value_mismatch";
}

// The level-dependent fixture with its golden's aot_eager outcome changed: an ATen-level case
// is held to that outcome (what torch computes with aot_eager), a Dynamo-level one is not.
TEST(ExecutorTest, AnAtenLevelCaseIsHeldToTheGoldensAotEagerOutcome) {
  const std::filesystem::path source = std::filesystem::current_path();
  const std::filesystem::path suite = std::filesystem::path(::testing::TempDir()) / "aot_suite";
  const std::string stem = "fixtures/allow_in_graph/allowed_body_values_differ_by_level";
  std::filesystem::remove_all(suite);
  std::filesystem::create_directories(suite / "fixtures/allow_in_graph");
  std::filesystem::copy_file(source / (stem + ".py"), suite / (stem + ".py"));
  std::ifstream in(source / (stem + ".golden.json"));
  nlohmann::json golden = nlohmann::json::parse(in);
  nlohmann::json& aot = golden["compiled"]["torch-2.13"]["aot_eager"];
  ASSERT_NE(aot["outs"]["out"]["tensor"]["values"][0], "0x1.9000000000000p+6");
  aot["outs"]["out"]["tensor"]["values"][0] = "0x1.9000000000000p+6";  // 100.0
  std::ofstream(suite / (stem + ".golden.json")) << golden.dump(1) << "\n";
  auto backend = LoadBundled("reference");
  ASSERT_TRUE(backend);
  std::filesystem::current_path(suite);
  const std::string id =
      "fixtures:allow_in_graph:allowed_body_values_differ_by_level:profile=torch-2.13";
  Verdict aten = RunId(*backend, id + ":level=aten");
  Verdict dynamo = RunId(*backend, id + ":level=dynamo");
  std::filesystem::current_path(source);
  ExpectVerdict(aten, CaseStatus::kFail, CasePhase::kCompare, "value_mismatch");
  EXPECT_NE(aten.message.find("expected 0x1.9000000000000p+6 (100.0)"), std::string::npos)
      << aten.message;
  ExpectVerdict(dynamo, CaseStatus::kPass, std::nullopt, "");
}

TEST(ExecutorTest, ShapesCrossingTheAbiAreChecked) {
  const int64_t huge[] = {int64_t{1} << 32, int64_t{1} << 32};
  const int64_t negative[] = {-1};
  const int64_t fine[] = {2, 3};
  EXPECT_TRUE(CheckShape(TDC_DTYPE_FLOAT32, 2, huge));
  EXPECT_EQ(CheckShape(TDC_DTYPE_FLOAT32, 1, negative), "size -1 of dimension 0 is negative");
  EXPECT_FALSE(CheckShape(TDC_DTYPE_FLOAT32, 2, fine));
  EXPECT_TRUE(CheckShape(TDC_DTYPE_FLOAT32, 1, nullptr));
}

TEST(SafeTextTest, BackendTextIsValidUtf8AndLegalXml) {
  EXPECT_EQ(SafeText("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\t\n"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\t\n");
  EXPECT_EQ(SafeText("a\xFF"
                     "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(SafeText("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(SafeText("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(SafeText("\xEF\xBF\xBE"), "\xEF\xBF\xBD");                          // U+FFFE
  EXPECT_EQ(SafeText("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut short
  EXPECT_EQ(SafeText("\x1b[0m\x01"), "\\x1b[0m\\x01");
  EXPECT_EQ(SafeText(std::string_view("a\0b", 3)), "a\\x00b");
  const char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(BackendText(unterminated, sizeof unterminated), "abcd");
  EXPECT_EQ(BackendText(nullptr, 10), "");
}

// DESIGN D13: a program the reference refuses (a method bound to an object the traced code
// made, live at a graph break; a module of torch's it does not model, imported) is
// NOT_SUPPORTED for every backend at both levels, never PASS.
TEST(ExecutorTest, ProgramsTheReferenceRefusesAreNotSupported) {
  auto backend = LoadBundled("reference");
  ASSERT_TRUE(backend);
  const std::pair<const char*, const char*> refused[] = {
      {"fixtures:upstream%2Ferror_messages:test_reconstruction_failure_gb",
       ":17:5: a method bound to an instance the traced code made, live at a graph break, is not "
       "modeled"},
      {"fixtures:upstream%2Fdecorators:test_dont_skip_tracing",
       ":11:1: module 'torch._dynamo.test_dont_skip_tracing_functions' is not modeled"},
  };
  for (const auto& [fixture, message] : refused) {
    for (const char* level : {"dynamo", "aten"}) {
      Verdict v = RunId(*backend, fmt::format("{}:profile=torch-2.13:level={}", fixture, level));
      ExpectVerdict(v, CaseStatus::kNotSupported, CasePhase::kTrace, "reference_unsupported");
      EXPECT_NE(v.message.find(message), std::string::npos) << FormatVerdict(v);
    }
  }
}

TEST(ExecutorTest, TheBrokenCasesAreInTheCoreSetWhereTheyMustBe) {
  // rejects_all is FAIL on the core set: the case it runs as required is a core case, the
  // other one is not (an allowed function's node is no elementwise op).
  std::vector<std::string> core = Lines("conformance/core-set.txt");
  EXPECT_NE(std::find(core.begin(), core.end(), kTwoOutputs), core.end());
  EXPECT_EQ(std::find(core.begin(), core.end(), kAdd), core.end());
}

TEST(ExecutorTest, LibrariesThatAreNoBackendsDoNotLoad) {
  auto missing = LoadBackend("/nonexistent/libnothing.so");
  ASSERT_TRUE(std::holds_alternative<LoadFailure>(missing));
  EXPECT_EQ(std::get<LoadFailure>(missing).reason, "dlopen");
  auto not_a_backend = LoadBackend("libm.so.6");
  ASSERT_TRUE(std::holds_alternative<LoadFailure>(not_a_backend));
  EXPECT_EQ(std::get<LoadFailure>(not_a_backend).reason, "no_entry_point");
}

TEST(ExecutorTest, CaseIdsNameAFixtureAProfileAndALevel) {
  auto spec = ResolveCase("fixtures:seed:example5_graph_break:profile=torch-2.13-ngb:level=aten");
  ASSERT_TRUE(std::holds_alternative<CaseSpec>(spec));
  EXPECT_EQ(std::get<CaseSpec>(spec).fixture, "fixtures/seed/example5_graph_break.py");
  EXPECT_EQ(std::get<CaseSpec>(spec).profile, "torch-2.13-ngb");
  EXPECT_EQ(std::get<CaseSpec>(spec).level, TDC_GRAPH_LEVEL_ATEN);
  EXPECT_EQ(std::get<std::string>(ResolveCase("fixtures:seed:x:profile=torch-9:level=aten")),
            "unknown profile 'torch-9'");
  EXPECT_EQ(std::get<std::string>(ResolveCase("fixtures:seed:x:profile=torch-2.13:level=fx")),
            "level 'fx' is neither dynamo nor aten");
  EXPECT_EQ(CaseIdOf("fixtures/seed/example5_graph_break.py", "torch-2.13", TDC_GRAPH_LEVEL_DYNAMO),
            "fixtures:seed:example5_graph_break:profile=torch-2.13:level=dynamo");
}

TEST(ExecutorTest, TorchCasesNameAFixtureAndAProfileOnly) {
  auto spec = ResolveCase("torch:seed:example5_graph_break:profile=torch-2.13-ngb");
  ASSERT_TRUE(std::holds_alternative<CaseSpec>(spec));
  EXPECT_TRUE(std::get<CaseSpec>(spec).torch_engine);
  EXPECT_EQ(std::get<CaseSpec>(spec).fixture, "fixtures/seed/example5_graph_break.py");
  EXPECT_EQ(std::get<CaseSpec>(spec).profile, "torch-2.13-ngb");
  EXPECT_FALSE(std::get<CaseSpec>(ResolveCase(kAdd)).torch_engine);
  EXPECT_EQ(std::get<std::string>(ResolveCase("torch:seed:x:profile=torch-2.13:level=dynamo")),
            "a torch: case has no level (torch.compile hands its backend Dynamo's graphs)");
  // One torch: case per Dynamo-level fixture case; ATen-level and generated ones have none.
  EXPECT_EQ(TorchCaseIds({"fixtures:seed:a:profile=torch-2.13:level=dynamo",
                          "fixtures:seed:a:profile=torch-2.13:level=aten",
                          "fixtures:guards:b:profile=torch-2.13-ngb:level=dynamo",
                          "fuzz:reference:seed_1:profile=torch-2.13:level=dynamo"}),
            (std::vector<std::string>{"torch:seed:a:profile=torch-2.13",
                                      "torch:guards:b:profile=torch-2.13-ngb"}));
}

TEST(ExecutorTest, VerdictsSurviveTheirJsonForm) {
  Verdict v = Verdict::Of(CaseStatus::kCrash, CasePhase::kBackendRun, "signal",
                          "SIGSEGV in backend_run: graph 0/0");
  std::optional<Verdict> back = VerdictFromJson(ToJson(v));
  ASSERT_TRUE(back);
  EXPECT_EQ(FormatVerdict(*back), "CRASH backend_run/signal: SIGSEGV in backend_run: graph 0/0");
  EXPECT_FALSE(VerdictFromJson(nlohmann::json{{"status", "GREEN"}}));
  EXPECT_EQ(CountsAs(CaseStatus::kNotSupported), Counts::kSkipped);
  EXPECT_EQ(CountsAs(CaseStatus::kXPass), Counts::kPassed);  // failed under --strict (runner.h)
}

}  // namespace
}  // namespace tdc::conformance
