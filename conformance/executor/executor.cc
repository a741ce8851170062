// The parent forks one child per case and reads from a pipe where it is and the backend's raw
// answers (backend_calls.h): a child that dies by a signal is a CRASH in the phase it last
// entered, one that outlives the timeout is killed and is a TIMEOUT there (the message names
// the graph). Its `done` is final: the case ends there, whatever still holds the pipe. Each
// case is a process group of its own, killed whole at its end, so nothing a backend forked
// outlives its case. The verdict is then the judge's: a child forked from the parent after the
// case, where no backend code runs, that runs the case again on the answers the case sent.
#include "conformance/executor/executor.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>
#include <utility>

#include "conformance/executor/abi_graph_backend.h"
#include "conformance/executor/aten_expectation.h"
#include "conformance/executor/backend_calls.h"
#include "conformance/executor/signal_name.h"
#include "conformance/executor/torch_engine.h"
#include "reference/aot/aot_lowering.h"
#include "reference/base/read_file.h"
#include "reference/base/sha256.h"
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

// Why the case's golden cannot be used: it does not read, or it was recorded from another
// program than the fixture (a generated one's golden records zeros). A fixture changed since
// (by hand, or by a backend in an earlier case) is never the backend's fault.
std::optional<Verdict> CheckGolden(const RunningCase& c, const graph::GoldenReadResult& golden) {
  const std::string& golden_file = c.files->golden_file;
  if (!golden.golden)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "bad_golden", golden_file);
  const std::string& recorded = golden.golden->meta.fixture_sha256;
  if (recorded != std::string(64, '0') && recorded != Sha256Hex(c.files->source)) {
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "suite_modified",
                       fmt::format("{} is not the program {} was recorded from (SHA-256 {})",
                                   c.spec.fixture, golden_file, recorded));
  }
  return std::nullopt;
}

// A torch: case's verdict in the judge, from the one answer its process sent.
Verdict JudgeUnderTorch(const RunningCase& c, const Verdict& ended, const Record& record) {
  if (std::optional<Verdict> unusable = CheckGolden(c, graph::ReadGolden(c.files->golden_text)))
    return *unusable;
  return JudgeTorchRun(c.calls, c.files->golden_text, c.spec.profile, ended, record);
}

