// Emitting a traced frame's graph where it ends (R-graph-outputs, R-empty-graph,
// R-no-ops-skip): its outputs (the live values, then the stores torch replays), the code cache
// entry, the ATen graph, the recorded invocation and the backend's run of it.
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

void Dynamo::Emit(Trace& t, const std::vector<Value>& live_values, int64_t line, bool at_return) {
  // What the graph outputs: the live values, then the tensors torch's replay of the trace's
  // stores reads (R-graph-outputs).
  auto graph_outputs = [&] {
    std::vector<Value> outputs = live_values;
    if (rules_.on(Rule::kGraphOutputs)) AddReplayedStores(t, at_return, outputs);
    return outputs;
  };
  // error_on_graph_break, true where the frame returns, makes it one graph as fullgraph does:
  // an empty graph still reaches the backend (golden version/empty_graph_backend_call). At a
  // break the flag plays no part (torch's compile_subgraph; golden
  // error_on_graph_break/s39_nested_deep, whose empty break graph under True is not sent).
  const bool fullgraph =
      t.callback->fullgraph || (at_return && in_.process().compiler.error_on_graph_break &&
                                rules_.on(Rule::kErrorOnGraphBreak));
  const bool empty = !t.graph.HasCalls(1);
  const GraphEnding ending{line, at_return, empty};
  if (!t.record) {
    if (std::optional<GraphEnding> cached = std::exchange(t.cached_ending, std::nullopt);
        cached && *cached != ending) {
      RefuseNotModeled(fmt::format(
          "a cache hit of {} whose trace ends at {} where its compile ended at {} (the guards "
          "the reference keeps did not tell them apart)",
          t.code_name, ending.Describe(), cached->Describe()));
    }
    // (graph_outputs() walks what the frame reaches: only where a backend runs the graph.)
    if (backend_ != nullptr && t.cached_invocation)
      RunCachedOnBackend(t, graph_outputs(), fullgraph);
    return;
  }
  CodeState& code = code_cache_.Of(t.key);
  std::string ends = fmt::format("graph {} of {} ends at line {} ({})", t.compile_id, t.code_name,
                                 line, at_return ? "return" : "graph break");
  if (at_return && empty && !fullgraph && rules_.on(Rule::kNoOpsSkip)) {
    code.skip = CodeState::Skip::kNoOps;  // "No ops traced for the FX graph": the frame is skipped
                                          // from now on
    Explain(ends +
            ": no op traced, nothing compiled; the code is skipped from now on, and this call runs "
            "again eagerly, offering the frames it calls");
    // Torch then runs the frame eagerly: the calls the trace inlined are frames of their
    // own, offered to Dynamo (they hold no op either: their values are what they were).
    std::vector<Trace::InlinedCall> calls = std::move(t.inlined_calls);
    t.record = false;
    // A nested resume function calls its inner frames' resume function first, a frame of
    // its own (fuzz case 962 of issue 13; golden variants/version__empty_graph_backend_call__wrap).
    ReplayInnerResume(t, t.chain, t.chain_returns, t.graph);
    for (const auto& call : calls) {
      if (call.depth == t.root_depth) RefuseChangedTwice(call);
    }
    EagerRegion eager(*this, false);
    for (auto& call : calls) {
      if (call.depth == t.root_depth) in_.Call(call.function, std::move(call.args));
    }
    return;
  }
  // fullgraph returns the inputs it outputs from the graph (R-graph-outputs): realized. So
  // does a return of one tensor: torch's compile_subgraph then takes its fast path, which
  // makes every stack value a graph output, an input too (golden
  // graph_break/return_input_after_no_grad_break), unless the trace has side effects.
  const bool returns_one_tensor = at_return && live_values.size() == 1 &&
                                  Is<PyTensor>(live_values.front()) && !ChangedWhatOutlives(t);
  const bool outputs_inputs = fullgraph || returns_one_tensor;
  if (outputs_inputs) {
    for (const Value& v : live_values) Realize(t, v);
  }
  code.cache.push_back(code_cache_.EntryFor(t));
  code.cache.back().ending = ending;
  t.record = false;  // one graph per frame compile
  if (empty && !fullgraph && rules_.on(Rule::kEmptyGraph)) {
    Explain(ends + ": empty, not sent to the backend");
    return;
  }
  const std::vector<Value> live = graph_outputs();
  FinishedGraphs graphs = t.graph.Finish(live, outputs_inputs, t.grad_enabled);
  // Without the aot layer (a Dynamo-level test) there is no ATen graph to predict.
  if (aten_ != nullptr && !graphs.aten_unsupported.empty()) {
    RefuseNotModeled(fmt::format("the ATen graph of {} is not modeled", graphs.aten_unsupported));
  }
  const graph::Graph& graph = graphs.dynamo;
  int64_t ops = std::count_if(graph.nodes.begin(), graph.nodes.end(), [](const graph::Node& n) {
    return n.op != graph::NodeOp::kPlaceholder && n.op != graph::NodeOp::kOutput &&
           n.op != graph::NodeOp::kGetAttr;
  });
  // Nothing to compile without an op or an output (torch's compile_and_call_fx_graph): a
  // flagged frame returning a constant (golden error_on_graph_break/
  // s41_nested_compile_error_on_graph_break).
  if (ops == 0 && graph.nodes.back().args.front().items.empty() && rules_.on(Rule::kEmptyGraph)) {
    Explain(ends + ": no op and no output, nothing compiled");
    return;
  }
  Explain(fmt::format("{}: {} op(s) sent to the backend", ends, ops));
  if (t.callback->backend != recorder_) {
    // A named backend (eager, aot_eager, inductor) runs the graph as traced; what a callable
    // other than the injected one does with it is not modeled (set_stance's force_backend,
    // golden upstream/decorators/test_set_stance_force_backend_with_disable, hands none).
    if (!Is<PyStr>(t.callback->backend)) {
      RefuseNotModeled("a graph handed to a backend other than the injected one is not modeled");
    }
    return;
  }
  code.cache.back().invocation = records_.invocations.size();
  graph::Invocation invocation;
  invocation.trigger = {t.code_name, t.resume, line};
  // Off: ids count the graphs the backend gets, as if frames without one took none.
  invocation.compile_id =
      rules_.on(Rule::kFrameId) ? t.compile_id : fmt::format("{}/0", records_.invocations.size());
  invocation.recompile = t.recompile;
  invocation.dynamo_graph = std::move(graphs.dynamo);
  invocation.aten_graph = std::move(graphs.aten);
  records_.invocations.push_back(std::move(invocation));
  RunOnBackend(records_.invocations.back(), records_.invocations.size() - 1, graphs);
  auto bump = [&](const char* name, int64_t by) {
    Value v = in_.GetAttr(recorder_, name);
    in_.SetAttr(recorder_, name, in_.heap().Int(DynCast<PyInt>(v)->value() + by));
  };
  bump("frame_count", 1);
  bump("op_count", ops);
}

}  // namespace tdc::dynamo
