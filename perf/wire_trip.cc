#include "perf/wire_trip.h"

#include <utility>
#include <variant>
#include <vector>

#include "conformance/abi/wire.h"

namespace tdc::perf {

graph::Graph ChainGraph(int64_t ops) {
  graph::Graph g;
  graph::Node input;
  input.op = graph::NodeOp::kPlaceholder;
  input.type = "tensor";
  input.shape = std::vector<int64_t>{4};
  input.dtype = graph::DType::kFloat32;
  input.requires_grad = false;
  input.source = "L['x']";
  g.nodes.push_back(std::move(input));
  for (int64_t i = 0; i < ops; ++i) {
    graph::Node add;
    add.target = "torch.add";
    add.args = {graph::Value::Ref(i), graph::Value::Float(1.0)};
    g.nodes.push_back(std::move(add));
  }
  graph::Node output;
  output.op = graph::NodeOp::kOutput;
  output.args = {graph::Value::Sequence(graph::ValueKind::kTuple, {graph::Value::Ref(ops)})};
  g.nodes.push_back(std::move(output));
  return g;
}

std::optional<std::string> WireRoundTrip(const graph::Graph& g) {
  conformance::WireGraph wire(g, TDC_GRAPH_LEVEL_DYNAMO, "__compiled_fn_1");
  auto decoded = conformance::DecodeGraph(wire.get());
  if (auto* error = std::get_if<std::string>(&decoded)) return *error;
  return std::nullopt;
}

}  // namespace tdc::perf
