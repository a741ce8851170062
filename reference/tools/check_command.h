// `tdref check` and `tdref dump-ast`: the front end's command-line verbs.
#ifndef TDCONFORM_REFERENCE_TOOLS_CHECK_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_CHECK_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tdc::tools {

// Parses and subset-checks every file. A file passes when it is in the subset, or when
// it has a sidecar `<stem>.diag` whose one line equals its diagnostic without the file
// name (the error fixtures). Prints one line per failing file and a closing
// `N passed, M failed`; returns the process exit status.
int RunCheck(const std::vector<std::string>& files, std::ostream& out);

// Prints CPython's `ast.dump(ast.parse(src), include_attributes=True)` for one file, or
// its diagnostic on `err`; returns the process exit status.
int RunDumpAst(const std::string& file, std::ostream& out, std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_CHECK_COMMAND_H_
