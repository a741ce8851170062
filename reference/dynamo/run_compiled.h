// The reference's compile mode: runs one fixture program as the oracle's child does under
// torch.compile (D11) and predicts what real torch 2.13.0 records: every backend
// invocation with its Dynamo graph, counters, graph-break records, outs and exception.
#ifndef TDCONFORM_REFERENCE_DYNAMO_RUN_COMPILED_H_
#define TDCONFORM_REFERENCE_DYNAMO_RUN_COMPILED_H_

#include <string>
#include <variant>
#include <vector>

#include "reference/dynamo/aten_lowering.h"
#include "reference/graph/golden.h"
#include "reference/runtime/graph_backend.h"
#include "reference/runtime/heap.h"
#include "reference/runtime/interp/run_program.h"
#include "reference/runtime/interp/step_budget.h"

namespace tdc::dynamo {

struct CompileRunOptions {
  std::string profile = "torch-2.13";
  // Rules switched off (rules.def labels without the `R-` prefix), for the switch-off tests.
  std::vector<std::string> disabled_rules;
  // One allocation decision taken against the heap's model (allocator_divergence, D1).
  runtime::ReuseFlip reuse_flip;
  // The step budget (runtime/interp/step_budget.h).
  int64_t max_steps = runtime::kDefaultMaxSteps;
  // The ATen level (reference/aot's implementation); null: invocations carry no ATen graph.
  AtenLowering* aten = nullptr;
  // A backend that also compiles and runs every graph sent to the recording backend, its
  // outputs replacing the reference's (runtime/graph_backend.h); null: none.
  runtime::GraphBackend* backend = nullptr;
};

// The profiles the reference predicts.
bool IsKnownProfile(const std::string& profile);
std::vector<std::string> KnownProfiles();

// A compiled run with Dynamo's decisions in words (`tdref explain`).
struct Explained {
  graph::CompiledOutcome outcome;
  std::vector<std::string> explanation;  // one line per decision, indented by nesting
};
std::variant<Explained, std::string> RunExplained(const std::string& source,
                                                  const std::string& display_name,
                                                  const CompileRunOptions& options);

// The program's compiled outcome under `options.profile`, or a diagnostic
// (`file:line:col: error: ...`, D10) when the file does not parse, leaves the subset, or
// names an unknown profile or rule.
std::variant<graph::CompiledOutcome, std::string> RunCompiled(const std::string& source,
                                                              const std::string& display_name,
                                                              const CompileRunOptions& options);

// The same on a program parsed once (runtime::ParseProgram), as the fuzzers share it with
// the eager run.
std::variant<graph::CompiledOutcome, std::string> RunCompiled(const runtime::ParsedProgram& parsed,
                                                              const std::string& display_name,
                                                              const CompileRunOptions& options);
std::variant<Explained, std::string> RunExplained(const runtime::ParsedProgram& parsed,
                                                  const std::string& display_name,
                                                  const CompileRunOptions& options);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_RUN_COMPILED_H_
