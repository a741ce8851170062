// Heap allocations counted, for the benchmarks' "allocations per call" (issue 30): the
// perf binaries replace the global operator new with one that counts on this thread and
// then allocates as usual.
#ifndef TDCONFORM_PERF_COUNTING_ALLOCATOR_H_
#define TDCONFORM_PERF_COUNTING_ALLOCATOR_H_

#include <benchmark/benchmark.h>

#include <cstdint>

namespace tdc::perf {

// Allocations made on this thread since it started.
int64_t AllocationsSoFar();

// The benchmark's `allocs` counter: allocations per iteration since `before`
// (AllocationsSoFar() read just before its timing loop).
void ReportAllocationsPerIteration(benchmark::State& state, int64_t before);

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_COUNTING_ALLOCATOR_H_
