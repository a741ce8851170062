// RapidCheck generators of fuzz programs (research/fuzz-anchors.md §6.2): trees of user
// functions with one policy each, valid by construction; every choice shrinks towards the
// simplest (index 0: an op, policy none, switches off), statement lists by deletion.
#ifndef TDCONFORM_FUZZ_GENERATORS_H_
#define TDCONFORM_FUZZ_GENERATORS_H_

#include <rapidcheck.h>

#include <ostream>

#include "fuzz/program.h"

namespace tdc::fuzz {

// How RapidCheck prints a counterexample: its canonical text (serialize.h).
void showValue(const Program& program, std::ostream& os);

// Statement kinds the generator gained after programs were named by their seeds elsewhere
// (conformance/'s generated cases, perf/'s fuzz_check_10 cost): with none on, a seed draws
// the program it drew before them; the fuzzers (fuzz/) turn them all on.
struct Extensions {
  bool data_branches = false;           // issue 26: if / while on the tensor's data
  bool calls_in_loops_and_try = false;  // issue 26: a call in a for loop or a try block
  bool indexing = false;                // issue 26: the indexing ops (program.h)
};
inline constexpr Extensions kEveryExtension{true, true, true};

// Programs whose call tree is at most `max_depth` deep.
rc::Gen<Program> GenProgram(int max_depth = 3, Extensions extensions = {});

// Module-level steps on the helpers (program.h), a few per unit of size / 5.
rc::Gen<std::vector<HelperStep>> GenHelperSteps();

// One program drawn from `seed` outside a property (tdfuzz).
Program SampleProgram(uint64_t seed, int size = 60, Extensions extensions = {});

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_GENERATORS_H_
