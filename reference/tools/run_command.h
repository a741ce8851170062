// `tdref run` and `tdref explain`: running a fixture program on the reference.
#ifndef TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "reference/graph/golden.h"
#include "reference/runtime/heap.h"
#include "reference/runtime/interp/step_budget.h"

namespace tdc::tools {

// How a fixture is run: `--mode`, and in compile mode `--profile` and `--disable-rule`.
struct RunOptions {
  std::string mode = "eager";          // "eager" (runtime::RunProgram) or "compile" (dynamo)
  std::string profile = "torch-2.13";  // compile mode: the profile predicted
  // Compile mode: rules switched off, as SEMANTICS.md labels them (`R-cache-hit`; the
  // `R-` may be left out).
  std::vector<std::string> disabled_rules;
  // One heap allocation decision against the model (the allocator_divergence rerun).
  runtime::ReuseFlip reuse_flip;
  // The step budget: statements and comprehension items before the run is refused.
  int64_t max_steps = runtime::kDefaultMaxSteps;
  // Compile mode: whether invocations carry ATen graphs (the aot layer); false: Dynamo graphs
  // only, for timing the Dynamo level alone (perf/vs_torch.py).
  bool aten = true;
};

// The name code objects and messages show: the path relative to the working directory
// (the repository root, where ctest and the README run tdref), as the oracle records it.
std::string DisplayName(const std::string& file);

// Runs `file` as `options` say; its outcome as a golden document, or nullopt after
// printing why on `err`. The run modes are the comparator's (`eager`, `compile`).
std::optional<graph::Golden> RunToGolden(const std::string& file, const RunOptions& options,
                                         std::ostream& err);

// Runs `file` and prints its outcome: with `json`, a golden document (fixtures/SCHEMA.md;
// eager mode fills `eager`, compile mode `compiled[profile]`), else one line per out,
// the exception, and in compile mode one line per backend invocation and the counters.
// A file that cannot run prints its diagnostic on `err` (exit 2).
int RunRun(const std::string& file, const RunOptions& options, bool json, std::ostream& out,
           std::ostream& err);

// `tdref explain`: runs `file` in compile mode and prints Dynamo's decisions (which frames
// were converted, where each graph ends and why, what ran eagerly, how each disabled,
// allowed or forbidden callable was treated), then the compiled outcome as `run` prints it.
int RunExplain(const std::string& file, const RunOptions& options, std::ostream& out,
               std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
