// Program transforms for the metamorphic properties (research/fuzz-anchors.md §6.3 (3))
// and for the expected outputs of non-equivalent is_compiling branches (§6.3 (4)).
#ifndef TDCONFORM_FUZZ_TRANSFORMS_H_
#define TDCONFORM_FUZZ_TRANSFORMS_H_

#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace tdc::fuzz {

// The `n`-th call (modulo their number, in function order; in a loop or a try block too) of a
// function that is not allow_in_graph'd goes through a new policy-free function whose body
// is only that call;
// nullopt when there is none. The partition does not change (a wrapper's own
// segments are empty).
std::optional<Program> InsertWrapper(const Program& program, size_t n);

// Every policy none, every graph break and data-dependent branch, the sigmoid disallow,
// the helper steps and the new-shape call gone: at most one graph.
Program WithoutBreaksOrPolicies(const Program& program);

// Up to `length` consecutive statements that cannot break (ops but a disallowed
// sigmoid, is_compiling branches), starting at the `n`-th such statement (modulo their
// number) outside a disable(recursive=False) body, moved into a new policy-free function
// called in their place; nullopt when there is none. Inlining that callee gives the
// program back, so the partition does not change (classic profile).
std::optional<Program> ExtractAFunction(const Program& program, size_t n, size_t length);

// A graph break inserted in function `f` before statement `at` (both taken modulo what
// exists).
Program AddGraphBreak(const Program& program, size_t f, size_t at);

// The `n`-th op (modulo their number; nullopt when there is none) that Dynamo would see
// as one ordinary node (not an indexing op, whose nodes are several) where it is traced (not a
// disallowed sigmoid, not in a disable(recursive=False) function's own body, which runs eagerly but
// offers its callees) replaced by a call of a new allow_in_graph function computing it. Its node
// takes the op's place: `target` names it (`f<k>`), `op` the op.
struct ReplacedOp {
  Program program;
  std::string target;
  OpKind op;
};
std::optional<ReplacedOp> ReplaceAnOpWithAnAllowedFunction(const Program& program, size_t n);

// Every non-equivalent is_compiling branch replaced by the op of the branch that
// `compiling[f][i]` says runs at statement i of function f (x * 1.5 while compiling, x * 0.75
// otherwise).
Program WithBranchesResolved(const Program& program,
                             const std::vector<std::vector<bool>>& compiling);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_TRANSFORMS_H_
