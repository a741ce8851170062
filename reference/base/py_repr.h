// Python's repr() of the literal types, byte for byte as CPython 3.11 prints them.
#ifndef TDCONFORM_REFERENCE_BASE_PY_REPR_H_
#define TDCONFORM_REFERENCE_BASE_PY_REPR_H_

#include <string>
#include <string_view>

namespace tdc {

// repr(str) for a UTF-8 string (surrogate code points encoded as 3-byte sequences).
// Which non-ASCII characters print as themselves follows str.isprintable() for the
// assigned categories that matter in source files (controls, separators, format
// characters, surrogates, private use); unassigned code points are not modelled.
std::string ReprStr(std::string_view utf8);

// repr(bytes).
std::string ReprBytes(std::string_view bytes);

// repr(float): the shortest digits that round-trip, fixed notation for exponents in
// [-4, 16), scientific otherwise; "inf", "nan".
std::string ReprFloat(double value);

// repr(complex) of a number with zero real part, as literals like `2j` produce.
std::string ReprImaginary(double imag);

// str.isprintable() of one code point (with the approximation described above).
bool IsPrintable(char32_t code_point);

// Decodes one code point from UTF-8 at `i` (advancing it); invalid bytes decode as
// themselves so that decoding never fails.
char32_t DecodeUtf8(std::string_view text, size_t& i);
void AppendUtf8(std::string& out, char32_t code_point);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_PY_REPR_H_
