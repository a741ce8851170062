// Hand-worked ULP distances (issue 31): counts of representable values between two numbers.
#include "gpu/parity/ulp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tdc::gpu {
namespace {

uint64_t Ulps(double a, double b, graph::DType dtype) {
  auto d = UlpDistance(a, b, dtype);
  EXPECT_TRUE(std::holds_alternative<uint64_t>(d)) << std::get<std::string>(d);
  return std::holds_alternative<uint64_t>(d) ? std::get<uint64_t>(d) : 0;
}

std::string Why(double a, double b, graph::DType dtype) {
  auto d = UlpDistance(a, b, dtype);
  return std::holds_alternative<std::string>(d) ? std::get<std::string>(d) : "";
}

TEST(UlpTest, NeighboursAreOneApart) {
  EXPECT_EQ(Ulps(1.0, std::nextafter(1.0F, 2.0F), graph::DType::kFloat32), 1U);
  EXPECT_EQ(Ulps(1.0, std::nextafter(1.0, 2.0), graph::DType::kFloat64), 1U);
  EXPECT_EQ(Ulps(std::numeric_limits<float>::max(), INFINITY, graph::DType::kFloat32), 1U);
}

TEST(UlpTest, OneToTwoIsTwoToTheMantissaWidth) {
  EXPECT_EQ(Ulps(1.0, 2.0, graph::DType::kFloat32), 1U << 23);  // 23 fraction bits
  EXPECT_EQ(Ulps(2.0, 1.0, graph::DType::kFloat64), uint64_t{1} << 52);
  EXPECT_EQ(Ulps(1.0, 2.0, graph::DType::kBFloat16), 1U << 7);   // 7 fraction bits
  EXPECT_EQ(Ulps(1.0, 1.0078125, graph::DType::kBFloat16), 1U);  // 1 + 2**-7
}

TEST(UlpTest, ZerosAreTheSameAndTheDistanceCrossesZero) {
  EXPECT_EQ(Ulps(-0.0, 0.0, graph::DType::kFloat32), 0U);
  EXPECT_EQ(Ulps(-0.0, 0.0, graph::DType::kFloat64), 0U);
  const double smallest = std::numeric_limits<float>::denorm_min();  // 2**-149
  EXPECT_EQ(Ulps(-smallest, smallest, graph::DType::kFloat32), 2U);
}

TEST(UlpTest, NansMeetOnlyNans) {
  EXPECT_EQ(Ulps(NAN, NAN, graph::DType::kFloat32), 0U);
  EXPECT_EQ(Ulps(NAN, 1.0, graph::DType::kFloat64), kNotComparable);
}

TEST(UlpTest, IntegersAreTheirDifference) {
  EXPECT_EQ(Ulps(3, 7, graph::DType::kInt64), 4U);
  EXPECT_EQ(Why(0x1p60, 1, graph::DType::kInt64),
            "1.152921504606847e+18 or 1 is not an integer held exactly");
  EXPECT_EQ(Why(0.5, 1, graph::DType::kInt64), "0.5 or 1 is not an integer held exactly");
}

TEST(UlpTest, ValuesOutsideTheDtypeAndFloat16AreRefused) {
  EXPECT_EQ(Why(0.1, 0.1, graph::DType::kFloat32), "0.1 or 0.1 is not a float32 value");
  EXPECT_EQ(Why(1e300, 1, graph::DType::kFloat32), "1e+300 or 1 is not a float32 value");
  EXPECT_EQ(Why(1.0, 1.0 + 0x1p-23, graph::DType::kBFloat16),
            "1 or 1.0000001192092896 is not a bfloat16 value");
  EXPECT_EQ(Why(1.0, 1.0, graph::DType::kFloat16), "ULP distance in float16 is not modeled");
}

}  // namespace
}  // namespace tdc::gpu
