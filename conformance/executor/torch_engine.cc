#include "conformance/executor/torch_engine.h"

#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <optional>

#include "conformance/executor/aten_expectation.h"
#include "conformance/executor/safe_text.h"
#include "conformance/python/python_backend.h"
#include "reference/compare/comparator.h"
#include "reference/graph/golden_json.h"

namespace tdc::conformance {

namespace {

tdc_python_engine_run_fn EngineOf(const LoadedBackend& backend) {
  return reinterpret_cast<tdc_python_engine_run_fn>(backend.Symbol(TDC_PYTHON_ENGINE_RUN));
}

// What the backend did wrong, as the engine kept it: an exception compiling or running
// (BACKEND_ERROR) or an output handed out twice (FAIL compare/output_aliased).
// (By value, as the answer below: operator[] on a const json with a key the case's process left
// out is undefined, on a copy it is null.)
std::optional<Verdict> FaultVerdict(nlohmann::json fault) {
  if (!fault.is_object() || !fault["phase"].is_string() || !fault["reason"].is_string() ||
      !fault["summary"].is_string() || !fault["message"].is_string())
    return std::nullopt;
  std::optional<CasePhase> phase = ParsePhase(fault["phase"].get<std::string>());
  if (!phase) return std::nullopt;
  const std::string reason = fault["reason"].get<std::string>();
  const std::string summary = SafeText(fault["summary"].get<std::string>());
  const std::string message = SafeText(fault["message"].get<std::string>());
  return Verdict::Of(reason == "output_aliased" ? CaseStatus::kFail : CaseStatus::kBackendError,
                     *phase, reason, message == summary ? summary : summary + "\n" + message);
}

// tdconform's failure, never the backend's: the engine's (phase trace) or the golden's (parse).
Verdict Harness(const std::string& reason, const std::string& message,
                CasePhase phase = CasePhase::kTrace) {
  return Verdict::Of(CaseStatus::kHarnessError, phase, reason, message);
}

}  // namespace

nlohmann::json RunUnderTorch(const LoadedBackend& backend, const std::string& fixture,
                             const std::string& profile) {
  nlohmann::json answer = {{"call", "torch_run"}};
  tdc_python_engine_run_fn run = EngineOf(backend);
  if (run == nullptr) {
    answer.update({{"ok", false},
                   {"error", fmt::format("{} is no Python backend: torch: cases run a "
                                         "py:MODULE:ATTR callable under torch.compile",
                                         backend.path())}});
    return answer;
  }
  char message[16384] = "";
  std::unique_ptr<char, decltype(&std::free)> text(
      run(fixture.c_str(), profile.c_str(), message, sizeof message), &std::free);
  if (!text) {
    answer.update({{"ok", false}, {"error", std::string(message)}});
    return answer;
  }
  nlohmann::json result = nlohmann::json::parse(text.get(), nullptr, false);
  if (!result.is_object()) {
    answer.update({{"ok", false}, {"error", "the torch engine's answer is no JSON object"}});
    return answer;
  }
  answer.update(result);
  return answer;
}

Verdict JudgeTorchRun(const std::deque<nlohmann::json>& calls, const std::string& golden_text,
                      const std::string& profile, const Verdict& ended, const Record& record) {
  if (calls.size() != 1 || !calls.front().is_object()) return ended;
  nlohmann::json answer = calls.front();  // untrusted: what the case's process sent
  if (answer["call"] != "torch_run" || !answer["ok"].is_boolean()) return ended;
  if (!answer["ok"].get<bool>()) {
    const nlohmann::json& error = answer["error"];
    return Harness("torch_engine_error",
                   SafeText(error.is_string() ? error.get<std::string>() : "(no message)"));
  }
  if (answer["faults"].is_array() && !answer["faults"].empty()) {
    std::optional<Verdict> fault = FaultVerdict(answer["faults"].front());
    return fault ? *fault : Harness("torch_engine_error", "a malformed fault");
  }
  // The golden with this run's outcome in place of the profile's: read by the one reader and
  // compared by the one comparator (DESIGN D12), ATen fields left out (the engine has none).
  nlohmann::json document = nlohmann::json::parse(golden_text, nullptr, false);
  if (!document.is_object() || !document["compiled"].is_object() ||
      !document["compiled"].contains(profile))
    return Harness("bad_golden", fmt::format("the golden records no outcome at {}", profile),
                   CasePhase::kParse);
  graph::GoldenReadResult expected = graph::ReadGolden(golden_text);
  document["compiled"][profile] = answer["outcome"];
  graph::GoldenReadResult actual = graph::ReadGolden(document.dump());
  if (!expected.golden) return Harness("bad_golden", "the golden does not read", CasePhase::kParse);
  if (answer["computes"] == "aten") {
    if (std::optional<std::string> missing = HoldToAotEager(*expected.golden, profile))
      return Harness("bad_golden", *missing, CasePhase::kParse);
  }
  if (!actual.golden)
    return Harness("torch_engine_error", "the outcome does not read: " +
                                             graph::FormatJsonError("outcome", *actual.error));
  compare::CompareOptions options;
  options.mode = compare::Mode::kCompile;
  options.profile = profile;
  options.masked = *compare::MaskFields("aten");
  options.significant_strides_only = true;
  compare::CompareResult result = compare::Compare(*expected.golden, *actual.golden, options);
  if (result.error)
    return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kCompare, "compare_error",
                       *result.error);
  if (!result.differences.empty()) {
    if (record) {
      record({"expected", graph::ToJson(*expected.golden)});
      record({"outcome", graph::ToJson(*actual.golden)});
    }
    return Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, "value_mismatch",
                       compare::FormatDifference(result.differences.front()));
  }
  nlohmann::json& counters = answer["outcome"]["counters"];
  if (counters.is_object() && counters["frame_count"] == 0)
    return Verdict{CaseStatus::kPass, std::nullopt, "", "no graph reached the backend"};
  return Verdict::Pass();
}

}  // namespace tdc::conformance
