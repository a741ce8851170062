// The two passes behind FirstCompileError (compile_errors.h), one per CPython stage.
#ifndef TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_INTERNAL_H_
#define TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_INTERNAL_H_

#include <optional>
#include <string>
#include <utility>

#include "reference/base/diagnostic.h"
#include "reference/base/source_location.h"
#include "reference/lang/ast.h"

namespace tdc::lang {

// An error of one pass: where CPython places it (the node's col_offset, in bytes) and what
// it says; kUnsupported where the reference cannot tell whether CPython raises.
struct CompileError {
  SourcePos at;
  std::string message;
  DiagnosticKind kind = DiagnosticKind::kSyntaxError;
};

// Ends a pass with a SyntaxError at `at`; FirstSymbolTableError and FirstCodeGeneratorError
// catch it and return it.
[[noreturn]] inline void Fail(SourcePos at, std::string message) {
  throw CompileError{at, std::move(message)};
}

// symtable.c: the first error of building the symbol table, else of analyzing it.
std::optional<CompileError> FirstSymbolTableError(const Module& module);
// compile.c: the first error of generating code, in the order CPython compiles the tree; a
// __future__ import after line `future_line` (the last of those opening the module) is one.
std::optional<CompileError> FirstCodeGeneratorError(const Module& module, int future_line);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_INTERNAL_H_
