// Hand-worked per-output statistics (issue 31).
#include "gpu/parity/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpu/parity/ulp.h"

namespace tdc::gpu {
namespace {

OutputStatistics Measured(const ComparedOutput& o) {
  auto s = Measure(o);
  EXPECT_TRUE(std::holds_alternative<OutputStatistics>(s)) << std::get<std::string>(s);
  return std::holds_alternative<OutputStatistics>(s) ? std::get<OutputStatistics>(s)
                                                     : OutputStatistics{};
}

TEST(StatisticsTest, LargestErrorsAndUlps) {
  // 2 -> 2.5 and 4 -> 3.5: both 0.5 apart, relative 0.25 and 0.125; in [2, 4) a float32 step
  // is 2**-22, so each is 2**21 steps (3.5 to 4 ends on the binade's edge).
  ComparedOutput o{graph::DType::kFloat32, {4}, {1, 2.5, 0, 3.5}, {1, 2, 0, 4}, std::nullopt};
  OutputStatistics s = Measured(o);
  EXPECT_EQ(s.max_abs_error, 0.5);
  EXPECT_EQ(s.max_rel_error, 0.25);
  EXPECT_EQ(s.max_ulp, 1U << 21);
  EXPECT_FALSE(s.rmse_vs_fp64);
}

TEST(StatisticsTest, P99IsTheNearestRank) {
  // 200 elements: the 198th smallest distance (ceil(0.99 * 200)) is the 99th percentile.
  std::vector<double> expected(200, 1.0), actual(200, 1.0);
  actual[0] = std::nextafter(1.0F, 2.0F);  // 1 ULP
  ComparedOutput o{graph::DType::kFloat32, {200}, actual, expected, std::nullopt};
  EXPECT_EQ(Measured(o).p99_ulp, 0U);
  o.actual[1] = 1.0 + 5 * 0x1p-23;  // 5 ULPs
  o.actual[2] = 1.0 + 2 * 0x1p-23;  // 2 ULPs: sorted, ..., 0, 1, 2, 5 and the 198th is 1
  OutputStatistics s = Measured(o);
  EXPECT_EQ(s.p99_ulp, 1U);
  EXPECT_EQ(s.max_ulp, 5U);
}

TEST(StatisticsTest, NansAndZeros) {
  ComparedOutput o{graph::DType::kFloat32, {3}, {NAN, 0, 0.5}, {NAN, 0, 0}, std::nullopt};
  OutputStatistics s = Measured(o);
  EXPECT_EQ(s.max_abs_error, 0.5);
  EXPECT_TRUE(std::isinf(s.max_rel_error));  // 0.5 where 0 was expected
  o.actual = {1, 0, 0};                      // a number where NaN was expected
  s = Measured(o);
  EXPECT_TRUE(std::isinf(s.max_abs_error));
  EXPECT_EQ(s.max_ulp, kNotComparable);
}

TEST(StatisticsTest, RmseAgainstFloat64AndTheNoiseFloor) {
  // Against [1, 2, 3, 4]: the backend is 2 off in one of four elements, sqrt(4 / 4) = 1;
  // the reference 1 off, sqrt(1 / 4) = 0.5.
  ComparedOutput o{
      graph::DType::kFloat32, {4}, {1, 2, 3, 6}, {1, 2, 3, 5}, std::vector<double>{1, 2, 3, 4}};
  OutputStatistics s = Measured(o);
  EXPECT_EQ(s.rmse_vs_fp64, 1.0);
  EXPECT_EQ(s.noise_floor_rmse, 0.5);
}

TEST(StatisticsTest, Float16HasNoUlpsButItsErrors) {
  ComparedOutput o{graph::DType::kFloat16, {1}, {1.5}, {1}, std::nullopt};
  OutputStatistics s = Measured(o);
  EXPECT_EQ(s.max_abs_error, 0.5);
  EXPECT_FALSE(s.max_ulp);
}

TEST(StatisticsTest, LengthsThatDifferAreAnError) {
  ComparedOutput o{graph::DType::kFloat32, {2}, {1}, {1, 2}, std::vector<double>{1, 2, 3}};
  auto s = Measure(o);
  ASSERT_TRUE(std::holds_alternative<std::string>(s));
  EXPECT_EQ(std::get<std::string>(s),
            "the compared values differ in length: 1 actual, 2 expected, 3 float64");
}

}  // namespace
}  // namespace tdc::gpu
