#include "reference/runtime/interp/run_program.h"

#include "reference/base/diagnostic.h"
#include "reference/lang/parser.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/outcome.h"

namespace tdc::runtime {
namespace {

// The oracle's RecordingBackend as the program sees it before anything compiles: a
// callable object with frame_count, op_count and clear() (conformance/oracle/backend.py).
Value MakeRecordingBackend(Interpreter& in) {
  Ref<PyType> type = in.heap().NewType("RecordingBackend", "conformance.oracle.backend");
  type->dict->SetStr("clear", MakeBuiltin(in, "RecordingBackend.clear", [&in](CallArgs& args) {
    auto* self = DynCast<PyInstance>(args.positional.at(0));
    self->attrs->SetStr("frame_count", in.heap().Int(0));
    self->attrs->SetStr("op_count", in.heap().Int(0));
    return in.heap().None();
  }));
  Ref<PyInstance> backend = in.heap().NewInstance(type);
  backend->attrs->SetStr("capture", in.heap().True());
  backend->attrs->SetStr("invocations", in.heap().NewList());
  backend->attrs->SetStr("frame_count", in.heap().Int(0));
  backend->attrs->SetStr("op_count", in.heap().Int(0));
  return backend;
}

}  // namespace

std::variant<graph::Outcome, std::string> RunProgram(const std::string& source,
                                                     const std::string& display_name,
                                                     RunMode mode) {
  (void)mode;  // eager only until the Dynamo issues
  lang::ParseResult parsed = lang::ParseSubset(source, display_name);
  if (parsed.error) return FormatDiagnostic(*parsed.error);
  auto program = std::make_shared<Program>();
  program->filename = display_name;
  program->scopes = AnalyzeScopes(*parsed.module);
  program->module = std::move(parsed.module);

  Process process;
  graph::Outcome outcome;
  {
    Interpreter in(process);
    InstallBuiltins(in);
    InstallTorchOps(in);
    InstallCompilerApisEager(in);
    // runpy.run_path: init_globals first, then the module attributes it sets.
    Ref<PyDict> globals = in.heap().NewDict();
    globals->SetStr("backend", MakeRecordingBackend(in));
    globals->SetStr("__name__", in.heap().Intern("<run_path>"));
    globals->SetStr("__file__", in.heap().Intern(display_name));
    Value exception;
    try {
      in.RunModule(program, globals);
    } catch (const PyError& error) {
      if (!IsSubclass(error.type(), ExcType::kException)) throw;
      exception = error.exception();
    }
    outcome = MakeOutcome(*globals, exception);
  }
  return outcome;
}

}  // namespace tdc::runtime
