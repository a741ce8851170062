// The tokenizer: CPython 3.11's token stream for a source file, including its errors.
#ifndef TDCONFORM_REFERENCE_LANG_LEXER_H_
#define TDCONFORM_REFERENCE_LANG_LEXER_H_

#include <string>
#include <vector>

#include "reference/lang/source_text.h"
#include "reference/lang/token.h"

namespace tdc::lang {

// Tokenizes the whole file. The stream always ends with exactly one of kEndMarker,
// kEofInBrackets or kTokenizerError. CPython tokenizes lazily and raises a tokenizer
// error only when the parser reaches it; the parser reproduces that by raising the final
// token's error when it reads that token (see parser.h).
std::vector<Token> Tokenize(const SourceText& source, const std::string& filename);

// Whether `word` is a hard keyword of Python 3.11 (never an identifier).
bool IsKeyword(std::string_view word);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_LEXER_H_
