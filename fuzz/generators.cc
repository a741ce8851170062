#include "fuzz/generators.h"

#include <memory>

#include "fuzz/checkable.h"
#include "fuzz/serialize.h"

namespace tdc::fuzz {
namespace {

// A function of the call tree before it is numbered.
struct Tree;
struct TreeStmt {
  Stmt::Kind kind = Stmt::Kind::kOp;
  OpKind op = OpKind::kMulUp;
  std::shared_ptr<Tree> callee;     // kCall, kCallInLoop, kCallInTry
  int helper = 0;                   // kCallHelper
  OpKind else_op = OpKind::kMulUp;  // kIfData
  int threshold = 0;                // kIfData, kWhileData
};
struct Tree {
  Policy policy = Policy::kNone;
  std::vector<TreeStmt> body;
};

TreeStmt Leaf(Stmt::Kind kind, OpKind op = OpKind::kMulUp, int helper = 0) {
  TreeStmt s;
  s.kind = kind;
  s.op = op;
  s.helper = helper;
  return s;
}

// A uniform index in [0, n) that shrinks towards 0 (fuzz-anchors §6.2: `element` and
// `oneOf` never shrink the choice itself).
rc::Gen<int> Index(int n) { return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, n)); }

// An op; the indexing ones only with that extension.
rc::Gen<OpKind> GenOp(Extensions extensions) {
  return rc::gen::map(
      Index(extensions.indexing ? static_cast<int>(OpKind::kCount) : kElementwiseOps),
      [](int i) { return static_cast<OpKind>(i); });
}

// Policies: none a quarter of the time; disable(recursive=False), whose breaking callees
// are the shape hardest to reach, twice as often as each of the others.
rc::Gen<Policy> GenPolicy() {
  return rc::gen::map(Index(8), [](int i) {
    constexpr Policy kByIndex[] = {Policy::kNone,
                                   Policy::kNone,
                                   Policy::kDisable,
                                   Policy::kDisableNonrecursive,
                                   Policy::kDisableNonrecursive,
                                   Policy::kAllowInGraph,
                                   Policy::kNonstrictTrace,
                                   Policy::kCustomOp};
    return kByIndex[i];
  });
}

rc::Gen<Tree> GenTree(int depth, Extensions extensions);

// A construct whose break cannot resume (issue 11), the simplest first: a loop without a
// break, a break in a try block, skip_frame(), step_unsupported(), a break in a loop.
constexpr Stmt::Kind kFrameEndings[] = {Stmt::Kind::kLoop, Stmt::Kind::kTryBreak,
                                        Stmt::Kind::kSkipFrame, Stmt::Kind::kStepUnsupported,
                                        Stmt::Kind::kLoopBreak};

rc::Gen<TreeStmt> GenFrameEnding(Extensions extensions) {
  return rc::gen::apply([](int k, OpKind op) { return Leaf(kFrameEndings[k], op); },
                        Index(static_cast<int>(std::size(kFrameEndings))), GenOp(extensions));
}

// A branch on the tensor's data (issue 26): an if (the simpler) or a while, a threshold,
// the if's two arms, the while's body among the ops that grow x.
rc::Gen<TreeStmt> GenDataBranch(Extensions extensions) {
  return rc::gen::apply(
      [](int kind, int threshold, OpKind op, OpKind else_op, int growing) {
        TreeStmt s = kind == 0 ? Leaf(Stmt::Kind::kIfData, op)
                               : Leaf(Stmt::Kind::kWhileData, kGrowingOps[growing]);
        s.else_op = else_op;
        s.threshold = threshold;
        return s;
      },
      Index(2), Index(kThresholdCount), GenOp(extensions), GenOp(extensions),
      Index(static_cast<int>(std::size(kGrowingOps))));
}

// A call of a new function, `kind` a kCall, kCallInLoop or kCallInTry.
rc::Gen<TreeStmt> GenCall(Stmt::Kind kind, int depth, Extensions extensions) {
  return rc::gen::map(rc::gen::lazy([depth, extensions] { return GenTree(depth - 1, extensions); }),
                      [kind](Tree t) {
                        TreeStmt call = Leaf(kind);
                        call.callee = std::make_shared<Tree>(std::move(t));
                        return call;
                      });
}

