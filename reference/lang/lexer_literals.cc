// The tokenizer: names (with CPython's identifier checks), string and number literals.
#include <fmt/format.h>

#include <cctype>
#include <cstring>

#include "reference/base/py_repr.h"
#include "reference/base/utf8.h"
#include "reference/lang/identifiers.h"
#include "reference/lang/lexer_internal.h"

namespace tdc::lang {
namespace {

bool IsStringPrefix(std::string_view word) {
  std::string lower;
  for (char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view p : {"r", "u", "b", "br", "rb", "f", "fr", "rf"}) {
    if (lower == p) return true;
  }
  return false;
}

}  // namespace

void Lexer::NameOrString() {
  size_t begin = pos_;
  while (IsIdentChar(static_cast<unsigned char>(Peek()))) ++pos_;
  std::string_view word = text_.substr(begin, pos_ - begin);
  if ((Peek() == '\'' || Peek() == '"') && IsStringPrefix(word)) return String(begin);
  CheckIdentifier(word, begin);
  Emit(TokenKind::kName, begin, pos_);
}

// CPython's verify_identifier: non-ASCII characters must be XID_Start / XID_Continue.
void Lexer::CheckIdentifier(std::string_view word, size_t begin) {
  // CPython decodes the name first (PEP 3120); its error points at the name's last byte.
  if (std::optional<Utf8Error> bad = FirstUtf8Error(word)) {
    Fail("(unicode error) " + Utf8ErrorMessage(*bad), line_,
         static_cast<int>(begin + word.size() - line_start_));
  }
  for (size_t i = 0; i < word.size();) {
    size_t at = i;
    char32_t c = DecodeUtf8(word, i);
    bool ok = at == 0 ? IsIdentifierStart(c) : IsIdentifierContinue(c);
    if (ok) continue;
    int col1 = static_cast<int>(begin + at - line_start_) + 1;
    if (!IsPrintable(c)) {
      Fail(fmt::format("invalid non-printable character U+{:04X}", static_cast<unsigned>(c)), line_,
           col1);
    }
    Fail(fmt::format("invalid character '{}' (U+{:04X})", word.substr(at, i - at),
                     static_cast<unsigned>(c)),
         line_, col1);
  }
}

void Lexer::String(size_t begin) {
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
      Fail(fmt::format("unterminated string literal (detected at line {})", start_line), start_line,
           start_col + 1);
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
        Fail(fmt::format("unterminated string literal (detected at line {})", line_), start_line,
             start_col + 1);
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
  token.text = text_.substr(begin, pos_ - begin);
  token.span = {{start_line, static_cast<int>(begin - start_line_start)}, Pos()};
  tokens_.push_back(std::move(token));
  line_has_tokens_ = true;
}

// Fails with CPython's "invalid ... literal" message, pointing where its tokenizer does:
// the 1-based column equals the 0-based offset of the offending character.
void Lexer::FailNumber(const std::string& message, size_t offending) {
  Fail(message, line_, static_cast<int>(offending - line_start_));
}

void Lexer::Digits(bool (*is_digit)(char), const char* kind) {
  for (;;) {
    while (is_digit(Peek())) ++pos_;
    if (Peek() != '_') return;
    ++pos_;
    if (!is_digit(Peek())) FailNumber(fmt::format("invalid {} literal", kind), pos_);
  }
}

void Lexer::Number() {
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
      Fail(
          "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
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

void Lexer::EndNumber(size_t begin, const char* kind) {
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

}  // namespace tdc::lang
