// The parent forks one child per case and reads its progress lines and its verdict from a
// pipe: a child that dies by a signal is a CRASH in the phase it last entered, one that
// outlives the timeout is killed and is a TIMEOUT there (the message names the graph).
#include "conformance/executor/executor.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <regex>

#include "conformance/executor/abi_graph_backend.h"
#include "conformance/executor/aten_expectation.h"
#include "reference/aot/aot_lowering.h"
#include "reference/base/case_id.h"
#include "reference/base/read_file.h"
#include "reference/compare/comparator.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden_json.h"

namespace tdc::conformance {

namespace {

// DESIGN D13: the reference does not model something the program reaches, so the case has
// no expected outcome; never PASS, never blamed on the backend.
Verdict ReferenceRefused(const graph::Unsupported& refused) {
  return Verdict::Of(CaseStatus::kNotSupported, CasePhase::kTrace, "reference_unsupported",
                     fmt::format("{}: {}", refused.where, refused.reason));
}

void WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// What the program's outcome is compared with: the golden, except that at the ATen level its
// values are the ATen graphs'. The golden's were recorded with the Dynamo graphs run; with an
// ATen-level backend torch computes the ATen graphs' (interpreting_backend.h), which the
// reference's run predicts (aten_expectation.h).
graph::Golden ExpectedOutcome(const graph::Golden& golden, const CaseSpec& spec,
                              const std::optional<AtenExpectation>& aten) {
  graph::Golden expected = golden;
  if (!aten) return expected;
  for (auto& [profile, compiled] : expected.compiled) {
    if (profile != spec.profile) continue;
    compiled.outs = aten->outcome.outs;
    compiled.exception = aten->outcome.exception;
  }
  return expected;
}

// The child's work: the compiled run with the backend, then the comparison.
Verdict RunInChild(const LoadedBackend& backend, const CaseSpec& spec,
                   const ExecutorOptions& options, const Progress& progress, const Record& record) {
  progress(CasePhase::kParse, spec.fixture);
  std::optional<std::string> source = ReadFile(spec.fixture);
  std::string golden_file = spec.fixture.substr(0, spec.fixture.size() - 3) + ".golden.json";
  std::optional<std::string> golden_text = ReadFile(golden_file);
  if (!source || !golden_text) {
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "missing_file",
                       fmt::format("cannot read {} or {}", spec.fixture, golden_file));
  }
  graph::GoldenReadResult golden = graph::ReadGolden(*golden_text);
  if (!golden.golden)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "bad_golden", golden_file);
  dynamo::CompileRunOptions run;
  run.profile = spec.profile;
  run.aten = &aot::AotLowering();
  // At the ATen level the reference runs the program first: the backend's graphs are checked
  // against what it computed, its outcome is the expected one (its failure is reported after
  // the backend's own).
  std::optional<AtenExpectation> aten;
  if (spec.level == TDC_GRAPH_LEVEL_ATEN) {
    progress(CasePhase::kLower, "the program with the reference's ATen graphs");
    aten = ExpectAtAten(*source, spec.fixture, run);
    // The backend is not run on graphs of a program the reference refuses.
    if (aten->outcome.unsupported) return ReferenceRefused(*aten->outcome.unsupported);
  }
  AbiGraphBackend host(backend, spec.level, options.required, aten ? &*aten : nullptr, progress,
                       record);
  if (std::optional<Verdict> failed = host.Start()) return *failed;
  run.backend = &host;
  progress(CasePhase::kTrace, spec.fixture);
  auto outcome = dynamo::RunCompiled(*source, spec.fixture, run);
  if (auto* diagnostic = std::get_if<std::string>(&outcome)) {
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kTrace, "reference_error",
                       *diagnostic);
  }
  // Whatever the backend did, there is no expected outcome to hold it to.
  if (const auto& refused = std::get<graph::CompiledOutcome>(outcome).unsupported) {
    return ReferenceRefused(*refused);
  }
  if (host.failure()) return *host.failure();
  if (std::optional<Verdict> leaked = host.Finish()) return *leaked;
  if (aten && aten->failure) return *aten->failure;
  progress(CasePhase::kCompare, "the program's outcome");
  graph::Golden actual = *golden.golden;
  for (auto& [profile, compiled] : actual.compiled) {
    if (profile == spec.profile) compiled = std::get<graph::CompiledOutcome>(std::move(outcome));
  }
  compare::CompareOptions compare_options;
  compare_options.mode = compare::Mode::kCompile;
  compare_options.profile = spec.profile;
  const graph::Golden wanted = ExpectedOutcome(*golden.golden, spec, aten);
  compare::CompareResult result = compare::Compare(wanted, actual, compare_options);
  if (result.error || !result.differences.empty()) {  // both outcomes, for the failure's folder
    record({"expected", graph::ToJson(wanted)});
    record({"outcome", graph::ToJson(actual)});
  }
  if (result.error)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kCompare, "compare_error",
                       *result.error);
  if (!result.differences.empty()) {
    return Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, "value_mismatch",
                       compare::FormatDifference(result.differences.front()));
  }
  if (host.graphs_run() == 0)
    return Verdict{CaseStatus::kPass, std::nullopt, "", "no graph reached the backend"};
  return Verdict::Pass();
}

