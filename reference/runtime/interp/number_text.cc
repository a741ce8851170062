#include "reference/runtime/interp/number_text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

// `text` without CPython's surrounding whitespace; refused when it holds a non-ASCII byte
// (Unicode spaces and digits CPython also reads).
std::string_view Trimmed(std::string_view text, std::string_view what) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      RefuseNotModeled(std::string(what) + "() of a str with non-ASCII characters is not modeled");
    }
  }
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// Decimal digits with single underscores between them, the underscores dropped; nullopt for
// none or a misplaced underscore.
std::optional<std::string> Digits(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '_') {
      if (i == 0 || i + 1 == text.size() || text[i - 1] == '_') return std::nullopt;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return std::nullopt;
    out.push_back(c);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<int64_t> ParseIntText(std::string_view text) {
  text = Trimmed(text, "int");
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  std::optional<std::string> digits = Digits(text);
  if (!digits) return std::nullopt;
  // CPython's limit on a conversion (sys.get_int_max_str_digits()): a ValueError of its own.
  if (digits->size() > 4300)
    RefuseNotModeled("int() of a str of more than 4300 digits is not modeled");
  if (negative) digits->insert(digits->begin(), '-');
  int64_t value = 0;
  const auto [end, error] = std::from_chars(digits->data(), digits->data() + digits->size(), value);
  if (error == std::errc::result_out_of_range) {
    RefuseNotModeled("int outside the reference's int64 range");
  }
  if (error != std::errc() || end != digits->data() + digits->size()) return std::nullopt;
  return value;
}

std::optional<double> ParseFloatText(std::string_view text) {
  text = Trimmed(text, "float");
  std::string sign;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    sign = text.front() == '-' ? "-" : "";
    text.remove_prefix(1);
  }
  const double negate = sign.empty() ? 1.0 : -1.0;
  if (EqualsIgnoringCase(text, "inf") || EqualsIgnoringCase(text, "infinity"))
    return negate * std::numeric_limits<double>::infinity();
  if (EqualsIgnoringCase(text, "nan"))
    return std::copysign(std::numeric_limits<double>::quiet_NaN(), negate);  // "-nan" too
  // mantissa [e exponent]: digits, digits '.', digits '.' digits, '.' digits.
  const size_t e = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, e);
  std::string normalized = sign;
  const size_t dot = mantissa.find('.');
  std::string_view whole = mantissa.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : mantissa.substr(dot + 1);
  std::optional<std::string> whole_digits = whole.empty() ? std::string() : Digits(whole);
  std::optional<std::string> fraction_digits = fraction.empty() ? std::string() : Digits(fraction);
  if (!whole_digits || !fraction_digits || (whole_digits->empty() && fraction_digits->empty()))
    return std::nullopt;
  normalized += *whole_digits + "." + *fraction_digits;
  if (e != std::string_view::npos) {
    std::string_view exponent = text.substr(e + 1);
    std::string exponent_sign;
    if (!exponent.empty() && (exponent.front() == '+' || exponent.front() == '-')) {
      exponent_sign = exponent.front() == '-' ? "-" : "";
      exponent.remove_prefix(1);
    }
    std::optional<std::string> exponent_digits = Digits(exponent);
    if (!exponent_digits) return std::nullopt;
    normalized += "e" + exponent_sign + *exponent_digits;
  }
  // from_chars rounds correctly, as CPython's dtoa does. Past the double range CPython gives
  // inf or (underflow) a signed 0, which strtod gives (the "C" locale: the program never
  // sets another).
  double value = 0;
  const auto [end, error] =
      std::from_chars(normalized.data(), normalized.data() + normalized.size(), value);
  if (error == std::errc::result_out_of_range) return std::strtod(normalized.c_str(), nullptr);
  if (error != std::errc() || end != normalized.data() + normalized.size()) return std::nullopt;
  return value;
}

}  // namespace tdc::runtime
