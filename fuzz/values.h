// What a fuzz program computes, as far as its data-dependent branches need it (issue 26):
// which arm of each `if x.sum() > T` runs and how many turns each `while x.sum() < T` takes,
// on each call of the entry that can compute something new. Eager Python's values, in double
// precision where torch computes float32: a sum close to its threshold is one the model
// cannot decide, and such programs are not generated (checkable.h).
//
// No compiler is needed: every function with such a branch runs once per call of the entry
// (a tree, each function called from one place; not below a call in a loop), and a
// statement computes the same value whether Dynamo traced it, a graph ran it or Python did.
// The one exception, a non-equivalent is_compiling branch, is not generated beside a
// data-dependent branch.
#ifndef TDCONFORM_FUZZ_VALUES_H_
#define TDCONFORM_FUZZ_VALUES_H_

#include <vector>

#include "fuzz/program.h"

namespace tdc::fuzz {

// The calls of the entry whose values can differ (PrintFixture): the first (a second
// identical call computes the same), the one with a 6-element input, the one after K = 1.25.
enum class EntryCall { kFirst, kNewShape, kNewConstant };

struct DataDecisions {
  // Per function, per statement: for kIfData 1 when its first arm runs, 0 when its else arm
  // does; for kWhileData the number of turns its body runs; 0 elsewhere.
  std::vector<std::vector<int>> taken;
  // Some test's sum came within kTieMargin (relative) of its threshold: float32 may decide
  // it the other way.
  bool near_tie = false;
  // The values depend on what Dynamo traced (a non-equivalent is_compiling branch ran).
  bool depends_on_tracing = false;
};

// Relative distance from a threshold under which a sum is too close to call: the model's
// double-precision values stay within ~1e-5 of torch's float32 ones for the programs
// generated (tens of ops, each rounding once, libm's tanh and sigmoid a few ulps off).
constexpr double kTieMargin = 1e-3;

DataDecisions DecideDataBranches(const Program& program, EntryCall call);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_VALUES_H_
