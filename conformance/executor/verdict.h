// A case's result (DESIGN.md D7): a status, and for anything but PASS the phase it ended in,
// a reason code and a one-line message. Serialized as JSON between the executor's child and
// its parent, and into reports.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_VERDICT_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_VERDICT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace tdc::conformance {

enum class CaseStatus {
#define TDC_CASE_STATUS(Enum, Name, Counts) Enum,
#include "conformance/executor/statuses.def"
#undef TDC_CASE_STATUS
};
enum class CasePhase {
#define TDC_CASE_PHASE(Enum, Name) Enum,
#include "conformance/executor/phases.def"
#undef TDC_CASE_PHASE
};
// How the closing line counts a status.
enum class Counts { kPassed, kFailed, kSkipped };

std::string_view StatusName(CaseStatus status);
std::optional<CaseStatus> ParseStatus(std::string_view name);
Counts CountsAs(CaseStatus status);
std::string_view PhaseName(CasePhase phase);
std::optional<CasePhase> ParsePhase(std::string_view name);

struct Verdict {
  CaseStatus status = CaseStatus::kPass;
  std::optional<CasePhase> phase;
  std::string reason;   // a code: value_mismatch, rejected_required, abi_version, ...
  std::string message;  // one line
  static Verdict Pass() { return {}; }
  static Verdict Of(CaseStatus status, CasePhase phase, std::string reason, std::string message) {
    return {status, phase, std::move(reason), std::move(message)};
  }
};

// `STATUS phase/reason: message` (`PASS` alone).
std::string FormatVerdict(const Verdict& v);
nlohmann::json ToJson(const Verdict& v);
std::optional<Verdict> VerdictFromJson(const nlohmann::json& j);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_VERDICT_H_