// The case run once, with the backend called through `calls` (in the case's process live, in
// the judge's replayed: backend_calls.h); `ended` is the verdict where a call has no answer.
Verdict RunProgram(const LoadedBackend& backend, const RunningCase& c, BackendCalls& calls,
                   const Verdict& ended, const Progress& progress, const Record& record) {
  const CaseSpec& spec = c.spec;
  const ExecutorOptions& options = c.options;
  progress(CasePhase::kParse, spec.fixture);
  const std::string* source = &c.files->source;
  graph::GoldenReadResult golden = graph::ReadGolden(c.files->golden_text);
  if (std::optional<Verdict> unusable = CheckGolden(c, golden)) return *unusable;
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
  AbiGraphBackend host(backend, calls, ended, spec.level, options.required, options.tolerance,
                       aten ? &*aten : nullptr, progress, record);
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
  // The backend's run is one run: its outcome at the other level is not what it is judged on.
  compare_options.masked = {graph::Field::kAotEager};
  // Under another policy than the golden's own tolerances, every value the backend computed
  // was judged by that policy graph by graph, and the program's results carry those
  // values' errors: they are not held to the golden's tolerances again.
  if (options.tolerance.kind != gpu::PolicyKind::kTorchDefault)
    compare_options.masked.push_back(graph::Field::kOuts);
  // At the ATen level the values are the ATen graphs' (aten_expectation.h); the fallback makes
  // it never an error.
  graph::Golden wanted = *golden.golden;
  if (aten) HoldToAotEager(wanted, spec.profile, &aten->outcome);
  compare::CompareResult result = compare::Compare(wanted, actual, compare_options);
  if (result.error || !result.differences.empty()) {  // both outcomes, for the failure's folder
    if (record) {
      record({"expected", graph::ToJson(wanted)});
      record({"outcome", graph::ToJson(actual)});
    }
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

}  // namespace

Verdict LoadVerdict(const LoadFailure& failure) {
  return Verdict::Of(CaseStatus::kBackendError, CasePhase::kLoad, failure.reason, failure.message);
}

namespace {

// Longer than any line a case's process sends: the outputs of a run are at most a few
// tensors of kMaxWireTensorBytes, in hex.
constexpr size_t kMaxLine = size_t{1} << 36;

// `<kind> <body as JSON>`, one line (invalid UTF-8 replaced: nlohmann throws on it).
template <typename Json>
std::string Line(const std::string& kind, const Json& body) {
  return fmt::format("{} {}\n", kind,
                     body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Forks a process of its own group, dead with its parent, that runs `work` with the write end
// of a pipe and exits; the process and the read end, or the verdict when it cannot be forked.
std::variant<std::pair<pid_t, int>, Verdict> Fork(const std::function<void(int out)>& work) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "pipe", std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "fork", std::strerror(errno));
  if (child == 0) {
    // Its own process group (the parent sets it too, so it holds before either runs on), and
    // dead with the parent.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(1);
    std::signal(SIGINT, SIG_DFL);  // the parent's handlers (interrupt.h) are not the case's
    std::signal(SIGTERM, SIG_DFL);
    close(fds[0]);
    work(fds[1]);
    _exit(0);
  }
  setpgid(child, child);
  close(fds[1]);
  return std::pair{child, fds[0]};
}

std::chrono::steady_clock::time_point After(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

// Reads `c` until it ends or its deadline passes; whether it timed out.
bool ReadToTheEnd(RunningCase& c) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        c.deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return true;
    pollfd p{c.fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    if (!ReadFromCase(c)) return false;
  }
}

// The verdict of the case whose process ended so (`end`: how, when it did not say it was
// done), from the judge: a process forked from this one, where no backend code runs, that
// runs the case again with the answers the case's process sent (backend_calls.h).
Verdict Judge(RunningCase& c, const std::optional<Verdict>& end) {
  const Verdict ended =
      end ? *end
          : Verdict::Of(CaseStatus::kCrash, c.phase, "no_results",
                        fmt::format("the case's process ended without the backend's answers, in "
                                    "{}: {}",
                                    PhaseName(c.phase), c.detail));
  auto forked = Fork([&](int out) {
    Record record = [out](const CaseRecord& r) { WriteAll(out, Line("record " + r.kind, r.body)); };
    if (c.spec.torch_engine) {
      Verdict v = end ? ended : JudgeUnderTorch(c, ended, record);
      WriteAll(out, Line("verdict", ToJson(v)));
      return;
    }
    ReplayedCalls replay(std::move(c.calls));
    Progress progress = [](CasePhase, const std::string&) {};
    Verdict v = RunProgram(*c.backend, c, replay, ended, progress, record);
    // The answers ran out (the case's process ended there, or sent too few): how it ended is
    // the verdict, as it is when it ended otherwise than it should after its last answer.
    if (replay.exhausted() || end) v = ended;
    WriteAll(out, Line("verdict", ToJson(v)));
  });
  if (auto* failed = std::get_if<Verdict>(&forked)) return *failed;
  RunningCase judge;
  judge.judge = true;
  std::tie(judge.pid, judge.fd) = std::get<std::pair<pid_t, int>>(forked);
  judge.deadline = After(c.timeout_seconds + 60);
  const bool timed_out = ReadToTheEnd(judge);
  close(judge.fd);
  kill(-judge.pid, SIGKILL);
  int status = 0;
  waitpid(judge.pid, &status, 0);
  c.records = std::move(judge.records);
  if (judge.verdict) return *judge.verdict;
  return Verdict::Of(CaseStatus::kHarnessError, c.phase,
                     timed_out ? "judge_timeout" : "judge_crash",
                     fmt::format("the judge gave no verdict ({})",
                                 WIFSIGNALED(status) ? SignalName(WTERMSIG(status)) : "exited"));
}

}  // namespace

std::variant<RunningCase, Verdict> StartCase(const LoadedBackend& backend, const CaseSpec& spec,
                                             const ExecutorOptions& options) {
  if (!backend.HasLevel(spec.level)) {
    Verdict v =
        Verdict::Of(CaseStatus::kNotSupported, CasePhase::kBackendCompile, "level_not_declared",
                    "the backend does not compile graphs at this level");
    if (options.required) v.status = CaseStatus::kFail;
    return v;
  }
  // The suite's files are read here, before any backend code runs: the case's process and the
  // judge see these bytes, whatever a backend does to the files.
  auto files = std::make_shared<CaseFiles>();
  files->golden_file = GoldenFileOf(spec.fixture);
  std::optional<std::string> source = ReadFile(spec.fixture);
  std::optional<std::string> golden_text = ReadFile(files->golden_file);
  if (!source || !golden_text) {
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "missing_file",
                       fmt::format("cannot read {} or {}", spec.fixture, files->golden_file));
  }
  if (options.golden_sha256 && Sha256Hex(*golden_text) != *options.golden_sha256) {
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "suite_modified",
                       fmt::format("{} changed since the run started (SHA-256 {} then)",
                                   files->golden_file, *options.golden_sha256));
  }
  files->source = std::move(*source);
  files->golden_text = std::move(*golden_text);
  RunningCase running;
  running.backend = &backend;
  running.spec = spec;
  running.options = options;
  running.files = std::move(files);
  running.timeout_seconds = options.timeout_seconds;
  // This process and the judges it forks are not dumpable, so a process a backend left behind
  // (not root, not under the guard, which refuses it anyway) cannot open their pipes through
  // /proc/<pid>/fd and write a verdict there; the case's process is, as a backend expects.
  prctl(PR_SET_DUMPABLE, 0);
  // The case's process: the backend called live, each answer sent; its own verdict is not.
  auto forked = Fork([&](int out) {
    prctl(PR_SET_DUMPABLE, 1);
    if (options.guard) {
      if (std::optional<std::string> failed = ApplySuiteGuard(*options.guard)) {
        WriteAll(out, fmt::format("unguarded {}\n", *failed));
        return;
      }
    }
    Progress progress = [out](CasePhase phase, const std::string& detail) {
      WriteAll(out, fmt::format("progress {} {}\n", PhaseName(phase), detail));
    };
    if (spec.torch_engine) {
      progress(CasePhase::kTrace, spec.fixture + " under torch.compile");
      WriteAll(out, Line("call", RunUnderTorch(backend, spec.fixture, spec.profile)));
      WriteAll(out, "done\n");
      return;
    }
    LiveCalls live(backend,
                   [out](const nlohmann::json& answer) { WriteAll(out, Line("call", answer)); });
    RunProgram(backend, running, live, Verdict::Pass(), progress, Record{});
    WriteAll(out, "done\n");
  });
  if (auto* failed = std::get_if<Verdict>(&forked)) return *failed;
  std::tie(running.pid, running.fd) = std::get<std::pair<pid_t, int>>(forked);
  running.deadline = After(options.timeout_seconds);
  return running;
}

