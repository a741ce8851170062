#include "fuzz/reference_run.h"

#include "reference/aot/aot_lowering.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::fuzz {

Partition PartitionOf(const graph::CompiledOutcome& compiled) {
  Partition partition;
  for (const graph::Invocation& invocation : compiled.invocations) {
    std::vector<std::string> targets;
    for (const graph::Node& node : invocation.dynamo_graph.nodes) {
      if (node.op == graph::NodeOp::kCallFunction || node.op == graph::NodeOp::kCallMethod) {
        targets.push_back(node.target);
      }
    }
    partition.graphs.push_back(std::move(targets));
  }
  partition.unsupported = compiled.exception && compiled.exception->type == "torch._dynamo.exc.Unsupported";
  return partition;
}

ReferenceRun RunOnReference(const Program& program, const std::string& display_name,
                            const std::vector<std::string>& disabled_rules) {
  ReferenceRun run;
  std::string source = PrintFixture(program);
  auto eager = runtime::RunProgram(source, display_name, runtime::RunMode::kEager);
  if (auto* diagnostic = std::get_if<std::string>(&eager)) {
    run.error = *diagnostic;
    return run;
  }
  run.eager = std::get<graph::Outcome>(std::move(eager));
  dynamo::CompileRunOptions options;
  options.aten = &aot::AotLowering();
  options.disabled_rules = disabled_rules;
  auto compiled = dynamo::RunCompiled(source, display_name, options);
  if (auto* diagnostic = std::get_if<std::string>(&compiled)) {
    run.error = *diagnostic;
    return run;
  }
  run.compiled = std::get<graph::CompiledOutcome>(std::move(compiled));
  run.partition = PartitionOf(run.compiled);
  return run;
}

}  // namespace tdc::fuzz
