// GraphBuilder::FinishAten: the forward graph AOT autograd hands its compiler, spliced
// from the ATen fragments of the Dynamo nodes Finish keeps (aten_lowering.h). Its
// placeholders are Dynamo's (make_fx traces the GraphModule with the same inputs, no
// source), its outputs Dynamo's outputs, and nodes nothing reaches are dropped (AOT
// autograd's dead-code elimination).
#include <algorithm>

#include "reference/dynamo/graph_builder.h"

namespace tdc::dynamo {
namespace {

// `arg` with every ref r mapped to map(r).
template <typename Map>
graph::Arg MapRefs(graph::Arg arg, const Map& map) {
  if (arg.kind == graph::ValueKind::kRef) arg.integer = map(arg.integer);
  for (graph::Arg& item : arg.items) item = MapRefs(std::move(item), map);
  return arg;
}

void MarkUsed(const graph::Arg& arg, std::vector<bool>& used) {
  if (arg.kind == graph::ValueKind::kRef) used[static_cast<size_t>(arg.integer)] = true;
  for (const graph::Arg& item : arg.items) MarkUsed(item, used);
}

// A node torch.fx keeps though nothing uses it (its _side_effectful_functions, of those the
// reference makes).
bool Impure(const graph::Node& n) { return n.target == "aten._assert_async.msg"; }

// Drops the call nodes no output depends on, renumbering refs.
graph::Graph WithoutDeadNodes(const graph::Graph& g) {
  std::vector<bool> used(g.nodes.size(), false);
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const graph::Node& n = g.nodes[i];
    bool live = n.op == graph::NodeOp::kOutput || n.op == graph::NodeOp::kPlaceholder ||
                Impure(n) || used[i];
    if (!live) continue;
    used[i] = true;
    for (const graph::Arg& a : n.args) MarkUsed(a, used);
    for (const auto& [name, a] : n.kwargs) MarkUsed(a, used);
  }
  std::vector<int64_t> index(g.nodes.size(), -1);
  graph::Graph out;
  auto renumber = [&](int64_t r) { return index[static_cast<size_t>(r)]; };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!used[i]) continue;
    graph::Node n = g.nodes[i];
    for (graph::Arg& a : n.args) a = MapRefs(std::move(a), renumber);
    for (auto& [name, a] : n.kwargs) a = MapRefs(std::move(a), renumber);
    index[i] = static_cast<int64_t>(out.nodes.size());
    out.nodes.push_back(std::move(n));
  }
  return out;
}

}  // namespace

graph::Graph GraphBuilder::FinishAten(const std::vector<bool>& kept,
                                      const std::vector<int64_t>& outputs,
                                      const PlaceholderOrder& order, std::string& unsupported,
                                      std::vector<Value>& constants) const {
  graph::Graph g;
  for (size_t input : order.inputs) {
    graph::Node ph = inputs_[input].placeholder;
    ph.source = std::nullopt;
    ph.requires_grad = false;  // AOT autograd traces detached inputs
    g.nodes.push_back(std::move(ph));
  }
  // The ATen refs of each call's result tensors.
  std::vector<std::vector<int64_t>> results(calls_.size());
  auto resolve = [&](int64_t internal) {
    return internal < 0 ? order.position[static_cast<size_t>(-internal - 1)]
                        : results[static_cast<size_t>(internal)].at(0);
  };
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (!kept[i]) continue;
    const AtenSide& side = aten_[i];
    if (side.item_of >= 0) {
      results[i] = {results[static_cast<size_t>(side.item_of)].at(side.item)};
      continue;
    }
    if (!side.fragment.unsupported.empty()) {
      unsupported = side.fragment.unsupported;
      return {};
    }
    std::vector<int64_t> inputs;
    for (int64_t internal : side.inputs) inputs.push_back(resolve(internal));
    const auto first = static_cast<int64_t>(g.nodes.size());
    auto place = [&](int64_t r) {
      return r >= 0 ? first + r : inputs[static_cast<size_t>(-r - 1)];
    };
    size_t next_constant = 0;
    for (graph::Node n : side.fragment.nodes) {
      // make_fx names the graph module's tensor constants as it meets them, one name per
      // tensor object however often it is read (fixtures/nonstrict_trace/captured_constants).
      if (n.op == graph::NodeOp::kGetAttr) {
        const Value& tensor = side.fragment.constants.at(next_constant++);
        auto seen = std::find(constants.begin(), constants.end(), tensor);
        n.target += std::to_string(seen - constants.begin());
        if (seen == constants.end()) constants.push_back(tensor);
      }
      for (graph::Arg& a : n.args) a = MapRefs(std::move(a), place);
      for (auto& [name, a] : n.kwargs) a = MapRefs(std::move(a), place);
      g.nodes.push_back(std::move(n));
    }
    for (int64_t r : side.fragment.outputs) results[i].push_back(place(r));
  }
  std::vector<graph::Arg> refs;
  for (int64_t ref : outputs) refs.push_back(graph::Arg::Ref(resolve(ref)));
  graph::Node output;
  output.op = graph::NodeOp::kOutput;
  output.args.push_back(graph::Arg::Sequence(graph::ValueKind::kTuple, std::move(refs)));
  g.nodes.push_back(std::move(output));
  return WithoutDeadNodes(g);
}

}  // namespace tdc::dynamo
