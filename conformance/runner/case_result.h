// A case's result as the runner keeps it: its id, its verdict, what its process sent back.
// Apart from runner.h so that what reads and writes the case files (expectations.h,
// selection.h: the library tdc_case_files) needs no executor.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_CASE_RESULT_H_
#define TDCONFORM_CONFORMANCE_RUNNER_CASE_RESULT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/executor/case_record.h"
#include "conformance/executor/verdict.h"

namespace tdc::conformance {

struct CaseResult {
  std::string id;
  Verdict verdict;
  // What the case sent back (case_record.h): given to OnResult, then dropped (a run keeps
  // only the verdicts).
  std::vector<CaseRecord> records = {};
  // Every output the policy judged (the `parity` records' outputs, each with its graph's
  // index and name): kept for the report.
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  // Wall-clock seconds from the case's start to its verdict (its processes: the judge's and
  // the backend's); none for a case decided without running (SKIPPED, a harness error before
  // it started, a generated case decided beforehand).
  std::optional<double> seconds = std::nullopt;
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_CASE_RESULT_H_
