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
  if (scope.node->kind == lang::NodeKind::kFunctionDef)
    return lang::As<lang::FunctionDef>(*scope.node).name;
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

// co_qualname of a resume function named `name` made from a code whose co_qualname is
// `qualname`: the last component is replaced (`wrap_dunder_call_ctx_manager.<locals>.
// torch_dynamo_resume_in_inner_at_215`, golden error_on_graph_break/s37_nested).
inline std::string ResumeQualname(const std::string& qualname, const std::string& name) {
  size_t dot = qualname.rfind('.');
  return dot == std::string::npos ? name : qualname.substr(0, dot + 1) + name;
}

// co_name from a co_qualname.
inline std::string NameOfQualname(const std::string& qualname) {
  return qualname.substr(qualname.rfind('.') + 1);
}

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_CODE_NAMES_H_
