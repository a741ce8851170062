// Expected strings are CPython 3.11's repr() of the same values.
#include "reference/base/py_repr.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tdc {
namespace {

TEST(ReprFloatTest, MatchesCPythonShortRepr) {
  EXPECT_EQ(ReprFloat(1500.0), "1500.0");
  EXPECT_EQ(ReprFloat(1e16), "1e+16");
  EXPECT_EQ(ReprFloat(1e-5), "1e-05");
  EXPECT_EQ(ReprFloat(0.0001), "0.0001");
  EXPECT_EQ(ReprFloat(0.1), "0.1");
  EXPECT_EQ(ReprFloat(1.5e300), "1.5e+300");
  EXPECT_EQ(ReprFloat(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(ReprFloat(9999999999999998.0), "9999999999999998.0");
  EXPECT_EQ(ReprFloat(5e-324), "5e-324");
  EXPECT_EQ(ReprFloat(123.456), "123.456");
  EXPECT_EQ(ReprFloat(0.0), "0.0");
  EXPECT_EQ(ReprFloat(-2.5), "-2.5");
  EXPECT_EQ(ReprFloat(INFINITY), "inf");
}

TEST(ReprImaginaryTest, DropsTheDotZero) {
  EXPECT_EQ(ReprImaginary(2.0), "2j");
  EXPECT_EQ(ReprImaginary(1.5), "1.5j");
  EXPECT_EQ(ReprImaginary(1e16), "1e+16j");
  EXPECT_EQ(ReprImaginary(1e-7), "1e-07j");
}

TEST(ReprStrTest, ChoosesQuotesAndEscapes) {
  EXPECT_EQ(ReprStr("it's"), "\"it's\"");
  EXPECT_EQ(ReprStr("a\"b'c"), "'a\"b\\'c'");
  EXPECT_EQ(ReprStr("\x01\u00a0\u00e9\u2028"), "'\\x01\\xa0\u00e9\\u2028'");
  EXPECT_EQ(ReprStr("tab\there\n\\"), "'tab\\there\\n\\\\'");
}

TEST(ReprBytesTest, EscapesNonAscii) {
  EXPECT_EQ(ReprBytes(std::string_view("a'\x00\xff", 4)), "b\"a'\\x00\\xff\"");
}

TEST(Utf8Test, RoundTripsAndSurvivesInvalidBytes) {
  std::string s;
  AppendUtf8(s, 0x1F600);
  AppendUtf8(s, 0xE9);
  size_t i = 0;
  EXPECT_EQ(DecodeUtf8(s, i), 0x1F600u);
  EXPECT_EQ(DecodeUtf8(s, i), 0xE9u);
  EXPECT_EQ(i, s.size());
  std::string bad = "\xE2\x28";
  i = 0;
  EXPECT_EQ(DecodeUtf8(bad, i), 0xE2u);
  EXPECT_EQ(i, 1u);
}

}  // namespace
}  // namespace tdc
