#include "conformance/runner/report.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>

#include "conformance/executor/safe_text.h"
#include "reference/base/case_id.h"

namespace tdc::conformance {

namespace {

std::string Text(const char* s) { return BackendText(s, kMaxBackendString); }

std::string_view StateName(RunState state) {
  switch (state) {
    case RunState::kRunning:
      return "running";
    case RunState::kComplete:
      return "complete";
    case RunState::kInterrupted:
      return "interrupted";
    case RunState::kNotRun:
      return "not_run";
  }
  return "running";
}

// What ran the program: torch: cases real torch.compile, every other the reference.
const char* EngineOf(const std::string& id) {
  return id.starts_with("torch:") ? "torch" : "reference";
}

// `text` as one word of a POSIX shell command line.
std::string ShellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// JUnit's three kinds of not passing.
enum class JunitKind { kPassed, kFailure, kError, kSkipped };

JunitKind KindOf(CaseStatus status, bool strict) {
  switch (status) {
    case CaseStatus::kPass:
      return JunitKind::kPassed;
    case CaseStatus::kXPass:
      return strict ? JunitKind::kFailure : JunitKind::kPassed;
    case CaseStatus::kFail:
      return JunitKind::kFailure;
    case CaseStatus::kCrash:
    case CaseStatus::kTimeout:
    case CaseStatus::kBackendError:
    case CaseStatus::kHarnessError:
      return JunitKind::kError;
    case CaseStatus::kNotSupported:
    case CaseStatus::kXFail:
    case CaseStatus::kSkipped:
      return JunitKind::kSkipped;
  }
  return JunitKind::kError;
}

}  // namespace

std::string ReproCommand(const std::string& id, const std::string& library) {
  return fmt::format("tdconform --case {} --backend {}", ShellQuoted(id), ShellQuoted(library));
}

nlohmann::ordered_json JsonReport(const tdc_backend_info& info, const std::string& library,
                                  const std::vector<CaseResult>& results, const Tally& tally,
                                  const ReportState& state, const gpu::Policy& tolerance) {
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const CaseResult& r : results) {
    nlohmann::ordered_json c;
    c["id"] = SafeText(r.id);
    c["engine"] = EngineOf(r.id);
    c["status"] = StatusName(r.verdict.status);
    c["phase"] = r.verdict.phase ? nlohmann::ordered_json(PhaseName(*r.verdict.phase))
                                 : nlohmann::ordered_json();
    c["reason"] = SafeText(r.verdict.reason);
    c["message"] = SafeText(r.verdict.message);
    c["repro"] = r.verdict.status == CaseStatus::kPass
                     ? nlohmann::ordered_json()
                     : nlohmann::ordered_json(SafeText(ReproCommand(r.id, library)));
    c["outputs"] = r.outputs;  // the judge's numbers and the harness's own texts
    cases.push_back(std::move(c));
  }
  nlohmann::ordered_json report;
  report["schema"] = kReportSchema;
  report["abi"] = fmt::format("{}.{}", TDC_ABI_VERSION_MAJOR, TDC_ABI_VERSION_MINOR);
  report["backend"] = {{"name", Text(info.name)},
                       {"version", Text(info.version)},
                       {"vendor", Text(info.vendor)},
                       {"environment", Text(info.environment)},
                       {"library", SafeText(library)}};
  report["tolerance"] = gpu::PolicyName(tolerance);
  report["state"] = StateName(state.state);
  report["detail"] = SafeText(state.detail);
  report["suite_guard"] = state.suite_guard;
  report["summary"] = {{"passed", tally.passed},
                       {"failed", tally.failed},
                       {"skipped", tally.skipped},
                       {"succeeded", state.state == RunState::kComplete && Succeeded(tally)}};
  report["cases"] = std::move(cases);
  return report;
}