bool ReadFromCase(RunningCase& c) {
  // Everything there is now: a case's output read by pieces could outlive its deadline.
  bool open = true;
  for (bool more = true; more && open;) {
    char chunk[65536];
    const ssize_t n = read(c.fd, chunk, sizeof chunk);
    open = n > 0;
    if (open) c.buffer.append(chunk, static_cast<size_t>(n));
    pollfd p{c.fd, POLLIN, 0};
    more = poll(&p, 1, 0) > 0;
  }
  // The lines there are (the rest waits for its newline), then what ended it.
  size_t start = 0;
  const auto consumed = [&] { c.buffer.erase(0, start); };
  for (size_t eol; (eol = c.buffer.find('\n', start)) != std::string::npos; start = eol + 1) {
    std::string line = c.buffer.substr(start, eol - start);
    const bool first = !std::exchange(c.first_line_read, true);
    if (first && !c.judge && line.starts_with("unguarded ")) {
      // Only as the first line: what a backend writes later is not the harness's word.
      c.unguarded = line.substr(10);
      consumed();
      return false;
    }
    if (line.starts_with("progress ")) {
      std::string rest = line.substr(9);
      const size_t space = rest.find(' ');
      if (auto parsed = ParsePhase(rest.substr(0, space))) c.phase = *parsed;
      c.detail = space == std::string::npos ? "" : rest.substr(space + 1);
    } else if (!c.judge && line.starts_with("call ")) {
      c.calls.push_back(nlohmann::json::parse(line.substr(5), nullptr, false));
    } else if (!c.judge && line == "done") {
      c.done = true;
      consumed();
      return false;  // final: what comes after it is not read
    } else if (c.judge && line.starts_with("record ")) {
      const size_t space = line.find(' ', 7);
      if (space == std::string::npos) continue;
      auto body = nlohmann::ordered_json::parse(line.substr(space + 1), nullptr, false);
      if (!body.is_discarded()) c.records.push_back({line.substr(7, space - 7), std::move(body)});
    } else if (c.judge && line.starts_with("verdict ")) {
      c.verdict = VerdictFromJson(nlohmann::json::parse(line.substr(8), nullptr, false));
      if (c.verdict) {
        consumed();
        return false;
      }
    }
  }
  consumed();
  // No line of this protocol is that long.
  return open && c.buffer.size() <= kMaxLine;
}

