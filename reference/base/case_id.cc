#include "reference/base/case_id.h"

#include <fmt/format.h>

namespace tdc {
namespace {

constexpr std::string_view kHexDigits = "0123456789ABCDEF";

bool IsPlainByte(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

int HexValue(char c) {
  size_t i = kHexDigits.find(c);  // Upper case only: the written form is canonical.
  return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

void AppendEscaped(std::string& out, unsigned char c) {
  out += '%';
  out += kHexDigits[c >> 4];
  out += kHexDigits[c & 0xF];
}

// Decodes one written component, or says why it is not canonical.
std::optional<std::string> Unescape(std::string_view text, std::string_view what,
                                    std::string& error) {
  if (text.empty()) {
    error = fmt::format("empty {}", what);
    return std::nullopt;
  }
  std::string raw;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (IsPlainByte(c)) {
      raw += static_cast<char>(c);
      continue;
    }
    if (c != '%') {
      error = fmt::format("byte 0x{:02X} in {} \"{}\" must be written %{:02X}", c, what, text, c);
      return std::nullopt;
    }
    bool complete = i + 2 < text.size();
    int hi = complete ? HexValue(text[i + 1]) : -1;
    int lo = complete ? HexValue(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      error = fmt::format(
          "bad escape in {} \"{}\": % must be followed by two upper-case "
          "hex digits",
          what, text);
      return std::nullopt;
    }
    unsigned char decoded = static_cast<unsigned char>(hi * 16 + lo);
    if (IsPlainByte(decoded)) {
      error = fmt::format("needless escape %{}{} in {} \"{}\": write '{}' itself", text[i + 1],
                          text[i + 2], what, text, static_cast<char>(decoded));
      return std::nullopt;
    }
    raw += static_cast<char>(decoded);
    i += 2;
  }
  return raw;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// The written id with `*`, `?` and `-` escaped and `:` replaced by `/`, for GoogleTest.
std::string GtestComponent(std::string_view raw) {
  std::string out;
  for (char c : EscapeCaseIdComponent(raw)) {
    if (c == '*' || c == '?' || c == '-') {
      AppendEscaped(out, static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string EscapeCaseIdComponent(std::string_view raw) {
  std::string out;
  for (char ch : raw) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (IsPlainByte(c)) {
      out += ch;
    } else {
      AppendEscaped(out, c);
    }
  }
  return out;
}

CaseIdParse ParseCaseId(std::string_view text) {
  CaseIdParse result;
  std::vector<std::string_view> parts = Split(text, ':');
  if (parts.size() < 3) {
    result.error = fmt::format("case id \"{}\" needs suite:group:case", text);
    return result;
  }
  CaseId id;
  static constexpr std::string_view kWhat[] = {"suite", "group", "case"};
  std::string* fields[] = {&id.suite, &id.group, &id.name};
  for (int i = 0; i < 3; ++i) {
    std::optional<std::string> raw = Unescape(parts[i], kWhat[i], result.error);
    if (!raw) return result;
    *fields[i] = std::move(*raw);
  }
  for (size_t i = 3; i < parts.size(); ++i) {
    size_t eq = parts[i].find('=');
    if (eq == std::string_view::npos) {
      result.error =
          fmt::format("parameter \"{}\" of case id \"{}\" is not key=value", parts[i], text);
      return result;
    }
    std::optional<std::string> key =
        Unescape(parts[i].substr(0, eq), "parameter key", result.error);
    if (!key) return result;
    std::optional<std::string> value =
        Unescape(parts[i].substr(eq + 1), "parameter value", result.error);
    if (!value) return result;
    id.params.push_back({std::move(*key), std::move(*value)});
  }
  result.id = std::move(id);
  return result;
}

std::string FormatCaseId(const CaseId& id) {
  std::string out = fmt::format("{}:{}:{}", EscapeCaseIdComponent(id.suite),
                                EscapeCaseIdComponent(id.group), EscapeCaseIdComponent(id.name));
  for (const CaseParam& param : id.params) {
    out +=
        fmt::format(":{}={}", EscapeCaseIdComponent(param.key), EscapeCaseIdComponent(param.value));
  }
  return out;
}

std::string CaseIdCtestRegex(const CaseId& id) {
  constexpr std::string_view kMeta = "^$.[]*+?|(){}\\";
  std::string out = "^";
  for (char c : FormatCaseId(id)) {
    if (kMeta.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  out += '$';
  return out;
}

GtestName CaseIdGtestName(const CaseId& id) {
  GtestName name;
  name.suite = GtestComponent(id.suite);
  name.test = GtestComponent(id.group) + "/" + GtestComponent(id.name);
  for (const CaseParam& param : id.params) {
    name.test += "/" + GtestComponent(param.key) + "=" + GtestComponent(param.value);
  }
  return name;
}

std::string CaseIdGtestFilter(const CaseId& id) {
  GtestName name = CaseIdGtestName(id);
  return name.suite + "." + name.test;
}

}  // namespace tdc
