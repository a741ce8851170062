// The Dynamo-level FX graph of one frame compile, built while the frame's code runs
// (PLAN.md §2.3): graph inputs used by a node become placeholders, in the order Dynamo
// first realized them, each traced tensor op a call node; the output node lists the
// graph-computed tensors the rest of the program still needs. Tensors carry their node
// through PyTensor::trace_tag.
#ifndef TDCONFORM_REFERENCE_DYNAMO_GRAPH_BUILDER_H_
#define TDCONFORM_REFERENCE_DYNAMO_GRAPH_BUILDER_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reference/dynamo/aten_lowering.h"
#include "reference/graph/graph.h"
#include "reference/runtime/types.h"
#include "reference/runtime/values.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

// The target of the grad-mode nodes with blocks add (spec §3.1).
inline constexpr std::string_view kSetGradEnabled = "torch._C._set_grad_enabled";

using runtime::CallArgs;
using runtime::Value;

// The tensors in `v`, nested through tuples, lists and dict values, in order.
void CollectTensors(const Value& v, std::vector<const runtime::PyTensor*>& out);
// The tensors of a call's arguments: positional, then keyword values.
std::vector<const runtime::PyTensor*> TensorsOf(const CallArgs& args);
// `v` as a node argument (SCHEMA §7): constants as values, a tensor as {"ref": ref_of(it)}.
graph::Arg ArgOf(const Value& v, const std::function<int64_t(const runtime::PyTensor&)>& ref_of);

// A finished frame's graphs: Dynamo's, and the forward graph AOT autograd hands its
// compiler (null, with the reason, when a node has no ATen lowering).
// How the host runs an opaque node again (a custom op, an allowed function, a
// nonstrict_trace call) on tensors a backend hands it: `callee(*args)` with the tensors of
// `args` (TensorsOf order: the node's REFs) replaced.
struct OpaqueCall {
  Value callee;
  CallArgs args;
};
struct FinishedGraphs {
  graph::Graph dynamo;
  std::optional<graph::Graph> aten;
  std::string aten_unsupported;
  // Both graphs' inputs and outputs: the tensors of the placeholders and of the output
  // node, in order (the ATen graph's are the Dynamo graph's).
  std::vector<Value> inputs;
  std::vector<Value> outputs;
  // Per node of `dynamo`, its opaque call, if it is one.
  std::vector<std::optional<OpaqueCall>> opaque;
  // The ATen graph's tensor constants (get_attr `_tensor_constant<k>`), by k.
  std::vector<Value> aten_constants;
};

class GraphBuilder {
 public:
  GraphBuilder();

  // The tensors in `v` (nested in tuples and lists: `source[i]`) are graph inputs read from
  // `source` (L['x'], L['___stack0']); a tensor already known keeps its first source.
  void AddInput(const Value& v, const std::string& source);
  // The tensors in `v` that are inputs already are read from `source` now (a frame of
  // their trace became a code of its own); each input is renamed once, in the order called.
  void RenameInputs(const Value& v, const std::string& source, std::vector<bool>& renamed);
  // A frame read input tensor `v` through a local whose source is `source` (L['z'],
  // L['__nested_frame_values'][0][1]): if it is not a placeholder yet and came under that
  // source among others, its placeholder takes that one (Dynamo names an input after the
  // variable whose use made it one: a tensor handed on under two names is read through the
  // one used first).
  void ReadThrough(const Value& v, const std::string& source);
  // Whether a read of `v` could rename its input (ReadThrough): an input not realized yet,
  // handed on under other names too. Most reads are not: their source need not be formed.
  bool Renamable(const Value& v);
  // Every input becomes a placeholder now, in the order added (the fallback when
  // R-placeholder-first-use is off).
  void UseAllInputs();
  // Dynamo realized input tensor `v` (read it other than by handing it on: an `is`
  // comparison, isinstance(), an op's operand): placeholders come in the order their
  // inputs were first realized, and one realized but never used by a node has none
  // (remove_unused_graphargs; golden names/placeholder_realization_order).
  void Realize(const Value& v);
  // A call node `target(*args, **kwargs)` whose result is `result`, and its ATen
  // fragment (over TensorsOf(args)). An `accessor` node (getitem, getattr) is left out of
  // the graph when nothing uses it. A tuple result gets an accessor `operator.getitem`
  // node per tensor item, as Dynamo makes them.
  // `opaque`: how the host runs the node again (FinishedGraphs::opaque).
  void AddCall(graph::NodeOp op, std::string target, const CallArgs& args, const Value& result,
               Fragment fragment, bool accessor = false, std::vector<graph::Arg> leading = {},
               std::optional<OpaqueCall> opaque = {});
  // A get_attr node reading an attribute Dynamo installed on the graph module (named
  // `name`, or `name_0`, `name_1`... once taken); not a call. Its ref, for `leading`.
  graph::Arg AddGetAttr(const std::string& name);
  // Whether `v` holds a tensor computed by this graph.
  bool HoldsComputed(const Value& v) const;
  // Whether `v` holds a tensor this graph knows, computed or input.
  bool HoldsTraced(const Value& v) const;

