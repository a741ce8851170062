#include "fuzz/transforms.h"

#include <algorithm>

namespace tdc::fuzz {

std::optional<Program> InsertWrapper(const Program& program, size_t n) {
  Program p = program;
  for (Function& f : p.functions) {
    for (Stmt& s : f.body) {
      // Not around an allow_in_graph function: offered as a frame (from eager code) it is
      // traced, while through a wrapper it is one opaque node (found by this property).
      if (s.kind != Stmt::Kind::kCall || p.functions[s.callee].policy == Policy::kAllowInGraph || n-- > 0) continue;
      Function wrapper{Policy::kNone, {Stmt{Stmt::Kind::kCall, OpKind::kMulUp, s.callee}}};
      s.callee = static_cast<int>(p.functions.size());
      p.functions.push_back(std::move(wrapper));
      return p;
    }
  }
  return std::nullopt;
}

Program WithoutBreaksOrPolicies(const Program& program) {
  Program p = program;
  p.disallow_sigmoid = false;
  for (Function& f : p.functions) {
    f.policy = Policy::kNone;
    std::erase_if(f.body, [](const Stmt& s) { return s.kind == Stmt::Kind::kGraphBreak; });
  }
  return p;
}

}  // namespace tdc::fuzz
