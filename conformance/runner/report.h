// The run's reports: a JSON document (schema conformance/runner/report.schema.json,
// "tdconform-report/1") and JUnit XML, both written atomically (a temporary file renamed
// over the target, so a reader never sees half a report and an old one survives a failed
// write). The same results give the same bytes: no timings, no host names. The case times go
// to a document of their own (TimingsReport), the one output of a run that differs between
// two runs of the same cases.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_REPORT_H_
#define TDCONFORM_CONFORMANCE_RUNNER_REPORT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/loader/loader.h"
#include "conformance/runner/runner.h"

namespace tdc::conformance {

inline constexpr const char* kReportSchema = "tdconform-report/1";
inline constexpr const char* kTimingsSchema = "tdconform-timings/1";

// The command that runs one case again on `library`, each argument quoted for a POSIX shell.
std::string ReproCommand(const std::string& id, const std::string& library);

// Whether the run a report describes is over. A report is written as `running` before
// anything else (a crash or a kill leaves that, never the previous run's report), and as
// `interrupted` (SIGINT, SIGTERM: the cases that finished) or `not_run` (the backend did not
// load, an input could not be read) when the run did not complete; `detail` says why. Only a
// `complete` report can have succeeded; JUnit shows any other as an error of a test case
// named `tdconform:run`.
enum class RunState { kRunning, kComplete, kInterrupted, kNotRun };
struct ReportState {
  RunState state = RunState::kComplete;
  std::string detail;
  // What kept the suite's files out of the cases' reach (suite.cc DescribeGuard); empty when
  // no case ran.
  std::string suite_guard = "";
};

// Each case's wall-clock seconds (CaseResult::seconds; null where it did not run) with its id,
// engine and status, in the report's order: schema conformance/runner/timings.schema.json,
// written beside the reports (--timings) in the same states. `jobs`: the cases run at a time,
// which the times depend on.
nlohmann::ordered_json TimingsReport(const std::string& library,
                                     const std::vector<CaseResult>& results, int jobs,
                                     const ReportState& state = {});

// `tally`: the run's counts (Count, with --strict and stale expectations as the run had them).
// Every string is made safe (safe_text.h).
// `tolerance`: the policy the outputs were held to (each case lists the outputs it judged).
nlohmann::ordered_json JsonReport(const tdc_backend_info& info, const std::string& library,
                                  const std::vector<CaseResult>& results, const Tally& tally,
                                  const ReportState& state = {}, const gpu::Policy& tolerance = {});
// `strict`: an XPASS is a failure (else it passes).
std::string JunitReport(const tdc_backend_info& info, const std::string& library,
                        const std::vector<CaseResult>& results, bool strict,
                        const ReportState& state = {}, const gpu::Policy& tolerance = {});

// Writes `text` to `path` atomically; an error text when it cannot.
std::optional<std::string> WriteAtomically(const std::string& path, const std::string& text);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_REPORT_H_
