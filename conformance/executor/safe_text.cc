#include "conformance/executor/safe_text.h"

#include <fmt/format.h>

#include <cstring>

namespace tdc::conformance {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at `text[i]` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), 0 when none starts there; its code point in `cp`.
size_t SequenceAt(std::string_view text, size_t i, char32_t& cp) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char b0 = byte(0);
  size_t length = 0;
  char32_t min = 0;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    length = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

std::string SafeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t length = SequenceAt(text, i, cp);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
    } else if (cp == 0xFFFE || cp == 0xFFFF) {
      out += kReplacement;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string BackendText(const char* buffer, size_t capacity) {
  if (buffer == nullptr) return "";
  return SafeText(std::string_view(buffer, strnlen(buffer, capacity)));
}

}  // namespace tdc::conformance
