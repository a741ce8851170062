#include "fuzz/generators.h"

#include <memory>

#include "fuzz/serialize.h"

namespace tdc::fuzz {
namespace {

// A function of the call tree before it is numbered.
struct Tree;
struct TreeStmt {
  Stmt::Kind kind = Stmt::Kind::kOp;
  OpKind op = OpKind::kMulUp;
  std::shared_ptr<Tree> callee;  // kCall
  int helper = 0;                // kCallHelper
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

rc::Gen<OpKind> GenOp() {
  return rc::gen::map(Index(static_cast<int>(OpKind::kCount)),
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

rc::Gen<Tree> GenTree(int depth);

// A construct whose break cannot resume (issue 11), the simplest first: a loop without a
// break, a break in a try block, skip_frame(), step_unsupported(), a break in a loop.
constexpr Stmt::Kind kFrameEndings[] = {Stmt::Kind::kLoop, Stmt::Kind::kTryBreak,
                                        Stmt::Kind::kSkipFrame, Stmt::Kind::kStepUnsupported,
                                        Stmt::Kind::kLoopBreak};

rc::Gen<TreeStmt> GenFrameEnding() {
  return rc::gen::apply([](int k, OpKind op) { return Leaf(kFrameEndings[k], op); },
                        Index(static_cast<int>(std::size(kFrameEndings))), GenOp());
}

rc::Gen<TreeStmt> GenStmt(int depth) {
  // Ops most often (0-5), then breaks (6, 7), is_compiling branches (8 equivalent, 9
  // not), a helper call (10), a construct that cannot resume (11), and calls (12-15)
  // where the tree may grow.
  int kinds = depth > 0 ? 16 : 12;
  return rc::gen::mapcat(Index(kinds), [depth](int k) -> rc::Gen<TreeStmt> {
    if (k >= 12) {
      return rc::gen::map(rc::gen::lazy([depth] { return GenTree(depth - 1); }), [](Tree t) {
        TreeStmt call = Leaf(Stmt::Kind::kCall);
        call.callee = std::make_shared<Tree>(std::move(t));
        return call;
      });
    }
    if (k == 11) return GenFrameEnding();
    if (k == 10) {
      return rc::gen::map(Index(kHelpers),
                          [](int h) { return Leaf(Stmt::Kind::kCallHelper, OpKind::kMulUp, h); });
    }
    if (k == 6 || k == 7) return rc::gen::just(Leaf(Stmt::Kind::kGraphBreak));
    if (k == 8) return rc::gen::just(Leaf(Stmt::Kind::kIfCompiling));
    if (k == 9) return rc::gen::just(Leaf(Stmt::Kind::kIfCompilingDiffers));
    return rc::gen::map(GenOp(), [](OpKind op) { return Leaf(Stmt::Kind::kOp, op); });
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

rc::Gen<Tree> GenTree(int depth) {
  // Bodies of a few statements: the list's length is scaled down (its statements keep the
  // full size, so that callees deeper in the tree are not starved), and shrinking deletes
  // statements anywhere in it.
  auto body = rc::gen::withSize([depth](int size) {
    return rc::gen::scale(
        0.2, rc::gen::container<std::vector<TreeStmt>>(rc::gen::resize(size, GenStmt(depth))));
  });
  return rc::gen::build<Tree>(rc::gen::set(&Tree::policy, GenPolicy()),
                              rc::gen::set(&Tree::body, body));
}

int Number(const Tree& tree, Program& program) {
  int index = static_cast<int>(program.functions.size());
  program.functions.emplace_back();
  std::vector<Stmt> body;
  for (const TreeStmt& s : tree.body) {
    Stmt stmt{s.kind, s.op, s.helper};
    if (s.kind == Stmt::Kind::kCall) stmt.callee = Number(*s.callee, program);
    body.push_back(stmt);
  }
  program.functions[index] = Function{tree.policy, std::move(body)};
  return index;
}

// A switch that is on one time in `one_in` and shrinks to off.
rc::Gen<bool> Switch(int one_in) {
  return rc::gen::map(Index(one_in), [](int i) { return i == 1; });
}

}  // namespace

void showValue(const Program& program, std::ostream& os) { os << Serialize(program); }

rc::Gen<Program> GenProgram(int max_depth) {
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
        return program;
      },
      GenTree(max_depth), Switch(8), Switch(4), Switch(4), Switch(4), Switch(4), GenHelperSteps());
}

Program SampleProgram(uint64_t seed, int size) {
  return GenProgram()(rc::Random(seed), size).value();
}

}  // namespace tdc::fuzz
