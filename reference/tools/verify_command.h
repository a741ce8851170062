// `tdref verify`: fixture outcomes against their goldens, the rule switch-off tests and
// allocator_divergence (DESIGN.md, Tests).
#ifndef TDCONFORM_REFERENCE_TOOLS_VERIFY_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_VERIFY_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "reference/tools/run_command.h"

namespace tdc::tools {

// How outcomes are compared with goldens: `--mask` and `--switch-off`.
struct VerifyOptions {
  RunOptions run;
  std::vector<std::string> masks;  // fields left out (schema field names, or "aten")
  // The switch-off test of one rule (DESIGN.md, Tests), compile mode only: its label
  // (`R-cache-hit`; the `R-` may be left out), or empty for a plain verify.
  std::string switch_off;
  // `--expect-unsupported`: each file is one the reference cannot predict yet in every mode
  // (header `# tdc: awaits ...`); it passes when the reference refuses it (DESIGN D13) or
  // agrees with its golden, never with a different answer.
  bool expect_unsupported = false;
};

// Runs each file and compares its outcome with its golden `<stem>.golden.json` through
// the comparator (that mode only; compile mode: that profile only). Prints each
// difference and a line per file that differs, then `N passed, M failed`. Exit 0 when all
// match, 1 when one does not, 2 on an error (a file that cannot be read or run, a golden
// that does not parse or lacks the profile, an unknown mask). A run the reference refuses
// (outcome `unsupported`, DESIGN D13) prints `FILE: UNSUPPORTED at WHERE: REASON` and fails
// as a difference does; with `expect_unsupported` it passes, as does agreement (`FILE:
// predicted, although ...`), and a different answer fails (`FILE: answered differently ...`).
//
// With `switch_off` (the rule switch-off test): runs only the files whose golden's
// `meta.header.rules` cites that rule, each with the rule disabled; prints each
// difference, a line per file, then `R-<label>: N cite it, D differ, M match` (and
// `R-<label>: no fixture cites this rule` when N is 0). Exit 0 when N > 0 and at least
// one differs, 1 when none cites it or all match, 2 on any error (a crash is never a
// difference; also an unknown rule, or a mode other than compile).
int RunVerify(const std::vector<std::string>& files, const VerifyOptions& options,
              std::ostream& out, std::ostream& err);

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_VERIFY_COMMAND_H_
