// `tdref run` and `tdref verify`: running a fixture program on the reference.
#ifndef TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
#define TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "reference/runtime/heap.h"

namespace tdc::tools {

// How a fixture is run: `--mode`, and in compile mode `--profile` and `--disable-rule`.
struct RunOptions {
  std::string mode = "eager";          // "eager" (runtime::RunProgram) or "compile" (dynamo)
  std::string profile = "torch-2.13";  // compile mode: the profile predicted
  // Compile mode: rules switched off, as SEMANTICS.md labels them (`R-cache-hit`; the
  // `R-` may be left out).
  std::vector<std::string> disabled_rules;
  // One heap allocation decision against the model (the allocator_divergence rerun).
  runtime::ReuseFlip reuse_flip;
};

// How outcomes are compared with goldens: `--mask` and `--switch-off`.
struct VerifyOptions {
  RunOptions run;
  std::vector<std::string> masks;  // fields left out (schema field names, or "aten")
  // The switch-off test of one rule (DESIGN.md, Tests), compile mode only: its label
  // (`R-cache-hit`; the `R-` may be left out), or empty for a plain verify.
  std::string switch_off;
};

// Runs `file` and prints its outcome: with `json`, a golden document (fixtures/SCHEMA.md;
// eager mode fills `eager`, compile mode `compiled[profile]`), else one line per out,
// the exception, and in compile mode one line per backend invocation and the counters.
// A file that cannot run prints its diagnostic on `err` (exit 2).
int RunRun(const std::string& file, const RunOptions& options, bool json, std::ostream& out,
           std::ostream& err);

// `tdref explain`: runs `file` in compile mode and prints Dynamo's decisions (which frames
// were converted, where each graph ends and why, what ran eagerly, how each disabled,
// allowed or forbidden callable was treated), then the compiled outcome as `run` prints it.
int RunExplain(const std::string& file, const RunOptions& options, std::ostream& out, std::ostream& err);

// Runs each file and compares its outcome with its golden `<stem>.golden.json` through
// the comparator (that mode only; compile mode: that profile only). Prints each
// difference and a line per file that differs, then `N passed, M failed`. Exit 0 when all
// match, 1 when one does not, 2 on an error (a file that cannot be read or run, a golden
// that does not parse or lacks the profile, an unknown mask).
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

#endif  // TDCONFORM_REFERENCE_TOOLS_RUN_COMMAND_H_
