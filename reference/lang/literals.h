// Values of number and string literal tokens, as CPython's parser computes them.
#ifndef TDCONFORM_REFERENCE_LANG_LITERALS_H_
#define TDCONFORM_REFERENCE_LANG_LITERALS_H_

#include <optional>
#include <string>
#include <string_view>

#include "reference/lang/ast.h"

namespace tdc::lang {

// The value of a NUMBER token (the tokenizer has already validated its spelling).
ConstantValue NumberValue(std::string_view spelling);

// One STRING token, decoded.
struct StringPiece {
  bool is_bytes = false;
  bool is_fstring = false;  // f-strings are outside the subset; their value is not decoded.
  bool has_u_prefix = false;
  std::string value;  // UTF-8 for str, raw bytes for bytes.
};

// Why a STRING token could not be decoded. CPython reports non-ASCII bytes literals at
// the token itself and escape errors at the token after the string literals.
struct StringError {
  std::string message;
  bool at_token = false;
};

// Decodes a STRING token's spelling (prefix and quotes included). Returns nullopt and
// sets `error` for escapes CPython rejects (e.g. a truncated \x escape) or that the
// subset does not model (\N{...}).
std::optional<StringPiece> DecodeString(std::string_view spelling, StringError& error);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_LITERALS_H_
