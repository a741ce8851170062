// Runs canonical graphs (DESIGN.md D2) on the runtime's CPU kernels: what the reference
// backend compiles a graph to. Each call node is computed by its ops.def row, found by its
// Dynamo target (`torch.sin`, `operator.add`, a method) or its ATen overload
// (`aten.add.Tensor`); a node it has no row for (a custom op, an allowed function, a
// nonstrict_trace call) goes to the host, which runs it (tdconform_backend.h run_node).
#ifndef TDCONFORM_REFERENCE_BACKENDS_GRAPH_INTERPRETER_H_
#define TDCONFORM_REFERENCE_BACKENDS_GRAPH_INTERPRETER_H_

#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "reference/graph/graph.h"
#include "reference/runtime/tensor.h"

namespace tdc::backends {

enum class GraphLevel { kDynamo, kAten };

// Runs node `node` on the host with the tensors among its REF arguments' values, in order:
// its result tensors, or why it cannot.
using HostNode = std::function<std::variant<std::vector<runtime::Tensor>, std::string>(
    size_t node, const std::vector<runtime::Tensor>& inputs)>;

// Tensors by name: what the graph's get_attr nodes read (`_tensor_constant0`).
using Constants = std::vector<std::pair<std::string, runtime::Tensor>>;

// The graph's outputs computed from `inputs` (placeholder order), or an error naming the
// node that failed.
std::variant<std::vector<runtime::Tensor>, std::string> RunGraph(
    const graph::Graph& g, GraphLevel level, const std::vector<runtime::Tensor>& inputs,
    const Constants& constants, const HostNode& host);

}  // namespace tdc::backends

#endif  // TDCONFORM_REFERENCE_BACKENDS_GRAPH_INTERPRETER_H_
