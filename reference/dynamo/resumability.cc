#include "reference/dynamo/resumability.h"

#include <algorithm>
#include <cstdint>

namespace tdc::dynamo {

using lang::As;
using lang::NodeKind;

Resumability::Resumability(const lang::Node& def) {
  if (def.kind == NodeKind::kFunctionDef) {
    Walk(As<lang::FunctionDef>(def).body, false, false, SIZE_MAX);
  }
}

void Resumability::Walk(const lang::StmtList& body, bool in_try, bool no_checkpoint, size_t loop,
                        bool in_with) {
  for (const auto& owned : body) {
    const lang::Stmt* s = owned.get();
    const size_t at = order_.size();
    order_.push_back({s});
    if (in_try) in_try_.insert(s);
    if (in_with) in_with_.insert(s);
    if (no_checkpoint) no_checkpoint_.insert(s);
    switch (s->kind) {
      case NodeKind::kIf:
        Walk(As<lang::If>(*s).body, in_try, no_checkpoint, loop, in_with);
        Walk(As<lang::If>(*s).orelse, in_try, no_checkpoint, loop, in_with);
        break;
      case NodeKind::kWhile:
        Walk(As<lang::While>(*s).body, in_try, no_checkpoint, at, in_with);
        order_.push_back({nullptr, at});
        Walk(As<lang::While>(*s).orelse, in_try, no_checkpoint, loop, in_with);
        break;
      case NodeKind::kFor:
        Walk(As<lang::For>(*s).body, in_try, true, at, in_with);
        order_.push_back({nullptr, at});
        Walk(As<lang::For>(*s).orelse, in_try, no_checkpoint, loop, in_with);
        break;
      case NodeKind::kWith:
        Walk(As<lang::With>(*s).body, in_try, true, loop, true);
        break;
      case NodeKind::kTry: {
        const auto& t = As<lang::Try>(*s);
        Walk(t.body, true, true, loop, in_with);
        for (const auto& handler : t.handlers) Walk(handler->body, true, true, loop, in_with);
        Walk(t.orelse, true, true, loop, in_with);
        Walk(t.finalbody, true, true, loop, in_with);
        break;
      }
      case NodeKind::kContinue:
        if (loop != SIZE_MAX) order_.push_back({nullptr, loop, true});
        break;
      case NodeKind::kFunctionDef:  // a nested def's body is another code's
      case NodeKind::kClassDef:
      case NodeKind::kReturn:
      case NodeKind::kDelete:
      case NodeKind::kAssign:
      case NodeKind::kAugAssign:
      case NodeKind::kRaise:
      case NodeKind::kAssert:
      case NodeKind::kImport:
      case NodeKind::kImportFrom:
      case NodeKind::kGlobal:
      case NodeKind::kNonlocal:
      case NodeKind::kExprStmt:
      case NodeKind::kPass:
      case NodeKind::kBreak:
      case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        break;
    }
  }
}

bool Resumability::BackedgeAfter(const lang::Stmt* stmt) const {
  auto at =
      std::find_if(order_.begin(), order_.end(), [&](const Entry& e) { return e.stmt == stmt; });
  if (at == order_.end()) return false;
  const size_t here = static_cast<size_t>(at - order_.begin());
  for (auto it = at + 1; it != order_.end(); ++it) {
    if (it->stmt == nullptr && (it->loop < here || (it->to_loop_start && it->loop == here))) {
      return true;
    }
    if (it->stmt != nullptr && it->stmt->kind == NodeKind::kReturn) return false;
  }
  return false;
}

}  // namespace tdc::dynamo
