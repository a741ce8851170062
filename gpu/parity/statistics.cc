#include "gpu/parity/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu/parity/ulp.h"

namespace tdc::gpu {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// |a - e|, with equal NaNs and equal infinities 0 apart and any other NaN or infinity
// infinitely far.
double AbsError(double a, double e) {
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e) ? 0 : kInf;
  if (a == e) return 0;
  return std::fabs(a - e);
}

}  // namespace

double Rmse(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty()) return std::numeric_limits<double>::quiet_NaN();  // torch.mean of nothing
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum / static_cast<double>(a.size()));
}

std::variant<OutputStatistics, std::string> Measure(const ComparedOutput& output) {
  const size_t n = output.expected.size();
  if (output.actual.size() != n || (output.fp64 && output.fp64->size() != n)) {
    return fmt::format("the compared values differ in length: {} actual, {} expected{}",
                       output.actual.size(), n,
                       output.fp64 ? fmt::format(", {} float64", output.fp64->size()) : "");
  }
  OutputStatistics s;
  std::vector<uint64_t> ulps;
  ulps.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double a = output.actual[i], e = output.expected[i];
    const double abs_error = AbsError(a, e);
    s.max_abs_error = std::max(s.max_abs_error, abs_error);
    if (abs_error != 0) {
      s.max_rel_error = std::max(s.max_rel_error, e == 0 ? kInf : abs_error / std::fabs(e));
    }
    if (output.dtype == graph::DType::kFloat16) continue;
    auto ulp = UlpDistance(a, e, output.dtype);
    if (auto* why = std::get_if<std::string>(&ulp)) return fmt::format("element {}: {}", i, *why);
    ulps.push_back(std::get<uint64_t>(ulp));
  }
  if (output.dtype != graph::DType::kFloat16) {
    std::ranges::sort(ulps);
    s.max_ulp = ulps.empty() ? 0 : ulps.back();
    // Nearest rank: the smallest value at or above 99% of the elements.
    const auto rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(n)));
    s.p99_ulp = ulps.empty() ? 0 : ulps[std::max<size_t>(rank, 1) - 1];
  }
  if (output.fp64) {
    s.rmse_vs_fp64 = Rmse(*output.fp64, output.actual);
    s.noise_floor_rmse = Rmse(*output.fp64, output.expected);
  }
  return s;
}

}  // namespace tdc::gpu
