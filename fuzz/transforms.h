// Program transforms for the metamorphic properties (research/fuzz-anchors.md §6.3 (3)).
#ifndef TDCONFORM_FUZZ_TRANSFORMS_H_
#define TDCONFORM_FUZZ_TRANSFORMS_H_

#include <optional>

#include "fuzz/program.h"

namespace tdc::fuzz {

// The `n`-th call of the program (in function order) of a function that is not
// allow_in_graph'd goes through a new policy-free function whose body is only that call;
// nullopt when there are fewer such calls. The partition does not change (a wrapper's own
// segments are empty).
std::optional<Program> InsertWrapper(const Program& program, size_t n);

// Every policy none, every graph break and the sigmoid disallow gone: at most one graph.
Program WithoutBreaksOrPolicies(const Program& program);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_TRANSFORMS_H_
