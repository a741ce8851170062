// Strict UTF-8, as CPython's 'utf-8' codec decodes it: the first invalid byte and the
// reason CPython's UnicodeDecodeError gives for it. Source files (PEP 3120) and the
// strings a golden carries (JSON is UTF-8) must be valid; `DecodeUtf8` in py_repr.h
// is the lenient decoder for text already known to be valid or only displayed.
#ifndef TDCONFORM_REFERENCE_BASE_UTF8_H_
#define TDCONFORM_REFERENCE_BASE_UTF8_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tdc {

struct Utf8Error {
  size_t position = 0;  // of the byte that starts the invalid sequence
  size_t length = 1;    // the bytes CPython's error covers: more only at the end of the data
  unsigned char byte = 0;
  // "invalid start byte", "invalid continuation byte" or "unexpected end of data".
  std::string reason;
};

// The first invalid sequence of `text`, or nullopt when all of it is UTF-8. Surrogates
// (U+D800..U+DFFF encoded as ED A0..BF xx) and overlong forms are invalid, as in CPython.
std::optional<Utf8Error> FirstUtf8Error(std::string_view text);

// CPython's message: "'utf-8' codec can't decode byte 0xff in position 2: invalid start
// byte", or "... can't decode bytes in position 0-1: unexpected end of data".
std::string Utf8ErrorMessage(const Utf8Error& error);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_UTF8_H_
