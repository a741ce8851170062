// A compiler backend for the graphs the reference hands torch.compile's backend (DESIGN.md
// D5): with one installed, every graph sent to the backend is also compiled and run by it,
// and its outputs replace the values the reference computed, so the rest of the program
// runs on them. The conformance executor implements it over the C ABI
// (conformance/executor); without one, the reference computes every graph itself.
#ifndef TDCONFORM_REFERENCE_RUNTIME_GRAPH_BACKEND_H_
#define TDCONFORM_REFERENCE_RUNTIME_GRAPH_BACKEND_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "reference/graph/graph.h"
#include "reference/runtime/tensor.h"

namespace tdc::runtime {

class GraphBackend {
 public:
  virtual ~GraphBackend() = default;

  // Runs node `node` of a graph on the host (an opaque node: a custom op, an allowed
  // function, a nonstrict_trace call) on `inputs`, the tensors its REFs name in order; its
  // result tensors in order, or an error text.
  using HostNode = std::function<std::variant<std::vector<Tensor>, std::string>(
      size_t node, const std::vector<Tensor>& inputs)>;

  struct Graphs {
    // Which compile made the graph (the n-th graph sent to the backend): a cache hit runs
    // an earlier compile's graph again, which a backend runs without compiling it again.
    size_t compile = 0;
    std::string compile_id;  // torch's id of that compile, for messages
    const graph::Graph* dynamo;
    const graph::Graph* aten;      // null when AOT autograd's capture failed
    std::vector<Tensor> inputs;    // placeholder order
    std::vector<Tensor> expected;  // the outputs as the reference computed them
    // The ATen graph's tensor constants, by get_attr target (`_tensor_constant0`).
    std::vector<std::pair<std::string, Tensor>> aten_constants;
    HostNode dynamo_host;  // for nodes of `dynamo`
    HostNode aten_host;    // for nodes of `aten`
  };

  // The graph's outputs as the backend computed them, in output order; nullopt when the
  // backend failed on it (the backend records why; the reference's values stay).
  virtual std::optional<std::vector<Tensor>> Run(const Graphs& graphs) = 0;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_GRAPH_BACKEND_H_
