#include "perf/counting_allocator.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace {

thread_local int64_t allocations = 0;
thread_local bool following = false;  // a PeakMemory is alive
thread_local int64_t live_bytes = 0, peak_bytes = 0;

void* CountedAllocation(std::size_t size) {
  ++allocations;
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  if (following) {
    live_bytes += static_cast<int64_t>(malloc_usable_size(p));
    peak_bytes = std::max(peak_bytes, live_bytes);
  }
  return p;
}

void CountedFree(void* p) {
  if (following && p != nullptr) live_bytes -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}

}  // namespace

namespace tdc::perf {

int64_t AllocationsSoFar() { return allocations; }

void ReportAllocationsPerIteration(benchmark::State& state, int64_t before) {
  state.counters["allocs"] = benchmark::Counter(static_cast<double>(allocations - before),
                                                benchmark::Counter::kAvgIterations);
}

PeakMemory::PeakMemory() {
  following = true;
  live_bytes = peak_bytes = 0;
}

PeakMemory::~PeakMemory() { following = false; }

int64_t PeakMemory::Bytes() const { return peak_bytes; }

}  // namespace tdc::perf

// Every plain and array form forwards to CountedAllocation; the aligned forms are left to
// the library (nothing here allocates over-aligned).
void* operator new(std::size_t size) { return CountedAllocation(size); }
void* operator new[](std::size_t size) { return CountedAllocation(size); }
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete[](void* p) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { CountedFree(p); }
