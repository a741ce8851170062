// Fuzz programs checked per second (issue 30): tdfuzz --vs-oracle's loop over the programs
// of seed 1, each run on the reference and its partition compared with the oracle's.
#include <benchmark/benchmark.h>

#include <vector>

#include "perf/fuzz_checks.h"

namespace tdc::perf {
namespace {

void BM_FuzzCheck(benchmark::State& state) {
  const std::vector<fuzz::Program> programs = FuzzPrograms(1, 64);
  for (const fuzz::Program& p : programs) {
    if (auto disagreement = CheckAgainstOracle(p)) {
      state.SkipWithError(disagreement->c_str());
      return;
    }
  }
  size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(CheckAgainstOracle(programs[next]));
    next = (next + 1) % programs.size();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_FuzzCheck);

}  // namespace
}  // namespace tdc::perf
