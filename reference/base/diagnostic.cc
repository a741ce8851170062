#include "reference/base/diagnostic.h"

#include <fmt/format.h>

namespace tdc {

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  return fmt::format("{}:{}", diagnostic.file, FormatDiagnosticWithoutFile(diagnostic));
}

std::string FormatDiagnosticWithoutFile(const Diagnostic& diagnostic) {
  return fmt::format("{}:{}: error: {}", diagnostic.line, diagnostic.column, diagnostic.message);
}

}  // namespace tdc