rc::Gen<TreeStmt> GenStmt(int depth, Extensions extensions) {
  // Ops most often (0-5), then breaks (6, 7), is_compiling branches (8 equivalent, 9
  // not), a helper call (10), a construct that cannot resume (11), and calls (12-15) where
  // the tree may grow; then the extensions switched on, in this order: a data-dependent
  // branch, a call in a loop, a call in a try block (after the others, so that with none on
  // a seed draws what it drew before them).
  const int base = depth > 0 ? 16 : 12;
  std::vector<int> extra;  // 0: data-dependent branch, 1: call in a loop, 2: call in a try
  if (extensions.data_branches) extra.push_back(0);
  if (extensions.calls_in_loops_and_try && depth > 0) extra.insert(extra.end(), {1, 2});
  const int kinds = base + static_cast<int>(extra.size());
  return rc::gen::mapcat(Index(kinds), [=](int k) -> rc::Gen<TreeStmt> {
    if (k >= base) {
      switch (extra[k - base]) {
        case 0:
          return GenDataBranch(extensions);
        case 1:
          return GenCall(Stmt::Kind::kCallInLoop, depth, extensions);
        default:
          return GenCall(Stmt::Kind::kCallInTry, depth, extensions);
      }
    }
    if (k >= 12) return GenCall(Stmt::Kind::kCall, depth, extensions);
    if (k == 11) return GenFrameEnding(extensions);
    if (k == 10) {
      return rc::gen::map(Index(kHelpers),
                          [](int h) { return Leaf(Stmt::Kind::kCallHelper, OpKind::kMulUp, h); });
    }
    if (k == 6 || k == 7) return rc::gen::just(Leaf(Stmt::Kind::kGraphBreak));
    if (k == 8) return rc::gen::just(Leaf(Stmt::Kind::kIfCompiling));
    if (k == 9) return rc::gen::just(Leaf(Stmt::Kind::kIfCompilingDiffers));
    return rc::gen::map(GenOp(extensions), [](OpKind op) { return Leaf(Stmt::Kind::kOp, op); });
  });
}

}  // namespace

// A few helper steps (the list scaled down as a body's), each shrinking to `def h0`.
rc::Gen<std::vector<HelperStep>> GenHelperSteps() {
  auto step = rc::gen::build<HelperStep>(
      rc::gen::set(&HelperStep::kind,
                   rc::gen::map(Index(static_cast<int>(HelperStep::Kind::kCount)),
                                [](int k) { return static_cast<HelperStep::Kind>(k); })),
      rc::gen::set(&HelperStep::helper, Index(kHelpers)));
  return rc::gen::scale(0.2, rc::gen::container<std::vector<HelperStep>>(step));
}

namespace {

rc::Gen<Tree> GenTree(int depth, Extensions extensions) {
  // Bodies of a few statements: the list's length is scaled down (its statements keep the
  // full size, so that callees deeper in the tree are not starved), and shrinking deletes
  // statements anywhere in it.
  auto body = rc::gen::withSize([depth, extensions](int size) {
    return rc::gen::scale(0.2, rc::gen::container<std::vector<TreeStmt>>(
                                   rc::gen::resize(size, GenStmt(depth, extensions))));
  });
  return rc::gen::build<Tree>(rc::gen::set(&Tree::policy, GenPolicy()),
                              rc::gen::set(&Tree::body, body));
}

int Number(const Tree& tree, Program& program) {
  int index = static_cast<int>(program.functions.size());
  program.functions.emplace_back();
  std::vector<Stmt> body;
  for (const TreeStmt& s : tree.body) {
    Stmt stmt{s.kind, s.op, s.helper, s.else_op, s.threshold};
    if (s.callee) stmt.callee = Number(*s.callee, program);
    body.push_back(stmt);
  }
  program.functions[index] = Function{tree.policy, std::move(body)};
  return index;
}

// A switch that is on one time in `one_in` and shrinks to off.
rc::Gen<bool> Switch(int one_in) {
  return rc::gen::map(Index(one_in), [](int i) { return i == 1; });
}

// Programs made checkable (checkable.h) but for data-dependent branches whose sums may come
// too close to their thresholds to predict.
rc::Gen<Program> GenAnyProgram(int max_depth, Extensions extensions) {
  return rc::gen::apply(
      [](Tree root, bool fullgraph, bool call_twice, bool disallow_sigmoid, bool new_shape,
         bool new_constant, std::vector<HelperStep> helper_steps) {
        root.policy = Policy::kNone;  // the compiled entry
        Program program;
        Number(root, program);
        program.fullgraph = fullgraph;
        program.call_twice = call_twice;
        program.disallow_sigmoid = disallow_sigmoid;
        program.new_shape = new_shape;
        program.new_constant = new_constant;
        program.helper_steps = std::move(helper_steps);
        MakeCheckable(program);
        return program;
      },
      GenTree(max_depth, extensions), Switch(8), Switch(4), Switch(4), Switch(4), Switch(4),
      GenHelperSteps());
}

}  // namespace

void showValue(const Program& program, std::ostream& os) { os << Serialize(program); }

rc::Gen<Program> GenProgram(int max_depth, Extensions extensions) {
  // Without the extensions every program is checkable, and drawn as before them.
  if (!extensions.data_branches && !extensions.calls_in_loops_and_try && !extensions.indexing)
    return GenAnyProgram(max_depth, extensions);
  // Sums near a threshold are rare (a few programs in a thousand): drawn again.
  return rc::gen::suchThat(GenAnyProgram(max_depth, extensions),
                           [](const Program& p) { return Checkable(p); });
}

Program SampleProgram(uint64_t seed, int size, Extensions extensions) {
  return GenProgram(3, extensions)(rc::Random(seed), size).value();
}

}  // namespace tdc::fuzz
