// The fuzzers' independent oracle (research/fuzz-anchors.md §6.3 (1), legacy mode): the
// graph partition torch 2.13.0's Dynamo makes of a fuzz program, classic or with nested
// graph breaks, computed from the spec (dynamo-semantics.md §3.3, §3.4) by a per-frame
// scan of the program tree (one level per function a frame traces),
// with no code shared with the reference's tracer (its target links nothing of it), and
// the helpers' ids from its own reading of the id model (SEMANTICS §6).
#ifndef TDCONFORM_FUZZ_PARTITION_ORACLE_H_
#define TDCONFORM_FUZZ_PARTITION_ORACLE_H_

#include <string>
#include <vector>

#include "fuzz/program.h"

namespace tdc::fuzz {

struct Partition {
  // The graphs the backend gets, in order, each as its call nodes' targets.
  std::vector<std::vector<std::string>> graphs;
  // The same graphs at the ATen level (AOT autograd's forward graphs), each as its ops.
  std::vector<std::vector<std::string>> aten_graphs;
  // fullgraph=True and the entry's trace meets a graph break: Unsupported, no graph.
  bool unsupported = false;
};

// `nested_graph_breaks`: the profile torch-2.13-ngb (spec §3.4) instead of the classic one.
Partition PredictPartition(const Program& program, bool nested_graph_breaks = false);

// Per statement of each function: what `torch.compiler.is_compiling()` returns there on
// the entry's first call (True while Dynamo traces it, False where it runs eagerly: a
// disabled function's body, an allowed function's body run by the graph, a skipped frame,
// the rest of a frame after a step back; SEMANTICS §8.4). Under fullgraph with a break
// nothing runs: all False.
std::vector<std::vector<bool>> PredictIsCompiling(const Program& program,
                                                  bool nested_graph_breaks = false);

// `[torch.tanh operator.mul] [f2]`, preceded by `Unsupported; ` when it is one.
std::string FormatPartition(const Partition& partition);
// `[aten.tanh.default aten.mul.Tensor] [aten.sqrt.default]`.
std::string FormatAtenPartition(const Partition& partition);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_PARTITION_ORACLE_H_
