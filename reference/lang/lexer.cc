#include "reference/lang/lexer.h"

#include <array>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "reference/base/py_repr.h"
#include "reference/lang/identifiers.h"

namespace tdc::lang {
namespace {

// CPython's tokenizer limits (Parser/tokenizer.h: MAXINDENT, MAXLEVEL).
constexpr int kMaxIndent = 100;
constexpr int kMaxLevel = 200;
constexpr int kTabSize = 8;

constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",   "True",    "and",      "as",     "assert", "async", "await", "break",
    "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
    "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return",   "try",    "while",  "with",  "yield"};

// Operators, longest first so that the first match is the longest one.
constexpr std::array<std::string_view, 47> kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==",
    "!=",  "+=",  "-=",  "*=",  "/=",  "%=", "&=", "|=", "^=", "@=", "(",  ")",  "[",  "]",
    "{",   "}",   ":",   ",",   ";",   "+",  "-",  "*",  "/",  "|",  "&",  "<",  ">",  "=",
    ".",   "%",   "~",   "^",   "@"};

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || std::isdigit(c); }

bool IsStringPrefix(std::string_view word) {
  std::string lower;
  for (char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view p : {"r", "u", "b", "br", "rb", "f", "fr", "rf"}) {
    if (lower == p) return true;
  }
  return false;
}

// Raised inside the tokenizer; turned into the stream's final kTokenizerError token.
struct TokenizerError {
  Diagnostic diagnostic;
};

class Lexer {
 public:
  Lexer(const SourceText& source, const std::string& filename)
      : source_(source), text_(source.text()), filename_(filename) {}

