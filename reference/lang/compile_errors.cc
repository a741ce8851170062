#include "reference/lang/compile_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <variant>

#include "reference/lang/compile_errors_internal.h"

namespace tdc::lang {
namespace {

// future.c's features in CPython 3.11.
constexpr std::array<std::string_view, 10> kFutureFeatures = {
    "nested_scopes",  "generators",       "division",       "absolute_import", "with_statement",
    "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop",  "annotations"};

bool IsDocstring(const Stmt& s) {
  if (s.kind != NodeKind::kExprStmt) return false;
  const Expr& value = *As<ExprStmt>(s).value;
  return value.kind == NodeKind::kConstant &&
         As<Constant>(value).value.kind == ConstantValue::Kind::kStr;
}

// future.c's future_parse: the __future__ imports that open the module (after a docstring);
// the line of the last, 0 when none, or its error. A late one on the line where the opening
// ones end is its error too (placed at col_offset, not col_offset + 1); later lines are the
// code generator's.
struct Futures {
  int line = 0;
  bool annotations = false;
};
std::variant<Futures, CompileError> ReadFutures(const Module& module) {
  Futures futures;
  bool done = false;
  int previous_line = 0;
  size_t i = !module.body.empty() && IsDocstring(*module.body[0]) ? 1 : 0;
  for (; i < module.body.size(); ++i) {
    const Stmt& s = *module.body[i];
    if (done && s.span.begin.line > previous_line) break;
    previous_line = s.span.begin.line;
    if (s.kind != NodeKind::kImportFrom || As<ImportFrom>(s).module != "__future__") {
      done = true;
      continue;
    }
    if (done) {
      return CompileError{{s.span.begin.line, s.span.begin.col - 1},
                          "from __future__ imports must occur at the beginning of the file"};
    }
    for (const auto& alias : As<ImportFrom>(s).names) {
      if (alias->name == "braces") return CompileError{s.span.begin, "not a chance"};
      if (std::find(kFutureFeatures.begin(), kFutureFeatures.end(), alias->name) ==
          kFutureFeatures.end()) {
        return CompileError{s.span.begin,
                            fmt::format("future feature {} is not defined", alias->name)};
      }
      futures.annotations = futures.annotations || alias->name == "annotations";
    }
    futures.line = s.span.begin.line;
  }
  return futures;
}

std::optional<CompileError> FirstError(const Module& module) {
  std::variant<Futures, CompileError> futures = ReadFutures(module);
  if (const auto* error = std::get_if<CompileError>(&futures)) return *error;
  // Under `annotations` they are neither compiled nor scoped as uses: not modeled, and the
  // runtime refuses the import.
  if (std::get<Futures>(futures).annotations) return std::nullopt;
  if (std::optional<CompileError> error = FirstSymbolTableError(module)) return error;
  return FirstCodeGeneratorError(module, std::get<Futures>(futures).line);
}

}  // namespace

std::optional<Diagnostic> FirstCompileError(const Module& module, const std::string& filename) {
  std::optional<CompileError> error = FirstError(module);
  if (!error) return std::nullopt;
  return Diagnostic{error->kind, filename, error->at.line, error->at.col + 1, error->message};
}

}  // namespace tdc::lang
