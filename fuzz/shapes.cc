#include "fuzz/shapes.h"

#include <fmt/format.h>

namespace tdc::fuzz {
namespace {

bool HasBreak(const Program& p, int f) {
  for (const Stmt& s : p.functions[f].body) {
    if (s.kind == Stmt::Kind::kGraphBreak) return true;
    if (IsCall(s) && HasBreak(p, s.callee)) return true;
  }
  return false;
}

// Over the steps as printed: a registered binding dies (del, or a def replacing it),
// then a later def may take its id.
bool RegisteredHelperDies(const Program& p) {
  bool registered[kHelpers] = {}, died = false;
  for (const HelperStep& step : EffectiveHelperSteps(p)) {
    bool& r = registered[step.helper];
    if (step.kind == HelperStep::Kind::kDef && died) return true;
    if (step.kind == HelperStep::Kind::kDef || step.kind == HelperStep::Kind::kDel) {
      died = died || r;
      r = false;
    } else {
      r = true;
    }
  }
  return false;
}

bool DisallowsAHelper(const Program& p) {
  for (const HelperStep& step : EffectiveHelperSteps(p)) {
    if (step.kind == HelperStep::Kind::kAllowThenDisallow) return true;
  }
  return false;
}

constexpr const char* kNames[] = {"break under an inlined callee",
                                  "recursive=False with breaking callees",
                                  "allow_in_graph",
                                  "disallow_in_graph",
                                  "is_compiling branch",
                                  "registered helper dies, then a def",
                                  "rebinds K, which an op reads",
                                  "skip_frame or step_unsupported",
                                  "break in a try block or a loop",
                                  "nonstrict_trace or custom op",
                                  "data-dependent if",
                                  "data-dependent while",
                                  "data-dependent branch in a callee",
                                  "break in a callee in a loop or try",
                                  "tensor indexing"};

}  // namespace

Shapes ShapesOf(const Program& p) {
  Shapes s;
  s.disallow = p.disallow_sigmoid || DisallowsAHelper(p);
  s.registered_helper_dies = RegisteredHelperDies(p);
  for (size_t f = 0; f < p.functions.size(); ++f) {
    const Function& fn = p.functions[f];
    s.allow = s.allow || fn.policy == Policy::kAllowInGraph;
    s.nonstrict_or_custom_op = s.nonstrict_or_custom_op || fn.policy == Policy::kNonstrictTrace ||
                               fn.policy == Policy::kCustomOp;
    for (const Stmt& st : fn.body) {
      s.break_in_inlined_callee =
          s.break_in_inlined_callee || (f > 0 && st.kind == Stmt::Kind::kGraphBreak);
      s.is_compiling_branch = s.is_compiling_branch || st.kind == Stmt::Kind::kIfCompiling ||
                              st.kind == Stmt::Kind::kIfCompilingDiffers;
      s.skip_or_step = s.skip_or_step || st.kind == Stmt::Kind::kSkipFrame ||
                       st.kind == Stmt::Kind::kStepUnsupported;
      s.break_in_try_or_loop = s.break_in_try_or_loop || st.kind == Stmt::Kind::kTryBreak ||
                               st.kind == Stmt::Kind::kLoopBreak;
      s.data_dependent_if = s.data_dependent_if || st.kind == Stmt::Kind::kIfData;
      s.data_dependent_while = s.data_dependent_while || st.kind == Stmt::Kind::kWhileData;
      s.data_dependent_branch_in_callee =
          s.data_dependent_branch_in_callee || (f > 0 && IsDataBranch(st));
      s.break_in_callee_in_loop_or_try =
          s.break_in_callee_in_loop_or_try ||
          ((st.kind == Stmt::Kind::kCallInLoop || st.kind == Stmt::Kind::kCallInTry) &&
           HasBreak(p, st.callee));
      s.indexing =
          s.indexing ||
          ((st.kind == Stmt::Kind::kOp || st.kind == Stmt::Kind::kLoop ||
            st.kind == Stmt::Kind::kLoopBreak || st.kind == Stmt::Kind::kTryBreak ||
            st.kind == Stmt::Kind::kIfData) &&
           (IsIndexing(st.op) || (st.kind == Stmt::Kind::kIfData && IsIndexing(st.else_op))));
      s.rebinds_a_read_global =
          s.rebinds_a_read_global ||
          (p.new_constant && st.kind == Stmt::Kind::kOp && st.op == OpKind::kMulGlobal);
      if (fn.policy == Policy::kDisableNonrecursive && IsCall(st) && HasBreak(p, st.callee)) {
        s.nonrecursive_with_breaking_callee = true;
      }
    }
  }
  return s;
}

void ShapeReport::Add(const Program& program) {
  Shapes s = ShapesOf(program);
  bool flags[] = {s.break_in_inlined_callee,
                  s.nonrecursive_with_breaking_callee,
                  s.allow,
                  s.disallow,
                  s.is_compiling_branch,
                  s.registered_helper_dies,
                  s.rebinds_a_read_global,
                  s.skip_or_step,
                  s.break_in_try_or_loop,
                  s.nonstrict_or_custom_op,
                  s.data_dependent_if,
                  s.data_dependent_while,
                  s.data_dependent_branch_in_callee,
                  s.break_in_callee_in_loop_or_try,
                  s.indexing};
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
