// One generated program checked as `tdfuzz --vs-oracle` checks it: run on the reference
// (eager and compiled), its partition compared with the independent oracle's. For the
// fuzz benchmark (programs checked per second) and its callgrind scenario.
#ifndef TDCONFORM_PERF_FUZZ_CHECKS_H_
#define TDCONFORM_PERF_FUZZ_CHECKS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace tdc::perf {

// The programs tdfuzz --vs-oracle --seed `seed` checks first.
std::vector<fuzz::Program> FuzzPrograms(uint64_t seed, int count);

// Checks one; the disagreement (or the reference's error) when there is one.
std::optional<std::string> CheckAgainstOracle(const fuzz::Program& program);

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_FUZZ_CHECKS_H_
