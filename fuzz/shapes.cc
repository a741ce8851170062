#include "fuzz/shapes.h"

#include <fmt/format.h>

namespace tdc::fuzz {
namespace {

bool HasBreak(const Program& p, int f) {
  for (const Stmt& s : p.functions[f].body) {
    if (s.kind == Stmt::Kind::kGraphBreak) return true;
    if (s.kind == Stmt::Kind::kCall && HasBreak(p, s.callee)) return true;
  }
  return false;
}

constexpr const char* kNames[] = {"break under an inlined callee", "recursive=False with breaking callees",
                                  "allow_in_graph", "disallow_in_graph", "is_compiling branch"};

}  // namespace

Shapes ShapesOf(const Program& p) {
  Shapes s;
  s.disallow = p.disallow_sigmoid;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    const Function& fn = p.functions[f];
    s.allow = s.allow || fn.policy == Policy::kAllowInGraph;
    for (const Stmt& st : fn.body) {
      s.break_in_inlined_callee = s.break_in_inlined_callee || (f > 0 && st.kind == Stmt::Kind::kGraphBreak);
      s.is_compiling_branch = s.is_compiling_branch || st.kind == Stmt::Kind::kIfCompiling;
      if (fn.policy == Policy::kDisableNonrecursive && st.kind == Stmt::Kind::kCall && HasBreak(p, st.callee)) {
        s.nonrecursive_with_breaking_callee = true;
      }
    }
  }
  return s;
}

void ShapeReport::Add(const Program& program) {
  Shapes s = ShapesOf(program);
  bool flags[] = {s.break_in_inlined_callee, s.nonrecursive_with_breaking_callee, s.allow, s.disallow,
                  s.is_compiling_branch};
  ++programs_;
  for (size_t i = 0; i < kShapes; ++i) counts_[i] += flags[i] ? 1 : 0;
}

std::string ShapeReport::Format() const {
  std::string out = fmt::format("shapes of {} programs:\n", programs_);
  for (size_t i = 0; i < kShapes; ++i) {
    out += fmt::format("  {:<40} {:>5} ({:.1f}%)\n", kNames[i], counts_[i],
                       programs_ > 0 ? 100.0 * counts_[i] / programs_ : 0.0);
  }
  return out;
}

}  // namespace tdc::fuzz
