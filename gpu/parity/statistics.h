// The errors the parity report records for one compared output (issue 31): the largest
// absolute and relative errors against the reference, the ULP distances' maximum and 99th
// percentile, and the RMSE of both the backend and the reference against the float64
// evaluation (the reference's is the noise floor: what the dtype itself costs).
#ifndef TDCONFORM_GPU_PARITY_STATISTICS_H_
#define TDCONFORM_GPU_PARITY_STATISTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "gpu/parity/output.h"

namespace tdc::gpu {

struct OutputStatistics {
  double max_abs_error = 0;  // NaN against a number, or infinities apart: +inf
  double max_rel_error = 0;  // |actual - expected| / |expected|; a nonzero error at 0: +inf
  // kNotComparable where a NaN meets a number; none in float16 (its ULP is not modeled).
  std::optional<uint64_t> max_ulp;
  std::optional<uint64_t> p99_ulp;         // nearest rank
  std::optional<double> rmse_vs_fp64;      // the backend's
  std::optional<double> noise_floor_rmse;  // the reference's, same dtype
};

// The statistics, or why there are none (lengths that differ, a value outside the dtype).
std::variant<OutputStatistics, std::string> Measure(const ComparedOutput& output);

// sqrt(mean((a - b)^2)), as torch._dynamo.utils.rmse computes it (NaN in, NaN out).
double Rmse(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_PARITY_STATISTICS_H_
