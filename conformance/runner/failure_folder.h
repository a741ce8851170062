// A folder for each failure: <dir>/<case id>/ holds what it takes to look at a failed case
// without running it again:
//   case.json        the id, the verdict, the repro command and the program's path
//   program.py       the case's program (a fixture, or a generated program)
//   expected.json    its expected outcome (the golden document beside the program; when the
//                    program's outcome differed, the document it was compared with)
//   actual.json      when the program's outcome differed: the same document with the
//                    backend's run as the compiled outcome
//   reference.json   for a program generated with torch's outcome expected: the reference's
//                    (where the two disagree, the case is the suite's fault)
//   graphs/<k>.json  each graph the backend was given, in the order they ran: the canonical
//                    graph, its inputs, the reference's outputs and what the backend returned
// A folder is written whole under a temporary name, then swapped in for the case's old one, so
// a reader never sees half of one. A case that no longer fails has its old folder removed.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_FAILURE_FOLDER_H_
#define TDCONFORM_CONFORMANCE_RUNNER_FAILURE_FOLDER_H_

#include <optional>
#include <string>

#include "conformance/runner/runner.h"

namespace tdc::conformance {

// Whether `result` gets a folder: its verdict counts as failed.
bool KeepsFolder(const CaseResult& result);

// Writes (or removes) `result`'s folder under `dir`; `generated_dir` resolves generated cases'
// programs. An error text when it cannot.
std::optional<std::string> UpdateFailureFolder(const std::string& dir,
                                               const std::string& generated_dir,
                                               const CaseResult& result, const std::string& repro);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_FAILURE_FOLDER_H_
