// What a case's process hands back besides its verdict, for the folder the runner keeps of
// each failure (conformance/runner/failure_folder.h). It is sent as it happens, so a case
// that crashes or hangs has still sent the graph it was running and that graph's inputs.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_CASE_RECORD_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_CASE_RECORD_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace tdc::conformance {

// The kinds, each a JSON object:
//   graph            {index, what, graph, inputs, expected}: a graph about to be given to the
//                    backend (canonical graph JSON), its inputs and the reference's outputs;
//   backend_outputs  {index, outputs}: what the backend returned for graph `index`;
//   expected         when the program's outcome differs: the golden document it is
//                    compared with (at the ATen level its values are the ATen graphs',
//                    interpreting_backend.h);
//   outcome          with it: the same document with the backend's run as its compiled
//                    outcome (fixtures/SCHEMA.md).
struct CaseRecord {
  std::string kind;
  nlohmann::ordered_json body;
};

// Empty where nobody keeps the records (the case's own process: the judge's count).
using Record = std::function<void(const CaseRecord& record)>;

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_CASE_RECORD_H_
