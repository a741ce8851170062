// The strings are CPython 3.11's float.hex() of the same numbers; the numbers are built
// independently with std::ldexp from their integer significands.
#include "reference/graph/hex_float.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace tdc::graph {
namespace {

struct Known {
  const char* text;
  double value;
};

const Known kKnown[] = {
    {"0x1.8000000000000p+1", std::ldexp(3.0, 0)},
    {"0x1.0000000000000p+0", std::ldexp(1.0, 0)},
    {"-0x1.0000000000000p+0", -std::ldexp(1.0, 0)},
    {"0x1.999999999999ap-4", std::ldexp(static_cast<double>(0x1999999999999aLL), -56)},
    {"0x0.0000000000001p-1022", std::ldexp(1.0, -1074)},
    {"0x1.0000000000000p-1022", std::ldexp(1.0, -1022)},
    {"0x0.8000000000000p-1022", std::ldexp(1.0, -1023)},
    {"0x1.fffffffffffffp+1023", std::ldexp(static_cast<double>(0x1fffffffffffffLL), 971)},
    // float32(0.1) widened to double, as torch's tolist() hands it to float.hex().
    {"0x1.99999a0000000p-4", std::ldexp(static_cast<double>(0x199999a), -28)},
    {"0x0.0p+0", 0.0},
    {"inf", std::numeric_limits<double>::infinity()},
    {"-inf", -std::numeric_limits<double>::infinity()},
};

TEST(HexFloatTest, FormatsLikePythonFloatHex) {
  for (const Known& k : kKnown) EXPECT_EQ(FormatHexFloat(k.value), k.text) << k.text;
  EXPECT_EQ(FormatHexFloat(0.1), "0x1.999999999999ap-4");
  EXPECT_EQ(FormatHexFloat(static_cast<double>(0.1f)), "0x1.99999a0000000p-4");
  EXPECT_EQ(FormatHexFloat(-0.0), "-0x0.0p+0");
  EXPECT_EQ(FormatHexFloat(std::nan("")), "nan");
  EXPECT_EQ(FormatHexFloat(-std::nan("")), "nan");
}

TEST(HexFloatTest, ParsesExactly) {
  for (const Known& k : kKnown) {
    std::optional<double> parsed = ParseHexFloat(k.text);
    ASSERT_TRUE(parsed) << k.text;
    EXPECT_EQ(*parsed, k.value) << k.text;
    EXPECT_EQ(std::signbit(*parsed), std::signbit(k.value)) << k.text;
  }
  std::optional<double> negative_zero = ParseHexFloat("-0x0.0p+0");
  ASSERT_TRUE(negative_zero);
  EXPECT_EQ(*negative_zero, 0.0);
  EXPECT_TRUE(std::signbit(*negative_zero));
  std::optional<double> nan = ParseHexFloat("nan");
  ASSERT_TRUE(nan);
  EXPECT_TRUE(std::isnan(*nan));
}

TEST(HexFloatTest, RoundTripsEveryKindOfDouble) {
  const double values[] = {1.0 / 3.0,
                           -2.5e-300,
                           6.02214076e23,
                           std::ldexp(3.0, -1074),
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(),
                           -0.0,
                           12345.678};
  for (double v : values) {
    std::optional<double> back = ParseHexFloat(FormatHexFloat(v));
    ASSERT_TRUE(back) << FormatHexFloat(v);
    EXPECT_EQ(*back, v) << FormatHexFloat(v);
    EXPECT_EQ(std::signbit(*back), std::signbit(v));
  }
}

TEST(HexFloatTest, RejectsNonCanonicalText) {
  const char* bad[] = {
      "",
      "0x1.8p+1",
      "1.5",
      "NaN",
      "-nan",
      "+inf",
      "Infinity",
      "0X1.8000000000000p+1",
      "0x1.800000000000Ap+1",   // upper-case digit
      "0x1.8000000000000p1",    // exponent without sign
      "0x1.8000000000000p+01",  // leading zero
      "0x1.8000000000000p-0",   // negative zero exponent
      "0x2.0000000000000p+0",   // leading digit
      "0x1.0000000000000p+1024",
      "0x1.0000000000000p-1023",  // Python writes this as a subnormal
      "0x0.0000000000000p-1022",  // zero has its own short form
      "0x0.8000000000000p-1021",  // subnormals always use -1022
      "0x1.8000000000000p+1 ",
      " 0x1.8000000000000p+1",
      "--0x0.0p+0",
      "0x0.0p+00",
  };
  for (const char* text : bad) EXPECT_FALSE(ParseHexFloat(text)) << '"' << text << '"';
}

}  // namespace
}  // namespace tdc::graph
