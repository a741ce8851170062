// `tdref run` and `tdref verify`: running a fixture program on the reference.
#ifndef TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tdc::tools {

// Runs `file` in `mode` ("eager") and prints its outcome: with `json`, a golden document
// (fixtures/SCHEMA.md; `compiled` empty in eager mode), else one line per out and the
// exception. A file that does not parse prints its diagnostic on `err` (exit 2).
int RunRun(const std::string& file, const std::string& mode, bool json, std::ostream& out,
           std::ostream& err);

// Runs each file in `mode` and compares its outcome with its golden `<stem>.golden.json`
// through the comparator (that mode only). Prints each difference and a line per file,
// then `N passed, M failed`; exit 0 when all match, 1 when one differs, 2 on an error
// (a file that cannot be read or run, a golden that does not parse).
int RunVerify(const std::vector<std::string>& files, const std::string& mode, std::ostream& out,
              std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
