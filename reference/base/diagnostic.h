// Located diagnostics, printed as `file:line:col: error: message` (DESIGN.md D10).
#ifndef TDCONFORM_REFERENCE_BASE_DIAGNOSTIC_H_
#define TDCONFORM_REFERENCE_BASE_DIAGNOSTIC_H_

#include <string>

namespace tdc {

// What kind of problem a diagnostic reports; the kind decides nothing about the text,
// it lets callers classify failures (invalid program vs. outside the subset).
enum class DiagnosticKind {
  kSyntaxError,  // CPython would reject the file: ast.parse, or compile() after it.
  kUnsupported,  // Valid Python, outside the tdconform subset.
  kIoError,      // The file could not be read.
};

// One error at one place. `line` and `column` are 1-based; the column counts
// characters (code points), as CPython's SyntaxError.offset does, except for compile()'s
// own errors, whose offset counts UTF-8 bytes (lang/compile_errors.h).
struct Diagnostic {
  DiagnosticKind kind = DiagnosticKind::kSyntaxError;
  std::string file;
  int line = 1;
  int column = 1;
  std::string message;
};

// `file:line:col: error: message`.
std::string FormatDiagnostic(const Diagnostic& diagnostic);

// `line:col: error: message`: the form stored beside an error fixture, where the file
// name would only repeat the fixture's own path.
std::string FormatDiagnosticWithoutFile(const Diagnostic& diagnostic);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_DIAGNOSTIC_H_
