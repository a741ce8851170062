// The parser: source text to AST, with CPython 3.11's syntax errors.
//
// The grammar is CPython's (Grammar/python.gram) restricted to what tdconform models,
// written as recursive descent; reference/SEMANTICS.md lists the subset. Constructs
// outside the subset are still recognised so that (a) syntax errors inside them are
// reported as CPython reports them, and (b) the subset check can name the construct
// (they become Unsupported nodes; see subset.h).
#ifndef TDCONFORM_REFERENCE_LANG_PARSER_H_
#define TDCONFORM_REFERENCE_LANG_PARSER_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "reference/base/diagnostic.h"
#include "reference/lang/ast.h"

namespace tdc::lang {

struct ParseResult {
  std::unique_ptr<Module> module;  // Null exactly when `error` is set.
  std::optional<Diagnostic> error;
};

// Parses a whole file. `filename` only labels diagnostics.
ParseResult Parse(std::string_view source, const std::string& filename);

// Parses and checks the subset, then what CPython's compiler checks (compile_errors.h): the
// error is a syntax error, the first unsupported construct, or a compile-time SyntaxError. This is
// what every tool that runs a fixture calls.
ParseResult ParseSubset(std::string_view source, const std::string& filename);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_PARSER_H_
