#include "conformance/executor/verdict.h"

#include <fmt/format.h>

namespace tdc::conformance {

namespace {

struct StatusRow {
  CaseStatus status;
  std::string_view name;
  Counts counts;
};
constexpr StatusRow kStatuses[] = {
#define TDC_CASE_STATUS(Enum, Name, Count) {CaseStatus::Enum, Name, Counts::Count},
#include "conformance/executor/statuses.def"
#undef TDC_CASE_STATUS
};
struct PhaseRow {
  CasePhase phase;
  std::string_view name;
};
constexpr PhaseRow kPhases[] = {
#define TDC_CASE_PHASE(Enum, Name) {CasePhase::Enum, Name},
#include "conformance/executor/phases.def"
#undef TDC_CASE_PHASE
};

}  // namespace

std::string_view StatusName(CaseStatus status) {
  return kStatuses[static_cast<size_t>(status)].name;
}
Counts CountsAs(CaseStatus status) { return kStatuses[static_cast<size_t>(status)].counts; }
std::string_view PhaseName(CasePhase phase) { return kPhases[static_cast<size_t>(phase)].name; }

std::optional<CaseStatus> ParseStatus(std::string_view name) {
  for (const StatusRow& row : kStatuses) {
    if (row.name == name) return row.status;
  }
  return std::nullopt;
}

std::optional<CasePhase> ParsePhase(std::string_view name) {
  for (const PhaseRow& row : kPhases) {
    if (row.name == name) return row.phase;
  }
  return std::nullopt;
}

std::string FormatVerdict(const Verdict& v) {
  if (!v.phase)
    return v.message.empty() ? std::string(StatusName(v.status))
                             : fmt::format("{}: {}", StatusName(v.status), v.message);
  return fmt::format("{} {}/{}: {}", StatusName(v.status), PhaseName(*v.phase), v.reason,
                     v.message);
}

nlohmann::json ToJson(const Verdict& v) {
  nlohmann::json j = {
      {"status", StatusName(v.status)}, {"reason", v.reason}, {"message", v.message}};
  j["phase"] = v.phase ? nlohmann::json(PhaseName(*v.phase)) : nlohmann::json(nullptr);
  return j;
}

std::optional<Verdict> VerdictFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("status") || !j["status"].is_string()) return std::nullopt;
  std::optional<CaseStatus> status = ParseStatus(j["status"].get<std::string>());
  if (!status) return std::nullopt;
  Verdict v;
  v.status = *status;
  if (j.contains("phase") && j["phase"].is_string())
    v.phase = ParsePhase(j["phase"].get<std::string>());
  if (j.contains("reason") && j["reason"].is_string()) v.reason = j["reason"].get<std::string>();
  if (j.contains("message") && j["message"].is_string())
    v.message = j["message"].get<std::string>();
  return v;
}

}  // namespace tdc::conformance
