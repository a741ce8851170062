// The tokenizer's state machine, shared by lexer.cc (lines, indentation, operators) and
// lexer_literals.cc (names, strings, numbers). Not part of the public interface.
#ifndef TDCONFORM_REFERENCE_LANG_LEXER_INTERNAL_H_
#define TDCONFORM_REFERENCE_LANG_LEXER_INTERNAL_H_

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "reference/lang/source_text.h"
#include "reference/lang/token.h"

namespace tdc::lang {

inline bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
inline bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || std::isdigit(c); }

// Raised inside the tokenizer; turned into the stream's final kTokenizerError token.
struct TokenizerError {
  Diagnostic diagnostic;
};

class Lexer {
 public:
  Lexer(const SourceText& source, const std::string& filename)
      : source_(source), text_(source.text()), filename_(filename) {}

  std::vector<Token> Run();

 private:
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  int Col() const { return static_cast<int>(pos_ - line_start_); }
  SourcePos Pos() const { return {line_, Col()}; }
  SourcePos PosAt(size_t offset) const { return {line_, static_cast<int>(offset - line_start_)}; }

  // Errors take 1-based character columns given as a byte offset within `line`.
  [[noreturn]] void Fail(const char* kind_message, int line, int byte_col_1based,
                         DiagnosticKind kind = DiagnosticKind::kSyntaxError) const;
  [[noreturn]] void Fail(const std::string& message, int line, int byte_col_1based) const;

  void Emit(TokenKind kind, size_t begin, size_t end);
  void EmitAt(TokenKind kind, SourcePos pos);
  void NewLine();
  void Step();

  // Measures the indentation of a new logical line and emits INDENT / DEDENT tokens.
  // Returns true when the line is blank or a comment (it produces no tokens).
  bool HandleIndentation();

  [[noreturn]] void FailTab();
  void FinishFile();
  void LineContinuation();
  void Operator();
  void CloseBracket(char close, size_t at);

  // Names, strings and numbers (lexer_literals.cc).
  void NameOrString();

  // CPython's verify_identifier: non-ASCII characters must be XID_Start / XID_Continue.
  void CheckIdentifier(std::string_view word, size_t begin);

  void String(size_t begin);

  // Fails with CPython's "invalid ... literal" message, pointing where its tokenizer does:
  // the 1-based column equals the 0-based offset of the offending character.
  [[noreturn]] void FailNumber(const std::string& message, size_t offending);

  void Digits(bool (*is_digit)(char), const char* kind);
  void Number();
  void EndNumber(size_t begin, const char* kind);

  struct Bracket {
    char ch;
    int line;
    int col;  // 0-based byte column.
  };

  const SourceText& source_;
  std::string_view text_;
  const std::string& filename_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  bool done_ = false;
  std::vector<int> indents_{0};
  std::vector<int> altindents_{0};
  std::vector<Bracket> brackets_;
};

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_LEXER_INTERNAL_H_
