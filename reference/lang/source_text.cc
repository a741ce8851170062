#include "reference/lang/source_text.h"

#include <algorithm>

namespace tdc::lang {

SourceText::SourceText(std::string_view text) {
  // Copied a run at a time between the `\r`s (most sources have none): a character at a
  // time was a sixtieth of a parse (issue 30).
  text_.reserve(text.size());
  size_t run = 0;
  for (size_t cr = text.find('\r'); cr != std::string_view::npos; cr = text.find('\r', run)) {
    text_.append(text.substr(run, cr - run));
    text_ += '\n';
    run = cr + (cr + 1 < text.size() && text[cr + 1] == '\n' ? 2 : 1);
  }
  text_.append(text.substr(run));
  line_starts_.push_back(0);
  for (size_t nl = text_.find('\n'); nl != std::string::npos && nl + 1 < text_.size();
       nl = text_.find('\n', nl + 1)) {
    line_starts_.push_back(nl + 1);
  }
}

std::string_view SourceText::Line(int line) const {
  if (line < 1 || line > line_count()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = text_.find('\n', begin);
  if (end == std::string::npos) end = text_.size();
  return std::string_view(text_).substr(begin, end - begin);
}

int SourceText::CharColumn(int line, int byte_col) const {
  std::string_view text = Line(line);
  size_t limit = std::min(text.size(), static_cast<size_t>(std::max(byte_col, 0)));
  int chars = 0;
  for (size_t i = 0; i < limit; ++i) {
    // Count bytes that start a UTF-8 sequence (not continuation bytes 10xxxxxx).
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  // Offsets past the end of the line (at end of file) keep counting in bytes.
  if (byte_col > static_cast<int>(text.size())) chars += byte_col - static_cast<int>(text.size());
  return chars + 1;
}

}  // namespace tdc::lang