Verdict FinishCase(RunningCase& c, bool timed_out) {
  close(c.fd);
  // The whole group, before the leader is reaped (so its id cannot be reused meanwhile): a
  // case that said it was done is, and nothing it forked may stay.
  kill(-c.pid, SIGKILL);
  int status = 0;
  waitpid(c.pid, &status, 0);
  if (c.unguarded) {
    return Verdict::Of(
        CaseStatus::kHarnessError, CasePhase::kLoad, "suite_guard",
        fmt::format("the suite could not be made read-only for the case: {}", *c.unguarded));
  }
  const std::string where = fmt::format("in {}: {}", PhaseName(c.phase), c.detail);
  std::optional<Verdict> end;
  if (c.done) {
    // ended as it should
  } else if (timed_out) {
    end = Verdict::Of(CaseStatus::kTimeout, c.phase, "timeout",
                      fmt::format("no result after {} s, {}", c.timeout_seconds, where));
  } else if (WIFSIGNALED(status)) {
    end = Verdict::Of(CaseStatus::kCrash, c.phase, "signal",
                      fmt::format("{} {}", SignalName(WTERMSIG(status)), where));
  } else {
    end = Verdict::Of(CaseStatus::kCrash, c.phase, "exit",
                      fmt::format("the case's process exited ({}) without a verdict, {}",
                                  WIFEXITED(status) ? WEXITSTATUS(status) : -1, where));
  }
  if (c.backend == nullptr) return end.value_or(Verdict::Pass());  // killed, not judged
  return Judge(c, end);
}

Verdict RunCase(const LoadedBackend& backend, const CaseSpec& spec, const ExecutorOptions& options,
                std::vector<CaseRecord>* records) {
  auto started = StartCase(backend, spec, options);
  if (auto* verdict = std::get_if<Verdict>(&started)) return *verdict;
  RunningCase& c = std::get<RunningCase>(started);
  const bool timed_out = ReadToTheEnd(c);
  Verdict verdict = FinishCase(c, timed_out);
  if (records != nullptr) *records = std::move(c.records);
  return verdict;
}

}  // namespace tdc::conformance