  std::vector<Token> Run() {
    try {
      while (!done_) Step();
    } catch (const TokenizerError& error) {
      Token token;
      token.kind = TokenKind::kTokenizerError;
      token.error = error.diagnostic;
      token.span.begin = token.span.end = Pos();
      tokens_.push_back(std::move(token));
    }
    return std::move(tokens_);
  }

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
                         DiagnosticKind kind = DiagnosticKind::kSyntaxError) const {
    Diagnostic d;
    d.kind = kind;
    d.file = filename_;
    d.line = line;
    d.column = source_.CharColumn(line, byte_col_1based - 1);
    d.message = kind_message;
    throw TokenizerError{d};
  }
  [[noreturn]] void Fail(const std::string& message, int line, int byte_col_1based) const {
    Fail(message.c_str(), line, byte_col_1based);
  }

  void Emit(TokenKind kind, size_t begin, size_t end) {
    Token token;
    token.kind = kind;
    token.text = std::string(text_.substr(begin, end - begin));
    token.span = {PosAt(begin), PosAt(end)};
    tokens_.push_back(std::move(token));
    line_has_tokens_ = true;
  }
  void EmitAt(TokenKind kind, SourcePos pos) {
    Token token;
    token.kind = kind;
    token.span = {pos, pos};
    tokens_.push_back(std::move(token));
  }

  void NewLine() {
    ++line_;
    line_start_ = pos_;
    at_line_start_ = true;
    line_has_tokens_ = false;
  }

  void Step() {
    if (at_line_start_ && brackets_.empty()) {
      at_line_start_ = false;
      if (HandleIndentation()) return;
    }
    at_line_start_ = false;
    while (Peek() == ' ' || Peek() == '\t' || Peek() == '\f') ++pos_;
    if (Peek() == '#') {
      while (!AtEnd() && Peek() != '\n') ++pos_;
    }
    if (AtEnd()) return FinishFile();
    char c = Peek();
    if (c == '\n') {
      if (brackets_.empty() && line_has_tokens_) {
        Emit(TokenKind::kNewline, pos_, pos_ + 1);
      }
      ++pos_;
      NewLine();
      at_line_start_ = brackets_.empty();
      return;
    }
    if (c == '\\') return LineContinuation();
    if (IsIdentStart(static_cast<unsigned char>(c))) return NameOrString();
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      return Number();
    }
    if (c == '\'' || c == '"') return String(pos_);
    Operator();
  }

  // Measures the indentation of a new logical line and emits INDENT / DEDENT tokens.
  // Returns true when the line is blank or a comment (it produces no tokens).
  bool HandleIndentation() {
    int col = 0;
    int altcol = 0;  // Tabs counted as one column: CPython's tab-consistency check.
    size_t p = pos_;
    for (;; ++p) {
      char c = p < text_.size() ? text_[p] : '\0';
      if (c == ' ') {
        ++col, ++altcol;
      } else if (c == '\t') {
        col = (col / kTabSize + 1) * kTabSize;
        ++altcol;
      } else if (c == '\f') {
        col = altcol = 0;
      } else {
        break;
      }
    }
    char next = p < text_.size() ? text_[p] : '\0';
    if (next == '#' || next == '\n' || p >= text_.size()) {
      pos_ = p;
      return false;  // Blank line: the comment / newline / EOF handling below skips it.
    }
    SourcePos first = PosAt(p);
    if (col == indents_.back()) {
      if (altcol != altindents_.back()) FailTab();
    } else if (col > indents_.back()) {
      if (static_cast<int>(indents_.size()) > kMaxIndent) {
        Fail("too many levels of indentation", line_, static_cast<int>(p - line_start_) + 1);
      }
      if (altcol <= altindents_.back()) FailTab();
      indents_.push_back(col);
      altindents_.push_back(altcol);
      EmitAt(TokenKind::kIndent, first);
    } else {
      while (indents_.size() > 1 && col < indents_.back()) {
        indents_.pop_back();
        altindents_.pop_back();
        EmitAt(TokenKind::kDedent, first);
      }
      if (col != indents_.back()) {
        Fail("unindent does not match any outer indentation level", line_,
             static_cast<int>(source_.Line(line_).size()) + 1);
      }
      if (altcol != altindents_.back()) FailTab();
    }
    pos_ = p;
    return true;
  }

  [[noreturn]] void FailTab() {
    Fail("inconsistent use of tabs and spaces in indentation", line_, 1);
  }

  void FinishFile() {
    int last_line = source_.line_count();
    SourcePos end{last_line, static_cast<int>(source_.Line(last_line).size())};
    if (!brackets_.empty()) {
      const Bracket& open = brackets_.back();
      Token token;
      token.kind = TokenKind::kEofInBrackets;
      token.span = {end, end};
      token.error.file = filename_;
      token.error.line = open.line;
      token.error.column = source_.CharColumn(open.line, open.col);
      token.error.message = fmt::format("'{}' was never closed", open.ch);
      tokens_.push_back(std::move(token));
      done_ = true;
      return;
    }
    if (line_has_tokens_) {
      // CPython appends the missing final newline.
      EmitAt(TokenKind::kNewline, end);
      tokens_.back().span.end.col += 1;
    }
    for (size_t i = 1; i < indents_.size(); ++i) EmitAt(TokenKind::kDedent, end);
    EmitAt(TokenKind::kEndMarker, end);
    done_ = true;
  }

  void LineContinuation() {
    if (Peek(1) == '\n') {
      pos_ += 2;
      NewLine();
      at_line_start_ = false;
      line_has_tokens_ = true;  // The logical line continues.
      if (AtEnd()) {
        Fail("unexpected EOF while parsing", line_ - 1,
             static_cast<int>(source_.Line(line_ - 1).size()) + 1);
      }
      return;
    }
    if (pos_ + 1 >= text_.size()) {
      Fail("unexpected EOF while parsing", line_, Col() + 2);
    }
    Fail("unexpected character after line continuation character", line_, Col() + 2);
  }

  void NameOrString() {
    size_t begin = pos_;
    while (IsIdentChar(static_cast<unsigned char>(Peek()))) ++pos_;
    std::string_view word = text_.substr(begin, pos_ - begin);
    if ((Peek() == '\'' || Peek() == '"') && IsStringPrefix(word)) return String(begin);
    CheckIdentifier(word, begin);
    Emit(TokenKind::kName, begin, pos_);
  }

  // CPython's verify_identifier: non-ASCII characters must be XID_Start / XID_Continue.
  void CheckIdentifier(std::string_view word, size_t begin) {
    for (size_t i = 0; i < word.size();) {
      size_t at = i;
      char32_t c = DecodeUtf8(word, i);
      bool ok = at == 0 ? IsIdentifierStart(c) : IsIdentifierContinue(c);
      if (ok) continue;
      int col1 = static_cast<int>(begin + at - line_start_) + 1;
      if (!IsPrintable(c)) {
        Fail(fmt::format("invalid non-printable character U+{:04X}", static_cast<unsigned>(c)),
             line_, col1);
      }
      Fail(fmt::format("invalid character '{}' (U+{:04X})", word.substr(at, i - at),
                       static_cast<unsigned>(c)),
           line_, col1);
    }
  }

  void String(size_t begin) {
    char quote = Peek();
    bool triple = Peek(1) == quote && Peek(2) == quote;
    int start_line = line_;
    size_t start_line_start = line_start_;
    int start_col = static_cast<int>(begin - line_start_);
    pos_ += triple ? 3 : 1;
    for (;;) {
      if (AtEnd()) {
        if (triple) {
          Fail(fmt::format("unterminated triple-quoted string literal (detected at line {})",
                           source_.line_count()),
               start_line, start_col + 1);
        }
        Fail(fmt::format("unterminated string literal (detected at line {})", start_line),
             start_line, start_col + 1);
      }
      char c = Peek();
      if (c == '\\') {
        pos_ += 1;
        if (Peek() == '\n') {
          ++pos_;
          NewLine();
          at_line_start_ = false;
        } else if (!AtEnd()) {
          ++pos_;
        }
        continue;
      }
      if (c == '\n') {
        if (!triple) {
          Fail(fmt::format("unterminated string literal (detected at line {})", line_),
               start_line, start_col + 1);
        }
        ++pos_;
        NewLine();
        at_line_start_ = false;
        continue;
      }
      if (c == quote && (!triple || (Peek(1) == quote && Peek(2) == quote))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      ++pos_;
    }
    Token token;
    token.kind = TokenKind::kString;
    token.text = std::string(text_.substr(begin, pos_ - begin));
    token.span = {{start_line, static_cast<int>(begin - start_line_start)}, Pos()};
    tokens_.push_back(std::move(token));
    line_has_tokens_ = true;
  }

  // Fails with CPython's "invalid ... literal" message, pointing where its tokenizer does:
  // the 1-based column equals the 0-based offset of the offending character.
  [[noreturn]] void FailNumber(const std::string& message, size_t offending) {
    Fail(message, line_, static_cast<int>(offending - line_start_));
  }

  void Digits(bool (*is_digit)(char), const char* kind) {
    for (;;) {
      while (is_digit(Peek())) ++pos_;
      if (Peek() != '_') return;
      ++pos_;
      if (!is_digit(Peek())) FailNumber(fmt::format("invalid {} literal", kind), pos_);
    }
  }

  void Number() {
    size_t begin = pos_;
    auto is_dec = [](char c) { return c >= '0' && c <= '9'; };
    auto is_hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    auto is_oct = [](char c) { return c >= '0' && c <= '7'; };
    auto is_bin = [](char c) { return c == '0' || c == '1'; };
    if (Peek() == '0' && std::strchr("xXoObB", Peek(1)) != nullptr && Peek(1) != '\0') {
      char base = static_cast<char>(std::tolower(static_cast<unsigned char>(Peek(1))));
      pos_ += 2;
      const char* kind = base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary";
      bool (*digit)(char) = base == 'x' ? +is_hex : base == 'o' ? +is_oct : +is_bin;
      if (Peek() == '_') ++pos_;
      if (!digit(Peek())) {
        if (is_dec(Peek())) {
          Fail(fmt::format("invalid digit '{}' in {} literal", Peek(), kind), line_, Col() + 1);
        }
        FailNumber(fmt::format("invalid {} literal", kind), pos_);
      }
      Digits(digit, kind);
      if (is_dec(Peek())) {
        Fail(fmt::format("invalid digit '{}' in {} literal", Peek(), kind), line_, Col() + 1);
      }
      return EndNumber(begin, kind);
    }
    if (Peek() != '.') {
      bool leading_zero = Peek() == '0';
      Digits(+is_dec, "decimal");
      std::string_view int_part = text_.substr(begin, pos_ - begin);
      if (leading_zero && Peek() != '.' && Peek() != 'e' && Peek() != 'E' && Peek() != 'j' &&
          Peek() != 'J' && int_part.find_first_not_of("0_") != std::string_view::npos) {
        Fail("leading zeros in decimal integer literals are not permitted; use an 0o prefix "
             "for octal integers",
             line_, static_cast<int>(begin - line_start_) + 1);
      }
    }
    if (Peek() == '.') {
      ++pos_;
      if (is_dec(Peek())) Digits(+is_dec, "decimal");
    }
    if (Peek() == 'e' || Peek() == 'E') {
      size_t e = pos_;
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!is_dec(Peek())) {
        // Not an exponent after all when a name follows directly ("1else").
        FailNumber("invalid decimal literal", e);
      }
      Digits(+is_dec, "decimal");
    }
    if (Peek() == 'j' || Peek() == 'J') ++pos_;
    EndNumber(begin, "decimal");
  }

  void EndNumber(size_t begin, const char* kind) {
    // CPython 3.11 accepts a keyword glued to a number ("1if x else 2") with a warning.
    if (IsIdentStart(static_cast<unsigned char>(Peek()))) {
      size_t p = pos_;
      while (p < text_.size() && IsIdentChar(static_cast<unsigned char>(text_[p]))) ++p;
      std::string_view word = text_.substr(pos_, p - pos_);
      bool allowed = false;
      for (std::string_view kw : {"and", "else", "for", "if", "in", "is", "not", "or"}) {
        if (word.substr(0, kw.size()) == kw) allowed = true;
      }
      if (!allowed) FailNumber(fmt::format("invalid {} literal", kind), pos_);
    }
    Emit(TokenKind::kNumber, begin, pos_);
  }

  void Operator() {
    for (std::string_view op : kOperators) {
      if (text_.substr(pos_, op.size()) != op) continue;
      size_t begin = pos_;
      pos_ += op.size();
      if (op == "(" || op == "[" || op == "{") {
        if (static_cast<int>(brackets_.size()) >= kMaxLevel) {
          Fail("too many nested parentheses", line_, Col());
        }
        brackets_.push_back({op[0], line_, static_cast<int>(begin - line_start_)});
      } else if (op == ")" || op == "]" || op == "}") {
        CloseBracket(op[0], begin);
      }
      Emit(TokenKind::kOp, begin, pos_);
      return;
    }
    // A character that starts no token: CPython's ERRORTOKEN, which fails the parse.
    size_t begin = pos_;
    ++pos_;
    while (!AtEnd() && (static_cast<unsigned char>(Peek()) & 0xC0) == 0x80) ++pos_;
    Emit(TokenKind::kErrorChar, begin, pos_);
  }

  void CloseBracket(char close, size_t at) {
    int col1 = static_cast<int>(at - line_start_) + 1;
    if (brackets_.empty()) Fail(fmt::format("unmatched '{}'", close), line_, col1);
    Bracket open = brackets_.back();
    char expected = open.ch == '(' ? ')' : open.ch == '[' ? ']' : '}';
    if (close != expected) {
      if (open.line != line_) {
        Fail(fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' "
                         "on line {}",
                         close, open.ch, open.line),
             line_, col1);
      }
      Fail(fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'",
                       close, open.ch),
           line_, col1);
    }
    brackets_.pop_back();
  }

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

}  // namespace

bool IsKeyword(std::string_view word) {
  for (std::string_view kw : kKeywords) {
    if (kw == word) return true;
  }
  return false;
}

std::vector<Token> Tokenize(const SourceText& source, const std::string& filename) {
  return Lexer(source, filename).Run();
}

}  // namespace tdc::lang
