#include "reference/lang/subset.h"

#include <deque>

namespace tdc::lang {
namespace {

class ChildCollector : public FieldVisitor {
 public:
  explicit ChildCollector(std::deque<const Node*>& queue) : queue_(queue) {}
  void Child(std::string_view, const Node* child) override {
    if (child != nullptr) queue_.push_back(child);
  }
  void Children(std::string_view, const std::vector<const Node*>& children) override {
    for (const Node* child : children) Child({}, child);
  }

 private:
  std::deque<const Node*>& queue_;
};

bool IsUnsupported(const Node& node) {
  return node.kind == NodeKind::kUnsupportedStmt || node.kind == NodeKind::kUnsupportedExpr;
}

}  // namespace

const Node* FirstUnsupported(const Module& module) {
  std::deque<const Node*> queue{&module};
  ChildCollector collector(queue);
  while (!queue.empty()) {
    const Node* node = queue.front();
    queue.pop_front();
    if (IsUnsupported(*node)) return node;
    VisitFields(*node, collector);
  }
  return nullptr;
}

}  // namespace tdc::lang
