// Runs one fixture program in a fresh Process, as the oracle's child does
// (`runpy.run_path(path, init_globals={"backend": recorder})`, D11), and reports its
// outcome in the golden schema. The pieces are shared with the compile mode
// (reference/dynamo/run_compiled.cc), which runs the same way with Dynamo installed.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "reference/base/diagnostic.h"
#include "reference/graph/golden.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/outcome.h"
#include "reference/runtime/interp/step_budget.h"

namespace tdc::runtime {

enum class RunMode { kEager };

// The program's outcome, or a diagnostic (`file:line:col: error: ...`, D10) when the
// file does not parse or leaves the subset. `display_name` is the repo-relative path
// code objects and messages show.
// `flip` takes one allocation decision against the heap's model (allocator_divergence);
// `max_steps` is the step budget (step_budget.h).
std::variant<graph::Outcome, std::string> RunProgram(const std::string& source,
                                                     const std::string& display_name, RunMode mode,
                                                     ReuseFlip flip = {},
                                                     int64_t max_steps = kDefaultMaxSteps);

// The parsed program with its scopes, or the diagnostic.
using ParsedProgram = std::variant<std::shared_ptr<const Program>, Diagnostic>;
ParsedProgram ParseProgram(const std::string& source, const std::string& display_name);

// RunProgram on a program parsed once: the fuzzers run each program eagerly and compiled,
// and a parse was a sixth of such a check (issue 30). A Program is immutable, so runs in
// successive Processes may share it.
std::variant<graph::Outcome, std::string> RunProgram(const ParsedProgram& parsed,
                                                     const std::string& display_name, RunMode mode,
                                                     ReuseFlip flip = {},
                                                     int64_t max_steps = kDefaultMaxSteps);

// A diagnostic as a run reports it: a construct outside the subset is the reference's
// refusal (the outcome `unsupported`, DESIGN D13); any other is the error text (D10).
std::variant<graph::Outcome, std::string> OutcomeOfDiagnostic(const Diagnostic& diagnostic);

// Runs the source of a module of torch's the runtime models as Python (external_utils'
// wrappers: their frames are traced like user code, at their lines in `filename`) with
// `__name__` = `module`, and returns its global `name`; the functions it defines keep the
// parsed program alive.
Value RunLibrarySource(Interpreter& in, const std::string& source, const std::string& filename,
                       const std::string& module, const std::string& name);

// Installs the eager libraries and returns the module's globals as run_path makes them,
// `backend` (the oracle's RecordingBackend) included.
Ref<PyDict> PrepareFixture(Interpreter& in, const std::string& display_name);

// Runs the module body (ModuleEnd: its exception or the reference's refusal).
ModuleEnd RunFixtureModule(Interpreter& in, const std::shared_ptr<const Program>& program,
                           const Ref<PyDict>& globals);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_RUN_PROGRAM_H_
