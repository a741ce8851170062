// Expected reasons and positions are CPython 3.11.7's (`bytes.decode('utf-8')`).
#include "reference/base/utf8.h"

#include <gtest/gtest.h>

namespace tdc {
namespace {

std::string MessageOf(std::string_view text) {
  std::optional<Utf8Error> error = FirstUtf8Error(text);
  return error ? Utf8ErrorMessage(*error) : "ok";
}

TEST(Utf8, ValidTextHasNoError) {
  EXPECT_EQ(MessageOf(""), "ok");
  EXPECT_EQ(MessageOf("x = 1"), "ok");
  EXPECT_EQ(MessageOf("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "ok");  // é € 😀
  EXPECT_EQ(MessageOf("\xf4\x8f\xbf\xbf"), "ok");                      // U+10FFFF
}

TEST(Utf8, InvalidBytesAsCPythonNamesThem) {
  EXPECT_EQ(MessageOf("ab\xff"),
            "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte");
  EXPECT_EQ(MessageOf("\x80"),
            "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte");
  EXPECT_EQ(MessageOf("\xc0\x80"),
            "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
  EXPECT_EQ(MessageOf("\xe9t"),
            "'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte");
  // A surrogate (U+D800), an overlong three-byte form, a code point past U+10FFFF.
  EXPECT_EQ(MessageOf("\xed\xa0\x80"),
            "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte");
  EXPECT_EQ(MessageOf("\xe0\x80\x80"),
            "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte");
  EXPECT_EQ(MessageOf("\xf4\x90\x80\x80"),
            "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte");
  EXPECT_EQ(MessageOf("\xf5"),
            "'utf-8' codec can't decode byte 0xf5 in position 0: invalid start byte");
  EXPECT_EQ(MessageOf("a\xc3"),
            "'utf-8' codec can't decode byte 0xc3 in position 1: unexpected end of data");
  EXPECT_EQ(MessageOf("\xe2\x82"),
            "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
}

}  // namespace
}  // namespace tdc
