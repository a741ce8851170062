// The fuzzers' programs (research/fuzz-anchors.md §6.1, milestone 1): a tree of user
// functions over one tensor `x`, each with one policy, printed as a runnable fixture.
// Every function but the entry f0 is called from exactly one place, so caching and
// dedup effects are absent except for the switch that calls the entry twice.
#ifndef TDCONFORM_FUZZ_PROGRAM_H_
#define TDCONFORM_FUZZ_PROGRAM_H_

#include <string>
#include <vector>

namespace tdc::fuzz {

// Tensor ops that keep a positive tensor positive and finite, so every program is valid
// by construction (|v| >= 1e-3 for the sizes generated).
enum class OpKind { kMulUp, kMulDown, kAddQuarter, kTanh, kSigmoid, kSqrt, kCount };

// The simplest first: choices shrink towards index 0.
enum class Policy { kNone, kDisable, kDisableNonrecursive, kAllowInGraph, kCount };

struct Stmt {
  enum class Kind { kOp, kCall, kGraphBreak, kIfCompiling, kCount } kind = Kind::kOp;
  OpKind op = OpKind::kMulUp;
  int callee = 0;  // kCall: index into Program::functions
};

struct Function {
  Policy policy = Policy::kNone;
  std::vector<Stmt> body;  // then `return x`
};

struct Program {
  std::vector<Function> functions;  // functions[0] is the compiled entry, f0
  bool fullgraph = false;
  bool call_twice = false;
  bool disallow_sigmoid = false;  // torch._dynamo.disallow_in_graph(torch.sigmoid)
};

// The FX target an op records under Dynamo (SCHEMA §7.1).
std::string OpTarget(OpKind op);
// The program as a fixture (fixtures/SCHEMA.md §2 header, D1 lint-clean).
std::string PrintFixture(const Program& program);
// Number of statements, counting nested ones once.
size_t StatementCount(const Program& program);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_PROGRAM_H_
