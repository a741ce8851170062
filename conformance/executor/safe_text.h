// Text that came from a backend (its messages, its info strings, a library's path) made safe
// for every place it goes: valid UTF-8 (a JSON report cannot hold anything else; nlohmann
// throws on it) and legal in XML 1.0 (JUnit: ESC from coloured compiler output makes the
// file unreadable). A backend's message buffer need not end in NUL: only its capacity is read.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_SAFE_TEXT_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_SAFE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace tdc::conformance {

// `text` with each byte that starts no valid UTF-8 sequence as U+FFFD, each control character
// but tab, newline and carriage return as `\xNN`, and U+FFFE and U+FFFF (not XML characters)
// as U+FFFD.
std::string SafeText(std::string_view text);

// The NUL-terminated text at `buffer`, read no further than `capacity` bytes, made safe; ""
// for a null pointer.
std::string BackendText(const char* buffer, size_t capacity);

// The most bytes read of a string a backend hands over without its size (an info string).
inline constexpr size_t kMaxBackendString = 4096;

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_SAFE_TEXT_H_
