#include "fuzz/checkable.h"

#include <fmt/format.h>

#include <functional>
#include <optional>
#include <vector>

#include "fuzz/values.h"

namespace tdc::fuzz {
namespace {

// Whether function `f` or a function it calls has a statement for which `pick` holds.
bool Below(const Program& p, int f, const std::function<bool(const Stmt&)>& pick) {
  for (const Stmt& s : p.functions[f].body) {
    if (pick(s) || (IsCall(s) && Below(p, s.callee, pick))) return true;
  }
  return false;
}

// Function `f` and every function it calls, each with `change` applied.
void ForTheTreeAt(Program& p, int f, const std::function<void(Function&)>& change) {
  change(p.functions[f]);
  for (const Stmt& s : p.functions[f].body) {
    if (IsCall(s)) ForTheTreeAt(p, s.callee, change);
  }
}

// A statement whose frame may step back to its checkpoint.
bool StepsBack(const Stmt& s) {
  return s.kind == Stmt::Kind::kStepUnsupported || s.kind == Stmt::Kind::kTryBreak ||
         s.kind == Stmt::Kind::kCallInTry;
}

bool IsCallInLoopOrTry(const Stmt& s) {
  return s.kind == Stmt::Kind::kCallInLoop || s.kind == Stmt::Kind::kCallInTry;
}

// An opaque body AOT autograd traces on fake tensors.
bool TracedOnFakeTensors(Policy policy) {
  return policy == Policy::kAllowInGraph || policy == Policy::kNonstrictTrace;
}

// Where a data-dependent branch's sum comes near its threshold, or its value depends on
// the tracing, on a call the program makes.
std::optional<std::string> UndecidedBranch(const Program& p) {
  std::vector<EntryCall> calls = {EntryCall::kFirst};
  if (p.new_shape) calls.push_back(EntryCall::kNewShape);
  if (p.new_constant) calls.push_back(EntryCall::kNewConstant);
  for (EntryCall call : calls) {
    DataDecisions d = DecideDataBranches(p, call);
    if (d.depends_on_tracing)
      return "a non-equivalent is_compiling branch beside a data-dependent branch";
    if (d.near_tie) return "a sum within 0.1% of its threshold";
  }
  return std::nullopt;
}

bool No(std::string* why, std::string reason) {
  if (why != nullptr) *why = std::move(reason);
  return false;
}

}  // namespace

bool OracleCanPredict(const Program& p, std::string* why) {
  bool has_branch = false;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    if (TracedOnFakeTensors(p.functions[f].policy) && Below(p, static_cast<int>(f), IsDataBranch)) {
      return No(why, fmt::format("f{}: a data-dependent branch in an allowed or "
                                 "nonstrict_trace'd body (AOT autograd traces it on fake "
                                 "tensors)",
                                 f));
    }
    for (const Stmt& s : p.functions[f].body) {
      has_branch = has_branch || IsDataBranch(s);
      if (IsCallInLoopOrTry(s) && Below(p, s.callee, IsDataBranch)) {
        return No(why,
                  fmt::format("f{}: a data-dependent branch below a call in a loop or a try", f));
      }
      if (s.kind == Stmt::Kind::kCallInLoop && Below(p, s.callee, StepsBack)) {
        return No(why, fmt::format("f{}: a step_unsupported() or try block below a call in a "
                                   "loop (its callers would resume inside the loop)",
                                   f));
      }
      if (s.kind == Stmt::Kind::kIfData && p.disallow_sigmoid &&
          (s.op == OpKind::kSigmoid || s.else_op == OpKind::kSigmoid)) {
        return No(why,
                  fmt::format("f{}: a disallowed sigmoid in a data-dependent branch's arm", f));
      }
      if (s.kind == Stmt::Kind::kWhileData && !IsGrowingOp(s.op))
        return No(why, fmt::format("f{}: a while loop whose body does not grow x", f));
    }
  }
  if (!has_branch) return true;
  if (std::optional<std::string> undecided = UndecidedBranch(p)) return No(why, *undecided);
  return true;
}

bool ReferenceHasKnownIssue(const Program& p, std::string* why) {
  auto yes = [&](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return true;
  };
  for (size_t f = 0; f < p.functions.size(); ++f) {
    bool branch_before = false;  // a data-dependent branch came before
    for (const Stmt& s : p.functions[f].body) {
      if (f > 0 && branch_before && IsCallInLoopOrTry(s)) {
        return yes(fmt::format(
            "f{}: a call in a loop or a try block after a data-dependent branch (issue 26 "
            "finding: the reference refuses a skipped re-rooted resume function that cannot run "
            "again from a branch's target)",
            f));
      }
      branch_before = branch_before || IsDataBranch(s);
    }
  }
  return false;
}

bool Checkable(const Program& p, std::string* why) {
  return OracleCanPredict(p, why) && !ReferenceHasKnownIssue(p, why);
}

void MakeCheckable(Program& p) {
  auto branch_to_op = [](Function& f) {
    for (Stmt& s : f.body) {
      if (IsDataBranch(s)) s = Stmt{Stmt::Kind::kOp, s.op};
    }
  };
  auto no_step_back = [](Function& f) {
    for (Stmt& s : f.body) {
      if (s.kind == Stmt::Kind::kStepUnsupported) s.kind = Stmt::Kind::kGraphBreak;
      if (s.kind == Stmt::Kind::kTryBreak) s.kind = Stmt::Kind::kOp;
      if (s.kind == Stmt::Kind::kCallInTry) s.kind = Stmt::Kind::kCall;
    }
  };
  bool has_branch = false;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    if (TracedOnFakeTensors(p.functions[f].policy))
      ForTheTreeAt(p, static_cast<int>(f), branch_to_op);
    bool branch_before = false;
    for (Stmt& s : p.functions[f].body) {
      if (IsCallInLoopOrTry(s)) ForTheTreeAt(p, s.callee, branch_to_op);
      if (s.kind == Stmt::Kind::kCallInLoop) ForTheTreeAt(p, s.callee, no_step_back);
      if (f > 0 && branch_before && IsCallInLoopOrTry(s)) s.kind = Stmt::Kind::kCall;
      branch_before = branch_before || IsDataBranch(s);
      if (s.kind == Stmt::Kind::kIfData && p.disallow_sigmoid) {
        if (s.op == OpKind::kSigmoid) s.op = OpKind::kTanh;
        if (s.else_op == OpKind::kSigmoid) s.else_op = OpKind::kTanh;
      }
    }
    for (const Stmt& s : p.functions[f].body) has_branch = has_branch || IsDataBranch(s);
  }
  if (!has_branch) return;
  for (Function& f : p.functions) {
    for (Stmt& s : f.body) {
      if (s.kind == Stmt::Kind::kIfCompilingDiffers) s.kind = Stmt::Kind::kIfCompiling;
    }
  }
}

}  // namespace tdc::fuzz
