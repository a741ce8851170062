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

#include "conformance/executor/executor.h"
#include "perf/counting_allocator.h"
#include "perf/wire_trip.h"

namespace tdc::perf {
namespace {

void BM_AbiRoundTrip(benchmark::State& state) {
  const graph::Graph g = ChainGraph(state.range(0));
  if (auto error = WireRoundTrip(g)) {
    state.SkipWithError(error->c_str());
    return;
  }
  int64_t allocations = AllocationsSoFar();
  for (auto _ : state) benchmark::DoNotOptimize(WireRoundTrip(g));
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
