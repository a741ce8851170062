#include "perf/counting_allocator.h"

#include <cstdlib>
#include <new>

namespace {

thread_local int64_t allocations = 0;

void* CountedAllocation(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

}  // namespace

namespace tdc::perf {

int64_t AllocationsSoFar() { return allocations; }

void ReportAllocationsPerIteration(benchmark::State& state, int64_t before) {
  state.counters["allocs"] = benchmark::Counter(static_cast<double>(allocations - before),
                                                benchmark::Counter::kAvgIterations);
}

}  // namespace tdc::perf

// Every plain and array form forwards to CountedAllocation; the aligned forms are left to
// the library (nothing here allocates over-aligned).
void* operator new(std::size_t size) { return CountedAllocation(size); }
void* operator new[](std::size_t size) { return CountedAllocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
