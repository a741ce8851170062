// The host side of the backend ABI (issue 30): a graph's round trip through the wire form
// (WireGraph encodes what the host hands a backend, DecodeGraph is what a C++ backend reads
// back; ns per node, with the complexity fit), and whole tdconform cases per second (the
// case's process forked, the reference backend compiling and running each graph, the judge
// forked and recomputing the verdict), as `tdconform --jobs 1` runs them.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <variant>

#include "conformance/abi/wire.h"
#include "conformance/executor/executor.h"
#include "perf/counting_allocator.h"

namespace tdc::perf {
namespace {

// One input, `ops` chained `torch.add(previous, 1.0)` nodes, the last returned: a graph as
// Dynamo captures straight-line code.
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

void BM_AbiRoundTrip(benchmark::State& state) {
  const graph::Graph g = ChainGraph(state.range(0));
  auto trip = [&] {
    conformance::WireGraph wire(g, TDC_GRAPH_LEVEL_DYNAMO, "__compiled_fn_1");
    return conformance::DecodeGraph(wire.get());
  };
  if (auto first = trip(); auto* error = std::get_if<std::string>(&first)) {
    state.SkipWithError(error->c_str());
    return;
  }
  int64_t allocations = AllocationsSoFar();
  for (auto _ : state) benchmark::DoNotOptimize(trip());
  ReportAllocationsPerIteration(state, allocations);
  state.SetComplexityN(state.range(0));
  state.counters["per_node"] = benchmark::Counter(
      static_cast<double>(g.nodes.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_AbiRoundTrip)
    ->RangeMultiplier(10)
    ->Range(10, 10'000)
    ->ArgName("ops")
    ->Complexity(benchmark::oN);

// One fixture case (two graph breaks, three graphs) on the reference backend: `cases/s`.
void BM_CasesPerSecond(benchmark::State& state) {
  if (chdir(TDC_SOURCE_DIR) != 0) {
    state.SkipWithError("cannot enter the source directory");
    return;
  }
  auto loaded = conformance::LoadBackend(TDC_BACKEND_DIR "/libtdc_backend_reference.so", 60);
  if (auto* failure = std::get_if<conformance::LoadFailure>(&loaded)) {
    state.SkipWithError(failure->message.c_str());
    return;
  }
  const auto& backend = *std::get<std::unique_ptr<conformance::LoadedBackend>>(loaded);
  const auto spec = std::get<conformance::CaseSpec>(conformance::ResolveCase(
      "fixtures:graph_break:s05_graph_break_three_graphs:profile=torch-2.13:level=" +
      std::string(state.range(0) == 0 ? "dynamo" : "aten")));
  auto run = [&] { return conformance::RunCase(backend, spec, {}); };
  if (const conformance::Verdict v = run(); v.status != conformance::CaseStatus::kPass) {
    state.SkipWithError(conformance::FormatVerdict(v).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(run());
  state.counters["cases/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CasesPerSecond)->DenseRange(0, 1)->ArgName("aten")->UseRealTime();

}  // namespace
}  // namespace tdc::perf
