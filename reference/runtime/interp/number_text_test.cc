// int(s) and float(s) of a str: the expected values are what CPython 3.11 gives for the
// same text (python3 -c "int(s), float(s)"), its ValueError a nullopt here.
#include "reference/runtime/interp/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

TEST(NumberText, IntReadsWhatCPythonReads) {
  EXPECT_EQ(ParseIntText("1_000"), 1000);
  EXPECT_EQ(ParseIntText(" 12 "), 12);
  EXPECT_EQ(ParseIntText("+5"), 5);
  EXPECT_EQ(ParseIntText("-0"), 0);
  EXPECT_EQ(ParseIntText("-9223372036854775808"), INT64_MIN);
  for (const char* rejected : {"1__0", "1e3", ".5", "5.", "inf", "", " ", "_1", "1_", "0x10"}) {
    EXPECT_EQ(ParseIntText(rejected), std::nullopt) << rejected;
  }
}

TEST(NumberText, FloatReadsWhatCPythonReads) {
  EXPECT_EQ(ParseFloatText("1_000"), 1000.0);
  EXPECT_EQ(ParseFloatText(" 12 "), 12.0);
  EXPECT_EQ(ParseFloatText("1e3"), 1000.0);
  EXPECT_EQ(ParseFloatText(".5"), 0.5);
  EXPECT_EQ(ParseFloatText("5."), 5.0);
  EXPECT_EQ(ParseFloatText(" 1_0.2_5e1_0 "), 102500000000.0);
  EXPECT_EQ(ParseFloatText("0.1"), 0.1);  // correctly rounded
  EXPECT_TRUE(std::signbit(*ParseFloatText("-0")));
  EXPECT_EQ(ParseFloatText("inf"), INFINITY);
  EXPECT_EQ(ParseFloatText("-Infinity"), -INFINITY);
  EXPECT_TRUE(std::isnan(*ParseFloatText("NaN")));
  for (const char* rejected : {"1__0", "1e", "e5", ".", "0x10", "1.5.2", "", "infinit", "1e+"}) {
    EXPECT_EQ(ParseFloatText(rejected), std::nullopt) << rejected;
  }
}

TEST(NumberText, WhatTheReferenceCannotReadExactlyIsRefused) {
  EXPECT_THROW(ParseIntText("9223372036854775808"), NotModeled);  // a Python int beyond int64
  EXPECT_THROW(ParseIntText("\xd9\xa1\xd9\xa2"), NotModeled);     // Arabic-Indic 12
  EXPECT_THROW(ParseIntText(std::string(4300, '0') + "7"), NotModeled);  // CPython's limit
}

TEST(NumberText, FloatPastTheDoubleRangeIsCPythonsInfOrZero) {
  EXPECT_EQ(ParseFloatText("1e400"), INFINITY);
  EXPECT_EQ(ParseFloatText("1e-400"), 0.0);
  EXPECT_TRUE(std::signbit(*ParseFloatText("-1e-400")));
  EXPECT_EQ(ParseFloatText("2.4e-324"), 0.0);
  EXPECT_EQ(ParseFloatText("5e-324"), 5e-324);
  EXPECT_TRUE(std::signbit(*ParseFloatText("-nan")));
}

}  // namespace
}  // namespace tdc::runtime