  // The nodes made so far (call, accessor and get_attr nodes; placeholders apart), and
  // node `i`: its args' refs are internal (>= 0 a node, < 0 -(placeholder+1)).
  size_t node_count() const { return calls_.size(); }
  const graph::Node& node(size_t i) const { return calls_[i]; }
  // The node computing tensor `v`, if this graph computed it.
  std::optional<size_t> NodeOf(const Value& v) const;

  // count_calls(): the call nodes (get_attr nodes are not calls).
  // Whether the graph has at least `n` call nodes (get_attr nodes are not calls). It stops
  // at the n-th: every traced statement asks, so it must not count the whole graph.
  bool HasCalls(size_t n) const {
    for (auto it = calls_.begin(); n > 0 && it != calls_.end(); ++it)
      n -= it->op != graph::NodeOp::kGetAttr;
    return n == 0;
  }

  // A point to come back to when a speculative part of the trace is abandoned.
  struct Mark {
    size_t calls = 0;
    size_t placeholders = 0;
    size_t retags = 0;
    int64_t realizations = 0;
  };
  Mark mark() const { return {calls_.size(), placeholders_.size(), retags_.size(), realizations_}; }
  void Rollback(const Mark& mark);

  // The graph: placeholders, call nodes, and an output node of the graph-computed tensors
  // in `live` (deduplicated, in order); with `outputs_inputs`, tensors read from an input
  // are outputs too (fullgraph returns them from the graph, R-graph-outputs). With
  // `grad_enabled`, an input that requires grad makes AOT autograd's graph a training
  // graph, which the reference does not model (its ATen graph is then unsupported).
  FinishedGraphs Finish(const std::vector<Value>& live, bool outputs_inputs, bool grad_enabled);

 private:
  graph::Arg ToArg(const Value& v);
  // The internal ref of `tensor`: a call index, or -(placeholder+1); placeholders are
  // made on first use.
  int64_t RefOf(const runtime::PyTensor& tensor);
  void Tag(const Value& result, int64_t call_index);
  // The final placeholders: placeholders_ in realization order, and each one's position
  // there (by its index among placeholders_).
  struct PlaceholderOrder {
    std::vector<size_t> inputs;
    std::vector<int64_t> position;
  };
  PlaceholderOrder OrderPlaceholders() const;
  graph::Arg Remap(graph::Arg arg, const std::vector<int64_t>& call_index,
                   const PlaceholderOrder& order) const;
  // The calls Finish keeps: every non-accessor, and accessors something kept uses.
  std::vector<bool> KeptCalls(const std::vector<int64_t>& outputs) const;
  // The `_set_grad_enabled` pairs torch's cleanup_graph erases (spec §3.1).
  std::vector<bool> ErasedGradModePairs() const;

  uint64_t epoch_;
  struct Input {
    Value tensor;
    std::string source;
    graph::Node placeholder;   // filled when the input is first used
    int64_t index = -1;        // its position among placeholders_, -1 until used
    int64_t realized_at = -1;  // when it was first realized (realizations_), -1 until then
    std::vector<std::string> other_sources;  // the same tensor handed on under other names
  };
  std::vector<Input> inputs_;
  // The containers AddInput or RenameInputs is inside (a container holding itself is refused).
  runtime::WalkPath walking_;
  Input* RenamableInput(const Value& v);  // Renamable's input, or null
  std::vector<size_t> placeholders_;      // input indices, in first-use order (Finish orders them)
  int64_t realizations_ = 0;              // inputs realized so far (Input::realized_at)
  std::vector<graph::Node> calls_;
  std::vector<bool> accessors_;                    // per call: dropped unless used
  std::vector<std::optional<OpaqueCall>> opaque_;  // per call
  // Per call, its ATen side: the fragment and the internal refs of its inputs; a tuple
  // item's accessor instead names the call and the item (the fragment's output).
  struct AtenSide {
    Fragment fragment;
    std::vector<int64_t> inputs;
    int64_t item_of = -1;
    size_t item = 0;
  };
  std::vector<AtenSide> aten_;
  graph::Graph FinishAten(const std::vector<bool>& kept, const std::vector<int64_t>& outputs,
                          const PlaceholderOrder& order, std::string& unsupported,
                          std::vector<Value>& constants) const;
  // Tensors a later node took over (an allowed function returning its input), with the
  // tag they had: a rollback gives it back (found by tdfuzz --vs-torch, seed 10914).
  std::vector<std::pair<Value, runtime::PyTensor::TraceTag>> retags_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_GRAPH_BUILDER_H_
