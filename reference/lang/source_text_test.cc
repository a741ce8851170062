// Line endings and line numbering; expected lines are those CPython 3.11 gives the same
// text (`ast.parse("a=1\r\r\nb=2\rc=3\r\n")` puts its statements on lines 1, 3 and 4).
#include "reference/lang/source_text.h"

#include <gtest/gtest.h>

namespace tdc::lang {
namespace {

TEST(SourceTextTest, CarriageReturnsReadAsNewlinesAndCrLfAsOne) {
  SourceText source("a=1\r\r\nb=2\rc=3\r\n");
  EXPECT_EQ(source.text(), "a=1\n\nb=2\nc=3\n");
  EXPECT_EQ(source.line_count(), 4);
  EXPECT_EQ(source.Line(1), "a=1");
  EXPECT_EQ(source.Line(2), "");
  EXPECT_EQ(source.Line(3), "b=2");
  EXPECT_EQ(source.Line(4), "c=3");
  EXPECT_EQ(source.LineStart(4), 9u);
}

TEST(SourceTextTest, TextWithoutCarriageReturnsIsKeptAsItIs) {
  SourceText source("x = 1\n\ny = 2");
  EXPECT_EQ(source.text(), "x = 1\n\ny = 2");
  EXPECT_EQ(source.line_count(), 3);
  EXPECT_EQ(source.Line(3), "y = 2");
  EXPECT_EQ(source.Line(4), "");
}

TEST(SourceTextTest, ACarriageReturnAtTheEndEndsTheLastLine) {
  SourceText source("x\r");
  EXPECT_EQ(source.text(), "x\n");
  EXPECT_EQ(source.line_count(), 1);
}

}  // namespace
}  // namespace tdc::lang
