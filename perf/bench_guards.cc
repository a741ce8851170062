// The code cache's look-up on a warm call (issue 30): one cached entry whose guards are
// `guards` tensors, looked up with frame values that pass them all, as every call after
// the first makes it. ns per look-up and heap allocations per look-up (counted).
#include <benchmark/benchmark.h>

#include "perf/counting_allocator.h"
#include "perf/guard_lookup.h"

namespace tdc::perf {
namespace {

void BM_GuardLookup(benchmark::State& state) {
  WarmCache cache(state.range(0));
  if (cache.Lookup() == nullptr) {
    state.SkipWithError("the frame values failed their own guards");
    return;
  }
  int64_t allocations = AllocationsSoFar();
  for (auto _ : state) benchmark::DoNotOptimize(cache.Lookup());
  ReportAllocationsPerIteration(state, allocations);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_GuardLookup)
    ->RangeMultiplier(2)
    ->Range(1, 16)
    ->ArgName("guards")
    ->Complexity(benchmark::oN);

}  // namespace
}  // namespace tdc::perf
