// The must-pass core set (conformance/core-set.txt): the cases every backend must PASS,
// NOT_SUPPORTED and REJECTED counting as FAIL there (DESIGN.md D7). A case is in it when
// torch recorded at least one graph for it and every graph, at the case's level, is
// float32 elementwise: float32 tensor inputs, and call nodes that are pointwise ops of
// ops.def with a float result (not a comparison or where), their operands tensors or
// Python numbers, no keyword arguments.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_CORE_SET_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_CORE_SET_H_

#include <string>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "reference/graph/golden.h"

namespace tdc::conformance {

bool IsFloat32Elementwise(const graph::Graph& g, tdc_graph_level level);

// Whether the case of this recorded outcome at `level` belongs to the core set.
bool InCoreSet(const graph::CompiledOutcome& recorded, tdc_graph_level level);

// The core set's ids among `fixtures` (fixtures/<group>/<name>.py; their goldens beside
// them) at `profile`, both levels, in the order given.
std::vector<std::string> CoreSet(const std::vector<std::string>& fixtures,
                                 const std::string& profile);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_CORE_SET_H_
