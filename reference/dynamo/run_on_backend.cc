// A graph sent to the recording backend, compiled and run by an installed GraphBackend
// too (runtime/graph_backend.h), and run again on each cache hit of its compile: its
// outputs replace the values the reference computed,
// element by element in the same tensors, so the rest of the program runs on what the
// backend computed; the opaque nodes it hands back run again on the host (RunOpaque).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/graph/golden_json.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// `v` with its tensors (TensorsOf order) replaced by `tensors[next...]`.
Value Substitute(Heap& heap, const Value& v, const std::vector<Tensor>& tensors, size_t& next) {
  runtime::CheckStackLeft();
  if (Is<PyTensor>(v)) return next < tensors.size() ? Value(heap.NewTensor(tensors[next++])) : v;
  std::vector<Value> items;
  if (const auto* tuple = DynCast<PyTuple>(v)) {
    for (const Value& item : tuple->items()) items.push_back(Substitute(heap, item, tensors, next));
    return heap.NewTuple(std::move(items), tuple->torch_size());
  }
  if (const auto* list = DynCast<PyList>(v)) {
    for (const Value& item : list->items()) items.push_back(Substitute(heap, item, tensors, next));
    return heap.NewList(std::move(items));
  }
  return v;
}

// The Dynamo node an opaque ATen node (a custom op's `ns.op.default`) comes from: the
// Dynamo node of the same op (or its packet), met as many times before it.
size_t DynamoNodeOf(const graph::Graph& dynamo, const graph::Graph& aten, size_t aten_node) {
  const std::string& target = aten.nodes[aten_node].target;
  size_t nth = 0;
  for (size_t i = 0; i < aten_node; ++i) nth += aten.nodes[i].target == target ? 1 : 0;
  for (size_t i = 0; i < dynamo.nodes.size(); ++i) {
    const std::string& t = dynamo.nodes[i].target;
    if ((t == target || t + ".default" == target) && nth-- == 0) return i;
  }
  return dynamo.nodes.size();
}

// Writes `from`'s elements into `into` (same shape and dtype), in logical order.
void Overwrite(const Tensor& into, const Tensor& from) {
  std::vector<int64_t> to = into.ElementOffsets();
  std::vector<int64_t> source = from.ElementOffsets();
  for (size_t i = 0; i < to.size(); ++i) into.Store(to[i], from.Load(source[i]));
}

}  // namespace

void Dynamo::RunOnBackend(const graph::Invocation& call, size_t compile,
                          const FinishedGraphs& graphs) {
  if (backend_ == nullptr) return;
  GraphBackend::Graphs g;
  g.compile = compile;
  g.compile_id = call.compile_id;
  g.dynamo = &call.dynamo_graph;
  g.aten = call.aten_graph ? &*call.aten_graph : nullptr;
  for (const Value& v : graphs.inputs) g.inputs.push_back(DynCast<PyTensor>(v)->tensor());
  for (const Value& v : graphs.outputs) g.expected.push_back(DynCast<PyTensor>(v)->tensor());
  g.dynamo_host = [&](size_t node, const std::vector<Tensor>& inputs) {
    return RunOpaque(graphs, node, inputs);
  };
  g.aten_host = [&](size_t node, const std::vector<Tensor>& inputs) {
    const size_t from = DynamoNodeOf(*g.dynamo, *g.aten, node);
    if (from < graphs.opaque.size() && graphs.opaque[from]) return RunOpaque(graphs, from, inputs);
    return RunAtenCustomOp(g.aten->nodes[node], node, inputs);
  };
  // make_fx names the k-th constant a fragment lifted `_tensor_constant<k>`.
  for (size_t k = 0; k < graphs.aten_constants.size(); ++k) {
    g.aten_constants.emplace_back(fmt::format("_tensor_constant{}", k),
                                  DynCast<PyTensor>(graphs.aten_constants[k])->tensor());
  }
  std::optional<std::vector<Tensor>> outputs = backend_->Run(g);
  if (!outputs || outputs->size() != graphs.outputs.size()) return;
  for (size_t i = 0; i < outputs->size(); ++i) {
    const Tensor& into = DynCast<PyTensor>(graphs.outputs[i])->tensor();
    const Tensor& from = (*outputs)[i];
    if (from.dtype == into.dtype && from.sizes == into.sizes && from.storage) Overwrite(into, from);
  }
}

void Dynamo::RunCachedOnBackend(Trace& t, const std::vector<Value>& live, bool one_graph) {
  if (backend_ == nullptr || !t.cached_invocation) return;
  const size_t compile = *std::exchange(t.cached_invocation, std::nullopt);
  // The trace of a cache hit builds the graph as the compile did; one that did not (a
  // difference the reference does not model) keeps the reference's values.
  FinishedGraphs graphs = t.graph.Finish(live, one_graph, t.grad_enabled);
  const graph::Invocation& compiled = records_.invocations.at(compile);
  if (graph::ToJson(compiled.dynamo_graph) != graph::ToJson(graphs.dynamo)) return;
  RunOnBackend(compiled, compile, graphs);
}

