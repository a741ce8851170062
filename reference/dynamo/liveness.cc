#include "reference/dynamo/liveness.h"

namespace tdc::dynamo {

using lang::As;
using lang::NodeKind;

std::vector<std::string> LiveLocalsAt(const runtime::Scope& scope, const CodeLayout& layout,
                                      size_t at) {
  const std::set<std::string> live = layout.LiveFrom(at);
  std::vector<std::string> ordered;
  for (const std::string& name : scope.varnames) {
    // Cells are handed on otherwise (torch leaves cell_and_freevars out of the arguments).
    if (live.contains(name) && scope.local_slot.contains(name)) ordered.push_back(name);
  }
  return ordered;
}

bool ReturnedAtOnce(const lang::Node& def, const lang::Stmt* stmt, const lang::Call& call) {
  if (stmt == nullptr)
    return def.kind == NodeKind::kLambda && As<lang::Lambda>(def).body.get() == &call;
  return stmt->kind == NodeKind::kReturn && As<lang::Return>(*stmt).value.get() == &call;
}

}  // namespace tdc::dynamo