std::string SignalName(int signal) {
  const char* name = sigabbrev_np(signal);
  return name != nullptr ? fmt::format("SIG{}", name) : fmt::format("signal {}", signal);
}

}  // namespace

std::string CaseIdOf(const std::string& fixture, const std::string& profile,
                     tdc_graph_level level) {
  std::string path = fixture.substr(std::string("fixtures/").size());
  path = path.substr(0, path.size() - 3);
  const size_t slash = path.rfind('/');
  CaseId id{"fixtures",
            path.substr(0, slash),
            path.substr(slash + 1),
            {{"profile", profile}, {"level", level == TDC_GRAPH_LEVEL_ATEN ? "aten" : "dynamo"}}};
  return FormatCaseId(id);
}

std::variant<CaseSpec, std::string> ResolveCase(std::string_view text,
                                                const std::string& generated_dir) {
  CaseIdParse parsed = ParseCaseId(text);
  if (!parsed.id) return parsed.error;
  const CaseId& id = *parsed.id;
  CaseSpec spec;
  spec.id = std::string(text);
  if (id.suite == "fixtures") {
    spec.fixture = fmt::format("fixtures/{}/{}.py", id.group, id.name);
  } else if (id.suite == "fuzz") {
    static const std::regex kSeed("seed_[0-9]+");
    if (id.group != "reference" && id.group != "torch") {
      return fmt::format("a generated case's expected outcome is 'reference' or 'torch', not '{}'",
                         id.group);
    }
    if (!std::regex_match(id.name, kSeed))
      return fmt::format("a generated case is seed_<n>, not '{}'", id.name);
    spec.fixture =
        fmt::format("{}/{}/{}.py", generated_dir.empty() ? "." : generated_dir, id.group, id.name);
  } else {
    return fmt::format("unknown suite '{}' (fixtures, fuzz)", id.suite);
  }
  std::string level;
  for (const CaseParam& p : id.params) {
    if (p.key == "profile")
      spec.profile = p.value;
    else if (p.key == "level")
      level = p.value;
    else
      return fmt::format("unknown parameter '{}' (profile, level)", p.key);
  }
  if (!dynamo::IsKnownProfile(spec.profile))
    return fmt::format("unknown profile '{}'", spec.profile);
  if (level != "dynamo" && level != "aten")
    return fmt::format("level '{}' is neither dynamo nor aten", level);
  spec.level = level == "aten" ? TDC_GRAPH_LEVEL_ATEN : TDC_GRAPH_LEVEL_DYNAMO;
  return spec;
}

Verdict LoadVerdict(const LoadFailure& failure) {
  return Verdict::Of(CaseStatus::kBackendError, CasePhase::kLoad, failure.reason, failure.message);
}

