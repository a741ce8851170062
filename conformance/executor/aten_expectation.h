// What a backend given ATen graphs is checked against, computed once per case: the reference's
// own run of the program with every graph's ATen form run by the graph interpreter
// (backends::InterpretingBackend), as torch runs a program with an ATen-level backend
// (aot_eager). Its outcome replaces the golden's values; each graph it ran is what the
// backend's run of the same graph must give.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_ATEN_EXPECTATION_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_ATEN_EXPECTATION_H_

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "conformance/executor/verdict.h"
#include "reference/backends/interpreting_backend.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden.h"

namespace tdc::conformance {

struct AtenExpectation {
  // HARNESS_ERROR in phase lower when the reference could not run the program at this level;
  // what it computed until then is kept.
  std::optional<Verdict> failure;
  graph::CompiledOutcome outcome;
  std::vector<backends::InterpretingBackend::Computed> graphs;  // in the order they were sent
};

// The reference's run of `source` (named `display_name`) with `run`'s profile and lowering.
AtenExpectation ExpectAtAten(const std::string& source, const std::string& display_name,
                             dynamo::CompileRunOptions run);

// The outputs `graphs`, the n-th graph the program sent to the backend, must have: the
// reference's from `expectation` when it ran the same compile there on the same inputs;
// otherwise (the backend's earlier outputs, which the program goes on with, changed them)
// computed now from these inputs. An error text when the interpreter cannot run the graph.
std::variant<std::vector<runtime::Tensor>, std::string> ExpectedAtenOutputs(
    const AtenExpectation& expectation, size_t n, const runtime::GraphBackend::Graphs& graphs);

// Holds a backend whose graphs run at the ATen level (given ATen graphs, or lowering Dynamo's
// through AOTAutograd) to what torch computes that way: `golden`'s outputs and exception at
// `profile` become its aot_eager outcome's, or `fallback`'s where it records none (a generated
// case's expected outcome from the reference). The golden was recorded with the Dynamo graphs
// run; values that read is_compiling() inside an allowed body differ by level. An error text
// when there is neither.
std::optional<std::string> HoldToAotEager(graph::Golden& golden, const std::string& profile,
                                          const graph::Outcome* fallback = nullptr);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_ATEN_EXPECTATION_H_
