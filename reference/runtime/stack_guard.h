// The C++ stack the interpreter and Dynamo recurse on. The parser bounds how deeply one
// tree nests (SEMANTICS.md §3, "Nesting") and the runtime models CPython's recursion
// limit, but the two compound: a recursive function whose body nests expressions hundreds
// of levels deep (CPython evaluates these with no C recursion) would need their product.
// And a walk through a container's items never ends on a container holding itself
// (`a.append(a)`) unless it keeps what it has seen: every such walk calls the check too.
// Before the stack runs out, the run is refused as not modeled (DESIGN D13), located where
// the interpreter was, instead of ending in SIGSEGV.
#ifndef TDCONFORM_REFERENCE_RUNTIME_STACK_GUARD_H_
#define TDCONFORM_REFERENCE_RUNTIME_STACK_GUARD_H_

#include <cstddef>

namespace tdc::runtime {

// What is kept free below the deepest frame the check allows: room for the frames of
// one kernel, a refusal's unwinding, and sanitizers' larger frames.
inline constexpr size_t kStackReserveBytes = size_t{1} << 20;

// Refuses the run (NotModeled) when less than kStackReserveBytes of this thread's stack
// is left.
void CheckStackLeft();

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_STACK_GUARD_H_