nlohmann::ordered_json TimingsReport(const std::string& library,
                                     const std::vector<CaseResult>& results, int jobs,
                                     const ReportState& state) {
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const CaseResult& r : results) {
    cases.push_back(
        {{"id", SafeText(r.id)},
         {"engine", EngineOf(r.id)},
         {"status", StatusName(r.verdict.status)},
         {"seconds", r.seconds ? nlohmann::ordered_json(*r.seconds) : nlohmann::ordered_json()}});
  }
  return {{"schema", kTimingsSchema},
          {"library", SafeText(library)},
          {"jobs", jobs},
          {"state", StateName(state.state)},
          {"detail", SafeText(state.detail)},
          {"cases", std::move(cases)}};
}

std::string JunitReport(const tdc_backend_info& info, const std::string& library,
                        const std::vector<CaseResult>& results, bool strict,
                        const ReportState& state, const gpu::Policy& tolerance) {
  const bool complete = state.state == RunState::kComplete;
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  int failures = 0, errors = 0, skipped = 0;
  for (const CaseResult& r : results) {
    switch (KindOf(r.verdict.status, strict)) {
      case JunitKind::kFailure:
        ++failures;
        break;
      case JunitKind::kError:
        ++errors;
        break;
      case JunitKind::kSkipped:
        ++skipped;
        break;
      case JunitKind::kPassed:
        break;
    }
  }
  pugi::xml_node suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "tdconform";
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = Text(info.name).c_str();  // Text: made safe
  suite.append_attribute("tests") = static_cast<int>(results.size()) + (complete ? 0 : 1);
  suite.append_attribute("failures") = failures;
  suite.append_attribute("errors") = errors + (complete ? 0 : 1);
  suite.append_attribute("skipped") = skipped;
  pugi::xml_node properties = suite.append_child("properties");
  auto property = [&](const char* name, const std::string& value) {
    pugi::xml_node p = properties.append_child("property");
    p.append_attribute("name") = name;
    p.append_attribute("value") = value.c_str();
  };
  property("backend.version", Text(info.version));
  property("backend.vendor", Text(info.vendor));
  property("backend.environment", Text(info.environment));
  property("backend.library", SafeText(library));
  property("tdconform.tolerance", gpu::PolicyName(tolerance));
  property("abi", fmt::format("{}.{}", TDC_ABI_VERSION_MAJOR, TDC_ABI_VERSION_MINOR));
  property("tdconform.state", std::string(StateName(state.state)));
  if (!complete) {
    pugi::xml_node run = suite.append_child("testcase");
    run.append_attribute("classname") = "tdconform";
    run.append_attribute("name") = "tdconform:run";
    pugi::xml_node error = run.append_child("error");
    error.append_attribute("message") =
        SafeText(fmt::format("the run is {}: {}", StateName(state.state), state.detail)).c_str();
    error.append_attribute("type") = std::string(StateName(state.state)).c_str();
  }
  for (const CaseResult& r : results) {
    CaseIdParse parsed = ParseCaseId(r.id);
    pugi::xml_node test = suite.append_child("testcase");
    // classname: suite.group; name: the case and its parameters (the id's rest).
    const std::string classname =
        parsed.id ? fmt::format("{}.{}", parsed.id->suite, parsed.id->group) : "tdconform";
    test.append_attribute("classname") = SafeText(classname).c_str();
    test.append_attribute("name") = SafeText(r.id).c_str();
    const JunitKind kind = KindOf(r.verdict.status, strict);
    if (kind == JunitKind::kPassed) continue;
    const char* element = kind == JunitKind::kFailure ? "failure"
                          : kind == JunitKind::kError ? "error"
                                                      : "skipped";
    pugi::xml_node result = test.append_child(element);
    result.append_attribute("message") = SafeText(FormatVerdict(r.verdict)).c_str();
    if (kind != JunitKind::kSkipped) {
      result.append_attribute("type") = std::string(StatusName(r.verdict.status)).c_str();
      result.text().set(SafeText(ReproCommand(r.id, library)).c_str());
    }
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

std::optional<std::string> WriteAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = fmt::format("{}.tmp.{}", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return fmt::format("{}:1:1: error: cannot write the report", path);
    out << text;
    out.flush();
    if (!out) return fmt::format("{}:1:1: error: cannot write the report", path);
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return fmt::format("{}:1:1: error: cannot replace the report: {}", path, error.message());
  }
  return std::nullopt;
}

}  // namespace tdc::conformance