std::variant<std::vector<Tensor>, std::string> Dynamo::RunOpaque(
    const FinishedGraphs& graphs, size_t node, const std::vector<Tensor>& inputs) {
  if (node >= graphs.opaque.size() || !graphs.opaque[node]) {
    return fmt::format(
        "node {} is not an opaque call (a custom op, an allowed function, a nonstrict_trace call)",
        node);
  }
  const OpaqueCall& opaque = *graphs.opaque[node];
  const size_t expected = TensorsOf(opaque.args).size();
  if (inputs.size() != expected)
    return fmt::format("node {} takes {} tensors, got {}", node, expected, inputs.size());
  size_t next = 0;
  CallArgs args;
  for (const Value& v : opaque.args.positional)
    args.positional.push_back(Substitute(in_.heap(), v, inputs, next));
  for (const auto& [name, v] : opaque.args.keywords)
    args.keywords.emplace_back(name, Substitute(in_.heap(), v, inputs, next));
  return CallOnHost(opaque.callee, std::move(args), node);
}

std::variant<std::vector<Tensor>, std::string> Dynamo::CallOnHost(const Value& callee,
                                                                  CallArgs args, size_t node) {
  Value result;
  try {
    // It runs as the compiled graph runs it: nothing traced, no frame offered.
    EagerRegion eager(*this, true);
    result = in_.CallDirect(callee, std::move(args));
  } catch (const PyError& error) {
    return fmt::format("node {} raised {}", node, error.what());
  }
  std::vector<const PyTensor*> tensors;
  CollectTensors(result, tensors);
  std::vector<Tensor> out;
  for (const PyTensor* t : tensors) out.push_back(t->tensor());
  return out;
}

std::variant<std::vector<Tensor>, std::string> Dynamo::RunAtenCustomOp(
    const graph::Node& node, size_t index, const std::vector<Tensor>& inputs) {
  const auto not_opaque = [&] {
    return fmt::format(
        "node {} ({}) is not an opaque call (a custom op, an allowed function, a nonstrict_trace "
        "call)",
        index, node.target);
  };
  // `<ns>.<op>.default`: torch.ops.<ns>.<op>.default, as the program registered it.
  const size_t first = node.target.find('.'), last = node.target.rfind('.');
  if (first == std::string::npos || first == last || node.target.substr(last) != ".default")
    return not_opaque();
  Value ns = in_.process().modules()[ModuleId::kTorchOps]->GetAttr(node.target.substr(0, first));
  const auto* ns_object = ns ? DynCast<PyInstance>(ns) : nullptr;
  Value packet = ns_object
                     ? ns_object->attrs->GetStr(node.target.substr(first + 1, last - first - 1))
                     : nullptr;
  const auto* packet_object = packet ? DynCast<PyInstance>(packet) : nullptr;
  Value overload = packet_object ? packet_object->attrs->GetStr("default") : nullptr;
  if (!overload) return not_opaque();
  size_t next = 0;
  std::string unsupported;
  // The node's arguments as values: its REFs are the given tensors, in order.
  std::function<Value(const graph::Value&)> arg = [&](const graph::Value& v) -> Value {
    switch (v.kind) {
      case graph::ValueKind::kRef:
        return next < inputs.size() ? Value(in_.heap().NewTensor(inputs[next++]))
                                    : in_.heap().None();
      case graph::ValueKind::kNone:
        return in_.heap().None();
      case graph::ValueKind::kBool:
        return in_.heap().Bool(v.boolean);
      case graph::ValueKind::kInt:
        return in_.heap().Int(v.integer);
      case graph::ValueKind::kFloat:
        return in_.heap().Float(v.number);
      case graph::ValueKind::kStr:
        return in_.heap().Str(v.text);
      case graph::ValueKind::kList:
      case graph::ValueKind::kTuple: {
        std::vector<Value> items;
        for (const graph::Value& item : v.items) items.push_back(arg(item));
        if (v.kind == graph::ValueKind::kList) return in_.heap().NewList(std::move(items));
        return in_.heap().NewTuple(std::move(items));
      }
      case graph::ValueKind::kTensor:
      case graph::ValueKind::kEllipsis:
      case graph::ValueKind::kDict:
      case graph::ValueKind::kDtype:
      case graph::ValueKind::kDevice:
      case graph::ValueKind::kCallable:
      case graph::ValueKind::kRepr:
      case graph::ValueKind::kSlice:
      case graph::ValueKind::kLayout:
      case graph::ValueKind::kMemoryFormat:
        break;
    }
    unsupported = std::string(graph::ValueKindName(v.kind));
    return in_.heap().None();
  };
  CallArgs args;
  for (const graph::Value& v : node.args) args.positional.push_back(arg(v));
  for (const auto& [name, v] : node.kwargs) args.keywords.emplace_back(name, arg(v));
  if (!unsupported.empty())
    return fmt::format("node {}: a {} argument cannot be passed on the host", index, unsupported);
  if (next != inputs.size())
    return fmt::format("node {} takes {} tensors, got {}", index, next, inputs.size());
  return CallOnHost(overload, std::move(args), index);
}

}  // namespace tdc::dynamo
