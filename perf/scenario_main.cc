// tdc_perf_scenario NAME: runs one callgrind scenario (perf/scenarios.h) once, its measured
// part inside TdcPerfMeasured, the one function the gate's callgrind run collects
// (`--toggle-collect=TdcPerfMeasured`); `--list` prints the scenarios.
//
// TDC_PERF_PLANTED_WORK=N adds about N instructions of busy work inside the measured part:
// the gate's own test plants a regression with it (perf/callgrind_gate_test.py).
#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "perf/scenarios.h"

extern "C" __attribute__((noinline)) int TdcPerfMeasured(const tdc::perf::Workload* workload,
                                                         int64_t planted_work) {
  volatile int64_t sink = 0;
  // About four instructions a turn (a load, an add, a store, the loop's test).
  for (int64_t i = 0; i < planted_work / 4; ++i) sink = sink + i;
  std::optional<std::string> error = (*workload)();
  if (!error) return 0;
  fmt::print(stderr, "tdc_perf_scenario: error: {}\n", *error);
  return 1;
}

int main(int argc, char** argv) {
  using tdc::perf::Scenarios;
  std::string name = argc == 2 ? argv[1] : "";
  if (name.empty()) {
    fmt::print(stderr, "usage: tdc_perf_scenario NAME | --list\n");
    return 2;
  }
  if (name == "--list") {
    for (const auto& s : Scenarios()) fmt::print("{}\t{}\n", s.name, s.what);
    return 0;
  }
  for (const auto& s : Scenarios()) {
    if (name != s.name) continue;
    tdc::perf::Workload workload = s.prepare();
    const char* planted = std::getenv("TDC_PERF_PLANTED_WORK");
    return TdcPerfMeasured(&workload, planted != nullptr ? std::atoll(planted) : 0);
  }
  fmt::print(stderr, "tdc_perf_scenario: error: no scenario '{}' (--list names them)\n", name);
  return 2;
}
