// The program's outcome under torch's aot_eager (a golden's `aot_eager`, fixtures/SCHEMA.md §5):
// the compile run again with each graph's ATen forward graph run in its place by the
// interpreter. It differs from the Dynamo-level outcome where AOT autograd traced something
// otherwise than the Dynamo graph runs it: an allowed function's body reading
// torch.compiler.is_compiling() (interpreting_backend.h).
#ifndef TDCONFORM_REFERENCE_BACKENDS_AOT_EAGER_RUN_H_
#define TDCONFORM_REFERENCE_BACKENDS_AOT_EAGER_RUN_H_

#include <optional>
#include <string>
#include <variant>

#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden.h"

namespace tdc::backends {

// `options.aten` must lower (aot::AotLowering); `options.backend` is replaced. Refused
// (`unsupported`, DESIGN D13) where the interpreter cannot run an ATen graph; the diagnostic
// where the program cannot run at all.
std::variant<graph::Outcome, std::string> RunAotEager(const runtime::ParsedProgram& parsed,
                                                      const std::string& display_name,
                                                      dynamo::CompileRunOptions options);

// `compiled`'s aot_eager outcome from that run, unless the compile run was refused (it then
// predicts nothing: aot_eager stays null); the diagnostic where the program cannot run.
std::optional<std::string> AddAotEager(const runtime::ParsedProgram& parsed,
                                       const std::string& display_name,
                                       const dynamo::CompileRunOptions& options,
                                       graph::CompiledOutcome& compiled);

}  // namespace tdc::backends

#endif  // TDCONFORM_REFERENCE_BACKENDS_AOT_EAGER_RUN_H_
