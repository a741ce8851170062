#include "reference/lang/coding_declaration.h"

#include <fmt/format.h>

#include <cctype>
#include <regex>

namespace tdc::lang {
namespace {

// CPython's tokenizer (get_coding_spec): a comment line holding `coding[:=]NAME`.
const std::regex& CodingPattern() {
  static const std::regex pattern(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
  return pattern;
}

// CPython's get_normal_name: "utf-8", "utf_8", "UTF-8-unix"... all name UTF-8.
bool NamesUtf8(std::string name) {
  for (char& c : name)
    c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == "utf-8" || name.starts_with("utf-8-") || name == "utf8";
}

}  // namespace

std::optional<Diagnostic> RefuseNonUtf8Coding(std::string_view source,
                                              const std::string& filename) {
  size_t begin = 0;
  for (int line = 1; line <= 2 && begin <= source.size(); ++line) {
    size_t end = source.find('\n', begin);
    std::string text(source.substr(begin, end == std::string_view::npos ? end : end - begin));
    std::smatch match;
    // Few files declare a coding: the regex (compiled on first use, most of a small
    // program's cost) is only for a line that could.
    if (text.find("coding") != std::string::npos &&
        std::regex_search(text, match, CodingPattern())) {
      if (NamesUtf8(match[1].str())) return std::nullopt;
      return Diagnostic{DiagnosticKind::kUnsupported, filename, line, 1,
                        fmt::format("source encoding '{}' (a coding declaration) is not modeled: "
                                    "the reference reads UTF-8 only",
                                    match[1].str())};
    }
    // Only a comment or blank first line lets the second declare the encoding.
    size_t first = text.find_first_not_of(" \t\f\r");
    if (first != std::string::npos && text[first] != '#') return std::nullopt;
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace tdc::lang
