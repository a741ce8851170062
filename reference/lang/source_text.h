// The text of one source file, split into lines, with CPython's column conventions.
#ifndef TDCONFORM_REFERENCE_LANG_SOURCE_TEXT_H_
#define TDCONFORM_REFERENCE_LANG_SOURCE_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace tdc::lang {

class SourceText {
 public:
  // Line endings `\r\n` and `\r` read as `\n`, as CPython's tokenizer reads them.
  explicit SourceText(std::string_view text);

  const std::string& text() const { return text_; }
  int line_count() const { return static_cast<int>(line_starts_.size()); }
  // 1-based line, without its newline. Out-of-range lines are empty.
  std::string_view Line(int line) const;
  // Byte offset of the start of a 1-based line in text().
  size_t LineStart(int line) const { return line_starts_[line - 1]; }
  // The 1-based character column of a 0-based byte offset within a line: diagnostics
  // count characters, AST attributes count UTF-8 bytes.
  int CharColumn(int line, int byte_col) const;

 private:
  std::string text_;
  std::vector<size_t> line_starts_;
};

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_SOURCE_TEXT_H_
