#include "perf/fuzz_checks.h"

#include <fmt/format.h>

#include "fuzz/generators.h"
#include "fuzz/partition_oracle.h"
#include "fuzz/reference_run.h"

namespace tdc::perf {

std::vector<fuzz::Program> FuzzPrograms(uint64_t seed, int count) {
  std::vector<fuzz::Program> programs;
  for (int i = 0; i < count; ++i)
    programs.push_back(fuzz::SampleProgram(seed + static_cast<uint64_t>(i)));
  return programs;
}

std::optional<std::string> CheckAgainstOracle(const fuzz::Program& program) {
  fuzz::ReferenceRun run = fuzz::RunOnReference(program);
  if (!run.error.empty()) return run.error;
  std::string reference = fuzz::FormatPartition(run.partition);
  std::string oracle = fuzz::FormatPartition(fuzz::PredictPartition(program));
  if (reference != oracle) return fmt::format("reference {} / oracle {}", reference, oracle);
  return std::nullopt;
}

}  // namespace tdc::perf
