// Generated programs as cases (`tdconform --fuzz N --seed S`): program i is the fuzzers' program
// of seed S+i (fuzz/generators.h), a real PyTorch program like a fixture, run in every profile
// at both graph levels. Its cases are `fuzz:<expected>:seed_<n>:profile=<p>:level=<l>`, where
// <expected> says where its expected outcome comes from: `reference` (the reference's own run)
// or `torch` (`--vs-torch`: recorded from torch 2.13.0 by the oracle). Either way each graph's
// outputs are checked against the reference's values for that graph (the executor).
#ifndef TDCONFORM_CONFORMANCE_RUNNER_GENERATED_H_
#define TDCONFORM_CONFORMANCE_RUNNER_GENERATED_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "conformance/executor/verdict.h"
#include "fuzz/program.h"
#include "reference/graph/golden.h"

namespace tdc::conformance {

struct GeneratedOptions {
  int count = 0;
  uint64_t seed = 1;
  bool vs_torch = false;
};

// The ids of the generated cases, program by program.
std::vector<std::string> GeneratedCaseIds(const GeneratedOptions& options);

// Where and how the programs are written and recorded.
struct GeneratedFiles {
  std::string dir;  // <dir>/<expected>/seed_<n>.py, .golden.json (and for torch .reference.json)
  std::string python =
      ".venv/bin/python";  // runs the oracle (`torch` cases), from the repository root
};

// The reference's outcome of `program` (written at `file`) in every profile, as a golden
// document. Its display name is the program's path, as the executor's run of it will have.
// No oracle recorded it: its provenance says so (hashes of zeros, torch version "reference";
// meta is never compared). The reference's diagnostic when it cannot run the program.
std::variant<graph::Golden, std::string> ReferenceGolden(const fuzz::Program& program,
                                                         const std::string& file);

// Writes the program and the expected outcome of each generated case among `ids` (others are
// left alone). Gives the verdicts known before anything runs: a `torch` case whose program
// torch did not record, or on which the reference already disagrees with torch, is a
// HARNESS_ERROR (the suite's fault, not the backend's). An error text when nothing could be
// written.
std::variant<std::map<std::string, Verdict>, std::string> PrepareGenerated(
    const std::vector<std::string>& ids, const GeneratedFiles& files);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_GENERATED_H_
