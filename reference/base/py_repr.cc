#include "reference/base/py_repr.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "reference/base/code_point_ranges.h"

namespace tdc {
namespace {

// Non-ASCII code points that str.isprintable() rejects (categories Cc, Zs, Zl, Zp, Cf,
// Cs, Co); see the header for what is approximated.
constexpr CodePointRange kNonPrintable[] = {
    {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},
    {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},
    {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
    {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},   {0xD800, 0xF8FF},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF}};

char ChooseQuote(std::string_view text) {
  bool has_single = text.find('\'') != std::string_view::npos;
  bool has_double = text.find('"') != std::string_view::npos;
  return has_single && !has_double ? '"' : '\'';
}

// Shortest round-trip digits and decimal exponent of a finite, positive double:
// value = 0.d1d2d3... * 10^(exponent) with `digits` = "d1d2d3...".
void ShortestDigits(double value, std::string& digits, int& exponent) {
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string_view s(buf, result.ptr - buf);  // "d.ddde+XX"
  size_t e = s.find('e');
  digits.clear();
  for (char c : s.substr(0, e)) {
    if (c != '.') digits += c;
  }
  exponent = std::atoi(std::string(s.substr(e + 1)).c_str()) + 1;
}

// Python's float_repr_style 'short' with format code 'r'; `add_dot_zero` is false for
// the parts of a complex number.
std::string FormatRepr(double value, bool add_dot_zero) {
  if (std::isnan(value)) return "nan";
  std::string sign = std::signbit(value) ? "-" : "";
  value = std::fabs(value);
  if (std::isinf(value)) return sign + "inf";
  if (value == 0) return sign + (add_dot_zero ? "0.0" : "0");
  std::string digits;
  int exponent;
  ShortestDigits(value, digits, exponent);
  int decpt = exponent;  // Position of the decimal point relative to the digits.
  std::string out;
  if (decpt - 1 >= -4 && decpt - 1 < 16) {
    if (decpt <= 0) {
      out = "0." + std::string(-decpt, '0') + digits;
    } else if (decpt >= static_cast<int>(digits.size())) {
      out = digits + std::string(decpt - digits.size(), '0');
      if (add_dot_zero) out += ".0";
    } else {
      out = digits.substr(0, decpt) + "." + digits.substr(decpt);
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    int e = decpt - 1;
    out += fmt::format("e{}{:02d}", e < 0 ? '-' : '+', std::abs(e));
  }
  return sign + out;
}

// The escapes that repr(str) and repr(bytes) share: the quote, backslash, \t, \n, \r.
bool AppendSharedEscape(std::string& out, char32_t c, char quote) {
  switch (c) {
    case '\t':
      out += "\\t";
      return true;
    case '\n':
      out += "\\n";
      return true;
    case '\r':
      out += "\\r";
      return true;
    case '\\':
      out += "\\\\";
      return true;
  }
  if (c != static_cast<char32_t>(static_cast<unsigned char>(quote))) return false;
  out += '\\';
  out += quote;
  return true;
}

}  // namespace

bool IsPrintable(char32_t c) {
  if (c < 0x80) return c >= 0x20 && c < 0x7F;
  return !InRanges(c, kNonPrintable);
}

char32_t DecodeUtf8(std::string_view text, size_t& i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  bool valid = extra > 0 && i + extra < text.size();
  for (int k = 1; valid && k <= extra; ++k) {
    valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
  }
  if (!valid) {
    ++i;
    return c;
  }
  char32_t cp = c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  i += extra + 1;
  return cp;
}

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string ReprStr(std::string_view utf8) {
  char quote = ChooseQuote(utf8);
  std::string out(1, quote);
  for (size_t i = 0; i < utf8.size();) {
    char32_t c = DecodeUtf8(utf8, i);
    if (AppendSharedEscape(out, c, quote)) continue;
    if (IsPrintable(c)) {
      AppendUtf8(out, c);
    } else if (c < 0x100) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    } else if (c < 0x10000) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += fmt::format("\\U{:08x}", static_cast<unsigned>(c));
    }
  }
  out += quote;
  return out;
}

std::string ReprBytes(std::string_view bytes) {
  char quote = ChooseQuote(bytes);
  std::string out = "b";
  out += quote;
  for (char ch : bytes) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (AppendSharedEscape(out, c, quote)) continue;
    if (c < 0x20 || c >= 0x7F) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    } else {
      out += ch;
    }
  }
  out += quote;
  return out;
}

std::string ReprFloat(double value) { return FormatRepr(value, true); }

std::string ReprImaginary(double imag) { return FormatRepr(imag, false) + "j"; }

}  // namespace tdc
