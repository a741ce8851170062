#include "reference/lang/subset.h"

#include <deque>

namespace tdc::lang {
namespace {

bool IsUnsupported(const Node& node) {
  return node.kind == NodeKind::kUnsupportedStmt || node.kind == NodeKind::kUnsupportedExpr;
}

}  // namespace

const Node* FirstUnsupported(const Module& module) {
  std::deque<const Node*> queue{&module};
  while (!queue.empty()) {
    const Node* node = queue.front();
    queue.pop_front();
    if (IsUnsupported(*node)) return node;
    ForEachChild(*node, [&](const Node& child) { queue.push_back(&child); });
  }
  return nullptr;
}

}  // namespace tdc::lang
