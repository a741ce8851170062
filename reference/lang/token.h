// Tokens of the Python subset, as CPython 3.11's tokenizer produces them.
#ifndef TDCONFORM_REFERENCE_LANG_TOKEN_H_
#define TDCONFORM_REFERENCE_LANG_TOKEN_H_

#include <string>
#include <string_view>

#include "reference/base/diagnostic.h"
#include "reference/base/source_location.h"

namespace tdc::lang {

enum class TokenKind {
  kName,
  kNumber,
  kString,
  kOp,  // Operators and delimiters; `text` holds the spelling.
  kNewline,
  kIndent,
  kDedent,
  kEndMarker,
  kErrorChar,       // A character that starts no token (`$`, `?`): the parser fails on it.
  kEofInBrackets,   // End of file with a bracket still open (CPython's ERRORTOKEN + E_EOF).
  kTokenizerError,  // The tokenizer stopped here; `error` says why.
};

struct Token {
  TokenKind kind = TokenKind::kEndMarker;
  // Exact source spelling (for strings: prefix and quotes included): a view into the
  // SourceText the tokens were made from, which outlives them (a copy per token was a
  // tenth of a parse, issue 30).
  std::string_view text;
  SourceSpan span;
  // For kTokenizerError: the error CPython's tokenizer raises when this token is read.
  // For kEofInBrackets: the "'(' was never closed" error and, in `line`, the bracket's line.
  Diagnostic error;

  bool IsOp(std::string_view op) const { return kind == TokenKind::kOp && text == op; }
  bool IsName(std::string_view name) const { return kind == TokenKind::kName && text == name; }
};

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_TOKEN_H_
