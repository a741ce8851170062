// A generated case the backend fails, made smaller (issue 31's fuzz parity): the program is
// shrunk by the fuzzers' delta debugging (fuzz/shrink.h) while the backend still fails a
// candidate's case with the same status and reason, each candidate run as a case of its own
// with the reference's outcome expected. The smallest program goes into the case's failure
// folder as shrunk.py with shrunk.golden.json (the reference's outcome of it).
#ifndef TDCONFORM_CONFORMANCE_RUNNER_SHRINK_GENERATED_H_
#define TDCONFORM_CONFORMANCE_RUNNER_SHRINK_GENERATED_H_

#include <string>
#include <variant>

#include "conformance/executor/executor.h"
#include "conformance/loader/loader.h"

namespace tdc::conformance {

// Whether a generated case's verdict is the backend's failure to shrink: FAIL or CRASH (not
// the suite's HARNESS_ERROR, not what the backend declined or ran out of time on).
bool WorthShrinking(const std::string& id, const Verdict& verdict);

struct Shrunk {
  std::string program;  // <folder>/shrunk.py
  size_t statements = 0, statements_before = 0;
  int runs = 0;  // candidates run on the backend
};

// Shrinks the generated case `id` (verdict `failed`) on `backend`, the candidates' files in
// `scratch`, the result in `folder`; an error text when nothing could be written.
std::variant<Shrunk, std::string> ShrinkGenerated(const LoadedBackend& backend,
                                                  const std::string& id, const Verdict& failed,
                                                  const ExecutorOptions& options,
                                                  const std::string& scratch,
                                                  const std::string& folder);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_SHRINK_GENERATED_H_
