// Google Benchmark suites over whole programs (issue 30): parse, the eager run, tracing
// and lowering of straight-line code and of call trees from 10 to 10^6 ops (ns per op,
// with the complexity fit), graph-break density in both profiles, and the fixed cost of a
// program. Each benchmark first runs its program once outside the timing and stops with
// the error when the reference does not answer it: nothing is timed that did not run.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "perf/counting_allocator.h"
#include "perf/programs.h"
#include "perf/runs.h"

namespace tdc::perf {
namespace {

// Times RunOnce(source, spec), counting allocations, after one untimed run whose peak heap
// memory it reports (`peak_bytes`); when that run fails, the benchmark stops with its error
// (SkipWithError) and nothing is timed. The peak, 0 then.
int64_t TimeRuns(benchmark::State& state, const std::string& source, const RunSpec& spec) {
  int64_t peak = 0;
  {
    PeakMemory memory;
    if (auto error = RunOnce(source, spec)) {
      state.SkipWithError(error->c_str());
      return 0;
    }
    peak = memory.Bytes();
  }
  state.counters["peak_bytes"] = static_cast<double>(peak);
  int64_t allocations = AllocationsSoFar();
  for (auto _ : state) benchmark::DoNotOptimize(RunOnce(source, spec));
  ReportAllocationsPerIteration(state, allocations);
  return peak;
}

// The per-op figures a complexity fit reads: seconds per op of the run (`per_op`), and, given a
// run's peak memory, that per op (`peak_bytes_per_op`: per node of its graph, for the traced
// ones).
void CountOps(benchmark::State& state, int64_t ops, std::optional<int64_t> peak = std::nullopt) {
  state.SetComplexityN(ops);
  state.counters["per_op"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
  if (peak) {
    state.counters["peak_bytes_per_op"] = static_cast<double>(*peak) / static_cast<double>(ops);
  }
}

void BM_Parse(benchmark::State& state) {
  std::string source = StraightLineProgram(state.range(0));
  if (auto error = ParseOnce(source)) {
    state.SkipWithError(error->c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(ParseOnce(source));
  CountOps(state, state.range(0));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * source.size()));
}
BENCHMARK(BM_Parse)->RangeMultiplier(10)->Range(10, 1'000'000)->Complexity(benchmark::oN);

void BM_EagerRun(benchmark::State& state) {
  const int64_t peak =
      TimeRuns(state, StraightLineProgram(state.range(0)), {.mode = RunSpec::Mode::kEager});
  CountOps(state, state.range(0), peak);
}
BENCHMARK(BM_EagerRun)->RangeMultiplier(10)->Range(10, 1'000'000)->Complexity(benchmark::oN);

// Dynamo's graph only, then with the ATen capture (aot's make_fx replay).
void BM_TraceStraightLine(benchmark::State& state) {
  const int64_t peak =
      TimeRuns(state, StraightLineProgram(state.range(0)), {.aten = state.range(1) != 0});
  CountOps(state, state.range(0), peak);
}
BENCHMARK(BM_TraceStraightLine)
    ->ArgsProduct({benchmark::CreateRange(10, 1'000'000, 10), {0, 1}})
    ->ArgNames({"ops", "aten"})
    ->Complexity(benchmark::oN);

void BM_TraceCallTree(benchmark::State& state) {
  const int64_t peak =
      TimeRuns(state, CallTreeProgram(state.range(0)), {.aten = state.range(1) != 0});
  CountOps(state, state.range(0), peak);
}
BENCHMARK(BM_TraceCallTree)
    ->ArgsProduct({benchmark::CreateRange(10, 1'000'000, 10), {0, 1}})
    ->ArgNames({"ops", "aten"})
    ->Complexity(benchmark::oN);

// 1000 ops in a call tree of 100 helpers, a graph break in every `break_every`-th helper
// (1: every helper), in the classic profile and with nested graph breaks.
void BM_BreakDensity(benchmark::State& state) {
  const char* profile = state.range(1) != 0 ? "torch-2.13-ngb" : "torch-2.13";
  TimeRuns(state, CallTreeProgram(1000, state.range(0)), {.profile = profile});
  state.SetLabel(profile);
}
BENCHMARK(BM_BreakDensity)
    ->ArgsProduct({{1, 2, 5, 10, 25, 100}, {0, 1}})
    ->ArgNames({"break_every", "ngb"});

// Look-ups in the allow/disallow registries under id reuse: `calls` fresh helpers called in
// one compiled function after `registered` helpers were allowed and dropped. Read against
// registered:0 at the same calls: what 1000 stale ids add (their registration loop included).
// No complexity fit: the family mixes two programs per size.
void BM_RegistryLookups(benchmark::State& state) {
  const int64_t peak = TimeRuns(state, RegistryProgram(state.range(0), state.range(1)), {});
  state.counters["peak_bytes_per_call"] =
      static_cast<double>(peak) / static_cast<double>(state.range(1));
  state.counters["per_call"] = benchmark::Counter(
      static_cast<double>(state.range(1)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RegistryLookups)
    ->ArgsProduct({{0, 1000}, benchmark::CreateRange(10, 1000, 10)})
    ->ArgNames({"registered", "calls"});

// A compiled function with a graph break called in a loop: ns and peak bytes per call (what
// the reference keeps per call: its loop's range items, 72 B an int, and nothing of Dynamo's).
void BM_BreakingCalls(benchmark::State& state) {
  const int64_t peak = TimeRuns(state, BreakingCallsProgram(state.range(0)), {});
  CountOps(state, state.range(0), peak);
}
BENCHMARK(BM_BreakingCalls)->RangeMultiplier(10)->Range(100, 10'000)->ArgName("calls");

// A program's fixed cost: the smallest fixture, eager and compiled.
void BM_FixedCostEager(benchmark::State& state) {
  TimeRuns(state, TinyProgram(), {.mode = RunSpec::Mode::kEager});
}
BENCHMARK(BM_FixedCostEager);

void BM_FixedCostCompile(benchmark::State& state) { TimeRuns(state, TinyProgram(), {}); }
BENCHMARK(BM_FixedCostCompile);

// Warm calls through the guard cache, as the interpreter makes them (the call, the
// look-up and the compiled graph's run together): ns per call from the fit's slope.
void BM_WarmCalls(benchmark::State& state) {
  TimeRuns(state, WarmCallsProgram(state.range(0), state.range(1)), {});
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_WarmCalls)->ArgsProduct({{1, 10, 100, 1000}, {1, 8}})->ArgNames({"calls", "guards"});

}  // namespace
}  // namespace tdc::perf
