// int(s) and float(s) of a str, as CPython 3.11 reads one: surrounding ASCII whitespace,
// a sign, decimal digits with single underscores between them, float's exponent, "inf",
// "infinity" and "nan" in any case. What the reference cannot read exactly (other Unicode
// digits or spaces, an int beyond int64 or of more than CPython's 4300 digits) is refused;
// text CPython rejects is nullopt (its ValueError is the caller's).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_NUMBER_TEXT_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_NUMBER_TEXT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace tdc::runtime {

std::optional<int64_t> ParseIntText(std::string_view text);
std::optional<double> ParseFloatText(std::string_view text);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_NUMBER_TEXT_H_
