// The names a code object carries (co_name, co_qualname), which Dynamo shows in triggers,
// resume function names and user stacks. They come from the definition, not from the
// function object: functools.wraps changes __name__ / __qualname__, not the code's.
#ifndef TDCONFORM_REFERENCE_DYNAMO_CODE_NAMES_H_
#define TDCONFORM_REFERENCE_DYNAMO_CODE_NAMES_H_

#include <cstdint>
#include <string>

#include "reference/lang/ast.h"
#include "reference/runtime/interp/scopes.h"

namespace tdc::dynamo {

// co_name of a function's code (`<lambda>` for a lambda, `<module>` for a module body).
inline std::string CodeName(const runtime::Scope& scope) {
  if (scope.is_module) return "<module>";
  if (scope.node->kind == lang::NodeKind::kFunctionDef) return lang::As<lang::FunctionDef>(*scope.node).name;
  return "<lambda>";
}

// co_firstlineno of a def or lambda: a decorated def's code starts at its first decorator.
inline int64_t CodeFirstLine(const lang::Node& def) {
  if (def.kind == lang::NodeKind::kFunctionDef) {
    const auto& decorators = lang::As<lang::FunctionDef>(def).decorator_list;
    if (!decorators.empty()) return decorators.front()->span.begin.line;
  }
  return def.span.begin.line;
}

// co_qualname (`f`, `wrap_inline.<locals>.inner`).
inline std::string CodeQualname(const runtime::Scope& scope) {
  return scope.is_module ? "<module>" : scope.qualname;
}

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_CODE_NAMES_H_
