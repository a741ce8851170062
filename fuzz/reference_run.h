// A fuzz program run on the reference, eagerly and under its Dynamo, with the partition
// read off the backend invocations in the oracle's terms.
#ifndef TDCONFORM_FUZZ_REFERENCE_RUN_H_
#define TDCONFORM_FUZZ_REFERENCE_RUN_H_

#include <string>

#include "fuzz/partition_oracle.h"
#include "fuzz/program.h"
#include "reference/graph/golden.h"

namespace tdc::fuzz {

struct ReferenceRun {
  std::string error;  // a diagnostic when the reference could not run the program
  graph::Outcome eager;
  graph::CompiledOutcome compiled;
  Partition partition;
};

// `disabled_rules`: Dynamo rules switched off (the fuzz gate's proof that it bites);
// `profile`: the compiled run's (fixtures/SCHEMA.md §3).
ReferenceRun RunOnReference(const Program& program,
                            const std::string& display_name = "fuzz/program.py",
                            const std::vector<std::string>& disabled_rules = {},
                            const std::string& profile = "torch-2.13");

// The partition a compiled outcome shows: each invocation's call nodes, and whether it
// ended in Unsupported.
Partition PartitionOf(const graph::CompiledOutcome& compiled);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_REFERENCE_RUN_H_
