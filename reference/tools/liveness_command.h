// `tdref liveness`: the live locals the reference's Dynamo hands a resume function at each
// call and statement of every function of a file (code_layout.h), for the cross-check
// against torch's own livevars_analysis on CPython's bytecode (reference/dynamo/testing/).
#ifndef TDCONFORM_REFERENCE_TOOLS_LIVENESS_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_LIVENESS_COMMAND_H_

#include <ostream>
#include <string>

namespace tdc::tools {

// Prints one JSON object per function or lambda of `file`: {"name", "line", "col",
// "calls": [{"line", "col", "end_line", "end_col", "live"}], "statements": [{"line",
// "col", "live"}]}, `live` sorted. Exit 0, or 1 with a located error.
int RunLiveness(const std::string& file, std::ostream& out, std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_LIVENESS_COMMAND_H_
