#include "perf/scenarios.h"

#include <memory>

#include "perf/fuzz_checks.h"
#include "perf/guard_lookup.h"
#include "perf/programs.h"
#include "perf/runs.h"
#include "perf/wire_trip.h"

namespace tdc::perf {
namespace {

std::function<Workload()> Run(std::string (*program)(), RunSpec spec) {
  return [=] { return Workload([source = program(), spec] { return RunOnce(source, spec); }); };
}

std::string Straight1000() { return StraightLineProgram(1000); }
std::string Tree1000() { return CallTreeProgram(1000); }
std::string TreeBreakEvery5() { return CallTreeProgram(1000, 5); }
std::string Warm100() { return WarmCallsProgram(100, 4); }
std::string Registry1000() { return RegistryProgram(1000, 100); }

}  // namespace

const std::vector<Scenario>& Scenarios() {
  using Mode = RunSpec::Mode;
  static const std::vector<Scenario> kScenarios = {
      {"parse_1000", "parse 1000 statements",
       [] { return Workload([source = Straight1000()] { return ParseOnce(source); }); }},
      {"eager_1000", "eager run of 1000 ops", Run(Straight1000, {.mode = Mode::kEager})},
      {"trace_straight_1000", "trace 1000 ops in one function, Dynamo graph only",
       Run(Straight1000, {.aten = false})},
      {"trace_straight_1000_aten", "trace 1000 ops in one function with the ATen capture",
       Run(Straight1000, {})},
      {"trace_tree_1000", "trace 1000 ops in a call tree of 100 helpers", Run(Tree1000, {})},
      {"breaks_classic_every5", "1000 ops, a graph break in every 5th helper (classic)",
       Run(TreeBreakEvery5, {})},
      {"breaks_ngb_every5", "1000 ops, a graph break in every 5th helper (nested breaks)",
       Run(TreeBreakEvery5, {.profile = "torch-2.13-ngb"})},
      {"registry_1000_100", "100 helpers called after 1000 allowed ones were dropped",
       Run(Registry1000, {})},
      {"abi_round_trip_1000", "a graph of 1000 ops encoded and decoded through the ABI",
       [] {
         return Workload(
             [g = std::make_shared<graph::Graph>(ChainGraph(1000))] { return WireRoundTrip(*g); });
       }},
      {"fixed_cost_eager", "the smallest program, eager", Run(TinyProgram, {.mode = Mode::kEager})},
      {"fixed_cost_compile", "the smallest program, compiled", Run(TinyProgram, {})},
      {"warm_calls_100", "100 warm calls of a compiled function of 4 tensors", Run(Warm100, {})},
      {"fuzz_check_10", "10 generated programs checked against the partition oracle",
       [] {
         return Workload([programs = FuzzPrograms(1, 10)]() -> std::optional<std::string> {
           for (const fuzz::Program& p : programs) {
             if (auto disagreement = CheckAgainstOracle(p)) return disagreement;
           }
           return std::nullopt;
         });
       }},
      {"guard_lookup_8", "1000 code-cache look-ups through 8 tensor guards",
       [] {
         auto cache = std::make_shared<WarmCache>(8);
         return Workload([cache]() -> std::optional<std::string> {
           for (int i = 0; i < 1000; ++i) {
             if (cache->Lookup() == nullptr) return "a guard failed";
           }
           return std::nullopt;
         });
       }},
  };
  return kScenarios;
}

}  // namespace tdc::perf
