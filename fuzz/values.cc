#include "fuzz/values.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tdc::fuzz {
namespace {

// A while loop that has not ended after this many turns is a model error (its body grows
// the sum by a factor of 1.25 or by 1 at least): reported as a tie, never generated.
constexpr int kMaxTurns = 1000;

class Evaluator {
 public:
  Evaluator(const Program& p, EntryCall call)
      : p_(p), k_(call == EntryCall::kNewConstant ? 1.25 : 1.5) {
    for (const Function& f : p.functions) out_.taken.emplace_back(f.body.size(), 0);
    // torch.linspace(0.5, 2.0, n) (PrintFixture).
    const int n = call == EntryCall::kNewShape ? 6 : 4;
    for (int i = 0; i < n; ++i) x_.push_back(0.5 + 1.5 * i / (n - 1));
  }

  DataDecisions Run() {
    Body(0);
    return std::move(out_);
  }

 private:
  void Apply(OpKind op) {
    for (double& v : x_) {
      switch (op) {
        case OpKind::kMulUp:
          v *= 1.5;
          break;
        case OpKind::kMulDown:
          v *= 0.75;
          break;
        case OpKind::kAddQuarter:
          v += 0.25;
          break;
        case OpKind::kTanh:
          v = std::tanh(v);
          break;
        case OpKind::kSigmoid:
          v = 1.0 / (1.0 + std::exp(-v));
          break;
        case OpKind::kSqrt:
          v = std::sqrt(v);
          break;
        case OpKind::kMulGlobal:
          v *= k_;
          break;
        case OpKind::kRotate:  // below: it moves elements
        case OpKind::kIndexIdentity:
        case OpKind::kCount:
          break;
      }
    }
    if (op == OpKind::kRotate) std::rotate(x_.begin(), x_.begin() + 1, x_.end());
  }

  // x.sum() compared with `threshold`: whether the sum is below it, noting a tie.
  bool SumBelow(double threshold) {
    const double sum = std::accumulate(x_.begin(), x_.end(), 0.0);
    if (std::abs(sum - threshold) <= kTieMargin * threshold) out_.near_tie = true;
    return sum < threshold;
  }

  // Function `f`'s body run on x_. Every policy computes its body's value (a custom op
  // returns a clone of it); graph_break(), skip_frame() and step_unsupported() compute
  // nothing.
  void Body(int f) {
    const std::vector<Stmt>& body = p_.functions[f].body;
    for (size_t i = 0; i < body.size(); ++i) {
      const Stmt& s = body[i];
      switch (s.kind) {
        case Stmt::Kind::kOp:
        case Stmt::Kind::kTryBreak:
          Apply(s.op);
          break;
        case Stmt::Kind::kLoop:
        case Stmt::Kind::kLoopBreak:
          Apply(s.op);
          Apply(s.op);
          break;
        case Stmt::Kind::kCall:
        case Stmt::Kind::kCallInTry:
          Body(s.callee);
          break;
        case Stmt::Kind::kCallInLoop:
          Body(s.callee);
          Body(s.callee);
          break;
        case Stmt::Kind::kCallHelper:
          Apply(OpKind::kTanh);
          break;
        case Stmt::Kind::kIfCompiling:  // x * 2 and x + x: the same floats
          for (double& v : x_) v *= 2;
          break;
        case Stmt::Kind::kIfCompilingDiffers:  // x * 1.5 while traced, x * 0.75 otherwise
          out_.depends_on_tracing = true;
          Apply(OpKind::kMulUp);
          break;
        case Stmt::Kind::kIfData: {
          // x.sum() > T: not below it, and not equal (a tie).
          const bool first_arm = !SumBelow(kThresholds[s.threshold]);
          out_.taken[f][i] = first_arm ? 1 : 0;
          Apply(first_arm ? s.op : s.else_op);
          break;
        }
        case Stmt::Kind::kWhileData: {
          int turns = 0;
          while (SumBelow(kThresholds[s.threshold])) {
            if (++turns > kMaxTurns) {
              out_.near_tie = true;
              break;
            }
            Apply(s.op);
          }
          out_.taken[f][i] = turns;
          break;
        }
        case Stmt::Kind::kGraphBreak:
        case Stmt::Kind::kSkipFrame:
        case Stmt::Kind::kStepUnsupported:
        case Stmt::Kind::kCount:
          break;
      }
    }
  }

  const Program& p_;
  const double k_;  // the module global K
  std::vector<double> x_;
  DataDecisions out_;
};

}  // namespace

DataDecisions DecideDataBranches(const Program& program, EntryCall call) {
  return Evaluator(program, call).Run();
}

}  // namespace tdc::fuzz
