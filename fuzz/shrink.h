// Delta debugging over fuzz programs (research/fuzz-anchors.md §6.4): deletes
// statements, inlines calls, replaces data-dependent branches by an op, resets policies and
// switches off switches while the failure persists, and drops the functions nothing calls
// any more. A program the fuzzers do not check (checkable.h) is never a step.
#ifndef TDCONFORM_FUZZ_SHRINK_H_
#define TDCONFORM_FUZZ_SHRINK_H_

#include <functional>

#include "fuzz/program.h"

namespace tdc::fuzz {

// The smallest program reached from `program` by single simplifications for which
// `still_fails` stays true (it is true of `program`).
Program Shrink(Program program, const std::function<bool(const Program&)>& still_fails);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_SHRINK_H_
