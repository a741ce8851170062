// `tdcompare EXPECTED ACTUAL`: compares two golden documents (fixtures/SCHEMA.md §10).
#ifndef TDCONFORM_REFERENCE_TOOLS_COMPARE_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_COMPARE_COMMAND_H_

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/compare/comparator.h"

namespace tdc::tools {

struct CompareCommand {
  std::string expected_file;
  std::string actual_file;
  std::vector<std::string> masks;      // --mask: field names, or "aten"
  std::optional<std::string> profile;  // --profile
  std::optional<compare::Mode> mode;   // --mode
};

// Exit statuses of tdcompare.
inline constexpr int kCompareEqual = 0;
inline constexpr int kCompareDifferent = 1;
inline constexpr int kCompareError = 2;  // malformed input, unreadable file, bad option

// Adds the fields each `--mask NAME` leaves out (compare::MaskFields) to
// `options->masked`. An unknown NAME is reported on `err` as `<tool>: error: --mask NAME:
// ...` and makes it return false. Shared by tdcompare and `tdref verify`.
bool AddMasks(const std::vector<std::string>& masks, std::string_view tool,
              compare::CompareOptions* options, std::ostream& err);

// Prints one line per difference and a closing `N differences` on `out`; a located
// `file: error: ...` on `err` for malformed input. Returns the exit status.
int RunCompare(const CompareCommand& command, std::ostream& out, std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_COMPARE_COMMAND_H_
