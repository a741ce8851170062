// Runs one fixture program in a fresh Process, as the oracle's child does
// (`runpy.run_path(path, init_globals={"backend": recorder})`, D11), and reports its
// outcome in the golden schema.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_

#include <string>
#include <variant>

#include "reference/graph/golden.h"

namespace tdc::runtime {

enum class RunMode { kEager };

// The program's outcome, or a diagnostic (`file:line:col: error: ...`, D10) when the
// file does not parse or leaves the subset. `display_name` is the repo-relative path
// code objects and messages show.
std::variant<graph::Outcome, std::string> RunProgram(const std::string& source,
                                                     const std::string& display_name,
                                                     RunMode mode);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_
