#include "fuzz/reference_run.h"

#include "reference/aot/aot_lowering.h"
#include "reference/backends/aot_eager_run.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::fuzz {

namespace {

std::vector<std::string> CallTargets(const graph::Graph& g) {
  std::vector<std::string> targets;
  for (const graph::Node& node : g.nodes) {
    if (node.op == graph::NodeOp::kCallFunction || node.op == graph::NodeOp::kCallMethod) {
      targets.push_back(node.target);
    }
  }
  return targets;
}

}  // namespace

Partition PartitionOf(const graph::CompiledOutcome& compiled) {
  Partition partition;
  for (const graph::Invocation& invocation : compiled.invocations) {
    partition.graphs.push_back(CallTargets(invocation.dynamo_graph));
    // A graph without an ATen lowering reads as one `<no ATen graph>` op.
    partition.aten_graphs.push_back(invocation.aten_graph
                                        ? CallTargets(*invocation.aten_graph)
                                        : std::vector<std::string>{"<no ATen graph>"});
  }
  partition.unsupported =
      compiled.exception && compiled.exception->type == "torch._dynamo.exc.Unsupported";
  return partition;
}

ReferenceRun RunOnReference(const Program& program, const std::string& display_name,
                            const std::vector<std::string>& disabled_rules,
                            const std::string& profile) {
  ReferenceRun run;
  std::string source = PrintFixture(program);
  // Parsed once for both runs (a Program is immutable).
  runtime::ParsedProgram parsed = runtime::ParseProgram(source, display_name);
  auto eager = runtime::RunProgram(parsed, display_name, runtime::RunMode::kEager);
  if (auto* diagnostic = std::get_if<std::string>(&eager)) {
    run.error = *diagnostic;
    return run;
  }
  run.eager = std::get<graph::Outcome>(std::move(eager));
  dynamo::CompileRunOptions options;
  options.aten = &aot::AotLowering();
  options.disabled_rules = disabled_rules;
  options.profile = profile;
  auto compiled = dynamo::RunCompiled(parsed, display_name, options);
  if (auto* diagnostic = std::get_if<std::string>(&compiled)) {
    run.error = *diagnostic;
    return run;
  }
  run.compiled = std::get<graph::CompiledOutcome>(std::move(compiled));
  // What torch records beside it, held to the oracle like the rest (vs_oracle, generated).
  if (auto diagnostic = backends::AddAotEager(parsed, display_name, options, run.compiled)) {
    run.error = *diagnostic;
    return run;
  }
  run.partition = PartitionOf(run.compiled);
  return run;
}

}  // namespace tdc::fuzz
