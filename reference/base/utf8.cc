#include "reference/base/utf8.h"

#include <fmt/format.h>

namespace tdc {
namespace {

// The length of the sequence a lead byte starts (0: it starts none), and the range its
// second byte must lie in (CPython's utf8_decode: E0 needs A0..BF against overlong forms,
// ED 80..9F against surrogates, F0 90..BF, F4 80..8F against code points past U+10FFFF).
struct Lead {
  int length = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
};

Lead LeadOf(unsigned char c) {
  if (c < 0x80) return {1};
  if (c < 0xC2) return {0};  // a continuation byte, or an overlong two-byte lead
  if (c < 0xE0) return {2};
  if (c == 0xE0) return {3, 0xA0, 0xBF};
  if (c == 0xED) return {3, 0x80, 0x9F};
  if (c < 0xF0) return {3};
  if (c == 0xF0) return {4, 0x90, 0xBF};
  if (c < 0xF4) return {4};
  if (c == 0xF4) return {4, 0x80, 0x8F};
  return {0};
}

}  // namespace

std::optional<Utf8Error> FirstUtf8Error(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    Lead lead = LeadOf(c);
    if (lead.length == 0) return Utf8Error{i, 1, c, "invalid start byte"};
    for (int k = 1; k < lead.length; ++k) {
      if (i + k >= text.size()) return Utf8Error{i, text.size() - i, c, "unexpected end of data"};
      auto next = static_cast<unsigned char>(text[i + k]);
      unsigned char min = k == 1 ? lead.second_min : 0x80;
      unsigned char max = k == 1 ? lead.second_max : 0xBF;
      if (next < min || next > max) return Utf8Error{i, 1, c, "invalid continuation byte"};
    }
    i += lead.length;
  }
  return std::nullopt;
}

std::string Utf8ErrorMessage(const Utf8Error& error) {
  if (error.length > 1) {
    return fmt::format("'utf-8' codec can't decode bytes in position {}-{}: {}", error.position,
                       error.position + error.length - 1, error.reason);
  }
  return fmt::format("'utf-8' codec can't decode byte 0x{:02x} in position {}: {}", error.byte,
                     error.position, error.reason);
}

}  // namespace tdc
