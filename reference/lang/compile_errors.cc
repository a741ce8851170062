#include "reference/lang/compile_errors.h"

#include "reference/lang/compile_errors_internal.h"

namespace tdc::lang {

std::optional<Diagnostic> FirstCompileError(const Module& module, const std::string& filename) {
  std::optional<CompileError> error = FirstSymbolTableError(module);
  if (!error) error = FirstCodeGeneratorError(module);
  if (!error) return std::nullopt;
  return Diagnostic{error->kind, filename, error->at.line, error->at.col + 1, error->message};
}

}  // namespace tdc::lang
