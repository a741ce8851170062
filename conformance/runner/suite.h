// A tdconform run (DESIGN.md D7): one case alone, or every selected case of the suite on one
// backend loaded through the C ABI. Each non-PASS verdict is printed with its repro command and
// leaves a failure folder (failure_folder.h); a suite run applies the expectations, writes the
// reports and closes with `N passed, M failed, K skipped`. Generated programs (generated.h) are
// written before anything runs. What cannot be read or written is printed once, on stderr, and
// ends the run with kError.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_SUITE_H_
#define TDCONFORM_CONFORMANCE_RUNNER_SUITE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/parity/policy.h"

namespace tdc::conformance {

// Paths are relative to the working directory, where the cases' fixtures are.
struct SuiteOptions {
  std::string library;  // the backend's shared library
  // "reference", or "torch": the suite's cases are its torch: cases (TorchCaseIds).
  std::string engine = "reference";
  std::string case_id;                                // non-empty: run this case alone
  std::string cases;                                  // the suite's case ids, one a line
  std::string core_set = "conformance/core-set.txt";  // the must-pass ids (missing: none)
  // Selection (selection.h): globs, a case list, shard i/n (the GTEST_* variables otherwise).
  std::vector<std::string> filters, excludes;
  std::string caselist, shard;
  bool list = false;  // print the selected ids, run nothing
  int jobs = 1, max_timeouts = 3;
  double timeout = 60;
  gpu::Policy tolerance;    // what graphs' outputs are held to (--tolerance)
  std::string json, junit;  // reports, when non-empty
  std::string timings;      // each case's seconds (report.h TimingsReport), when non-empty
  std::string expectations;
  bool strict = false, update_expectations = false;
  // Generated programs: `fuzz` of them from seed `seed`, recorded with torch by `python` with
  // `vs_torch`.
  int fuzz = 0;
  uint64_t seed = 1;
  int shrink = 3;  // generated cases the backend fails, shrunk (shrink_generated.h)
  bool vs_torch = false;
  std::string python = ".venv/bin/python";
  std::string out = "tdconform-out";  // failures/ and generated/ go here
};

// The process's exit status.
enum class SuiteStatus {
  kSucceeded = 0,  // nothing failed and something passed (one case: it passed or was skipped)
  kFailed = 1,     // a case failed, or the library is no backend of this ABI
  kError = 2,      // a file could not be read or written, or the case id names no case
};

SuiteStatus RunSuite(const SuiteOptions& options);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_SUITE_H_
