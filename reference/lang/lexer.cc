// The tokenizer: logical lines, indentation, operators and brackets.
#include "reference/lang/lexer.h"

#include <fmt/format.h>

#include <array>

#include "reference/lang/lexer_internal.h"

namespace tdc::lang {
namespace {

// CPython's tokenizer limits (Parser/tokenizer.h: MAXINDENT, MAXLEVEL).
constexpr int kMaxIndent = 100;
constexpr int kMaxLevel = 200;
constexpr int kTabSize = 8;

constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

// Operators, longest first so that the first match is the longest one.
constexpr std::array<std::string_view, 47> kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@=",
    "(",   ")",   "[",   "]",   "{",   "}",  ":",  ",",  ";",  "+",  "-",  "*",
    "/",   "|",   "&",   "<",   ">",   "=",  ".",  "%",  "~",  "^",  "@"};

}  // namespace

std::vector<Token> Lexer::Run() {
  // About one token per four bytes of source: growing the vector moved every token again.
  tokens_.reserve(text_.size() / 4 + 16);
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

// Errors take 1-based character columns given as a byte offset within `line`.
void Lexer::Fail(const char* kind_message, int line, int byte_col_1based,
                 DiagnosticKind kind) const {
  Diagnostic d;
  d.kind = kind;
  d.file = filename_;
  d.line = line;
  d.column = source_.CharColumn(line, byte_col_1based - 1);
  d.message = kind_message;
  throw TokenizerError{d};
}

void Lexer::Fail(const std::string& message, int line, int byte_col_1based) const {
  Fail(message.c_str(), line, byte_col_1based);
}

void Lexer::Emit(TokenKind kind, size_t begin, size_t end) {
  Token token;
  token.kind = kind;
  token.text = text_.substr(begin, end - begin);
  token.span = {PosAt(begin), PosAt(end)};
  tokens_.push_back(std::move(token));
  line_has_tokens_ = true;
}

void Lexer::EmitAt(TokenKind kind, SourcePos pos) {
  Token token;
  token.kind = kind;
  token.span = {pos, pos};
  tokens_.push_back(std::move(token));
}

void Lexer::NewLine() {
  ++line_;
  line_start_ = pos_;
  at_line_start_ = true;
  line_has_tokens_ = false;
}

void Lexer::Step() {
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
bool Lexer::HandleIndentation() {
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

void Lexer::FailTab() { Fail("inconsistent use of tabs and spaces in indentation", line_, 1); }

void Lexer::FinishFile() {
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

void Lexer::LineContinuation() {
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

void Lexer::Operator() {
  char first = Peek();
  for (std::string_view op : kOperators) {
    // The first character rules out most operators before a comparison of the whole.
    if (op[0] != first || text_.substr(pos_, op.size()) != op) continue;
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

void Lexer::CloseBracket(char close, size_t at) {
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
    Fail(fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'", close,
                     open.ch),
         line_, col1);
  }
  brackets_.pop_back();
}

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
