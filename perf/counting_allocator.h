// Heap allocations counted, for the benchmarks' "allocations per call" (issue 30): the
// perf binaries replace the global operator new with one that counts on this thread and
// then allocates as usual. While a PeakMemory is alive it also follows the bytes allocated
// and freed on this thread (each block's usable size), for "peak memory" (issue 30).
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

// The most bytes allocated through operator new on this thread and not yet freed, above what
// was live when it was made, during its life (a block made before it and freed during it
// lowers the count: a lower bound). Only the untimed run is followed, so timings pay nothing.
class PeakMemory {
 public:
  PeakMemory();
  ~PeakMemory();
  PeakMemory(const PeakMemory&) = delete;
  PeakMemory& operator=(const PeakMemory&) = delete;
  int64_t Bytes() const;
};

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_COUNTING_ALLOCATOR_H_