std::variant<RunningCase, Verdict> StartCase(const LoadedBackend& backend, const CaseSpec& spec,
                                             const ExecutorOptions& options) {
  if (!backend.HasLevel(spec.level)) {
    Verdict v =
        Verdict::Of(CaseStatus::kNotSupported, CasePhase::kBackendCompile, "level_not_declared",
                    "the backend does not compile graphs at this level");
    if (options.required) v.status = CaseStatus::kFail;
    return v;
  }
  int fds[2];
  if (pipe(fds) != 0)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "pipe", std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "fork", std::strerror(errno));
  if (child == 0) {
    close(fds[0]);
    const int out = fds[1];
    Progress progress = [out](CasePhase phase, const std::string& detail) {
      WriteAll(out, fmt::format("progress {} {}\n", PhaseName(phase), detail));
    };
    Record record = [out](const CaseRecord& r) {
      WriteAll(out, fmt::format("record {} {}\n", r.kind, r.body.dump()));
    };
    Verdict v = RunInChild(backend, spec, options, progress, record);
    WriteAll(out, "verdict " + ToJson(v).dump() + "\n");
    _exit(0);
  }
  close(fds[1]);
  RunningCase running;
  running.pid = child;
  running.fd = fds[0];
  running.timeout_seconds = options.timeout_seconds;
  running.deadline = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(options.timeout_seconds));
  return running;
}

bool ReadFromCase(RunningCase& c) {
  char chunk[4096];
  ssize_t n = read(c.fd, chunk, sizeof chunk);
  if (n <= 0) return false;
  c.buffer.append(chunk, static_cast<size_t>(n));
  for (size_t eol; (eol = c.buffer.find('\n')) != std::string::npos; c.buffer.erase(0, eol + 1)) {
    std::string line = c.buffer.substr(0, eol);
    if (line.starts_with("progress ")) {
      std::string rest = line.substr(9);
      const size_t space = rest.find(' ');
      if (auto parsed = ParsePhase(rest.substr(0, space))) c.phase = *parsed;
      c.detail = space == std::string::npos ? "" : rest.substr(space + 1);
    } else if (line.starts_with("record ")) {
      const size_t space = line.find(' ', 7);
      if (space == std::string::npos) continue;
      auto body = nlohmann::ordered_json::parse(line.substr(space + 1), nullptr, false);
      if (!body.is_discarded()) c.records.push_back({line.substr(7, space - 7), std::move(body)});
    } else if (line.starts_with("verdict ")) {
      c.verdict = VerdictFromJson(nlohmann::json::parse(line.substr(8), nullptr, false));
    }
  }
  return true;
}

Verdict FinishCase(RunningCase& c, bool timed_out) {
  close(c.fd);
  if (timed_out) kill(c.pid, SIGKILL);
  int status = 0;
  waitpid(c.pid, &status, 0);
  const std::string where = fmt::format("in {}: {}", PhaseName(c.phase), c.detail);
  if (timed_out) {
    return Verdict::Of(CaseStatus::kTimeout, c.phase, "timeout",
                       fmt::format("no result after {} s, {}", c.timeout_seconds, where));
  }
  if (c.verdict) return *c.verdict;
  if (WIFSIGNALED(status)) {
    return Verdict::Of(CaseStatus::kCrash, c.phase, "signal",
                       fmt::format("{} {}", SignalName(WTERMSIG(status)), where));
  }
  return Verdict::Of(CaseStatus::kCrash, c.phase, "exit",
                     fmt::format("the case's process exited ({}) without a verdict, {}",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, where));
}

Verdict RunCase(const LoadedBackend& backend, const CaseSpec& spec, const ExecutorOptions& options,
                std::vector<CaseRecord>* records) {
  auto started = StartCase(backend, spec, options);
  if (auto* verdict = std::get_if<Verdict>(&started)) return *verdict;
  RunningCase& c = std::get<RunningCase>(started);
  // Read until the child closes the pipe or the time is up.
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        c.deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{c.fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    if (!ReadFromCase(c)) break;
  }
  Verdict verdict = FinishCase(c, timed_out);
  if (records != nullptr) *records = std::move(c.records);
  return verdict;
}

}  // namespace tdc::conformance
