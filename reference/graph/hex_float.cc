// float.hex() works on the IEEE-754 binary64 fields directly: a normal number is
// 0x1.<52 fraction bits as 13 hex digits>p<exponent>, a subnormal 0x0.<...>p-1022, and
// zero the short form 0x0.0p+0 (CPython's float_hex in Objects/floatobject.c).
#include "reference/graph/hex_float.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>

namespace tdc::graph {
namespace {

constexpr int kFractionBits = 52;
constexpr int kFractionDigits = kFractionBits / 4;
constexpr uint64_t kFractionMask = (uint64_t{1} << kFractionBits) - 1;
constexpr int kExponentBias = 1023;
constexpr int kMinNormalExponent = 1 - kExponentBias;  // -1022
constexpr int kMaxExponent = kExponentBias;            // 1023

int LowerHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// A decimal exponent with its sign: "+1", "-1022". No leading zeros ("+0" only).
std::optional<int> ParseExponent(std::string_view text) {
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  if (text[1] == '0' && text.size() > 2) return std::nullopt;
  if (text.size() > 6) return std::nullopt;
  int magnitude = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    magnitude = magnitude * 10 + (c - '0');
  }
  if (text[0] == '-' && magnitude == 0) return std::nullopt;  // "-0" is written "+0".
  return text[0] == '-' ? -magnitude : magnitude;
}

}  // namespace

std::string FormatHexFloat(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string sign = std::signbit(value) ? "-" : "";
  if (value == 0) return sign + "0x0.0p+0";
  uint64_t bits = std::bit_cast<uint64_t>(value);
  int biased = static_cast<int>((bits >> kFractionBits) & 0x7FF);
  uint64_t fraction = bits & kFractionMask;
  int leading = biased == 0 ? 0 : 1;
  int exponent = biased == 0 ? kMinNormalExponent : biased - kExponentBias;
  return fmt::format("{}0x{}.{:013x}p{:+d}", sign, leading, fraction, exponent);
}

std::optional<double> ParseHexFloat(std::string_view text) {
  if (text == "nan") return std::nan("");
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  double sign = negative ? -1.0 : 1.0;
  if (text == "0x0.0p+0") return sign * 0.0;
  // 0x<leading>.<13 digits>p<exponent>
  constexpr size_t kExponentStart = 4 + kFractionDigits;
  if (text.size() < kExponentStart + 3 || text.substr(0, 2) != "0x" || text[3] != '.' ||
      text[kExponentStart] != 'p') {
    return std::nullopt;
  }
  if (text[2] != '0' && text[2] != '1') return std::nullopt;
  bool normal = text[2] == '1';
  uint64_t fraction = 0;
  for (char c : text.substr(4, kFractionDigits)) {
    int digit = LowerHexValue(c);
    if (digit < 0) return std::nullopt;
    fraction = fraction << 4 | static_cast<uint64_t>(digit);
  }
  std::optional<int> exponent = ParseExponent(text.substr(kExponentStart + 1));
  if (!exponent) return std::nullopt;
  uint64_t biased;
  if (normal) {
    if (*exponent < kMinNormalExponent || *exponent > kMaxExponent) return std::nullopt;
    biased = static_cast<uint64_t>(*exponent + kExponentBias);
  } else {
    // Subnormal: Python writes these with exponent -1022; zero has its short form.
    if (*exponent != kMinNormalExponent || fraction == 0) return std::nullopt;
    biased = 0;
  }
  uint64_t bits = (negative ? uint64_t{1} << 63 : 0) | biased << kFractionBits | fraction;
  return std::bit_cast<double>(bits);
}

}  // namespace tdc::graph
