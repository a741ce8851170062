#include "reference/runtime/interp/run_program.h"

#include <fmt/format.h>

#include "reference/base/diagnostic.h"
#include "reference/lang/parser.h"
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

ParsedProgram ParseProgram(const std::string& source, const std::string& display_name) {
  lang::ParseResult parsed = lang::ParseSubset(source, display_name);
  if (parsed.error) return *parsed.error;
  auto program = std::make_shared<Program>();
  program->filename = display_name;
  program->source = source;
  program->line_starts.push_back(0);
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') program->line_starts.push_back(i + 1);
  }
  program->scopes = AnalyzeScopes(*parsed.module);
  program->module = std::move(parsed.module);
  return program;
}

std::string_view Program::Line(int64_t line) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return "";
  const size_t start = line_starts[line - 1];
  const size_t end =
      static_cast<size_t>(line) < line_starts.size() ? line_starts[line] - 1 : source.size();
  return std::string_view(source).substr(start, end - start);
}

std::variant<graph::Outcome, std::string> OutcomeOfDiagnostic(const Diagnostic& diagnostic) {
  if (diagnostic.kind != DiagnosticKind::kUnsupported) return FormatDiagnostic(diagnostic);
  graph::Outcome outcome;
  outcome.unsupported = graph::Unsupported{
      diagnostic.message,
      fmt::format("{}:{}:{}", diagnostic.file, diagnostic.line, diagnostic.column)};
  return outcome;
}

Value RunLibrarySource(Interpreter& in, const std::string& source, const std::string& filename,
                       const std::string& module, const std::string& name) {
  auto program = std::get<std::shared_ptr<const Program>>(ParseProgram(source, filename));
  Ref<PyDict> globals = in.heap().NewDict();
  globals->SetStr("__name__", in.heap().Intern(module));
  in.RunModule(program, globals);
  return globals->GetStr(name);
}

Ref<PyDict> PrepareFixture(Interpreter& in, const std::string& display_name) {
  InstallBuiltins(in);
  InstallTorchOps(in);
  InstallCompilerApisEager(in);
  // runpy.run_path: init_globals first, then the module attributes it sets.
  Ref<PyDict> globals = in.heap().NewDict();
  globals->SetStr("backend", MakeRecordingBackend(in));
  globals->SetStr("__name__", in.heap().Intern("<run_path>"));
  globals->SetStr("__file__", in.heap().Intern(display_name));
  return globals;
}

ModuleEnd RunFixtureModule(Interpreter& in, const std::shared_ptr<const Program>& program,
                           const Ref<PyDict>& globals) {
  try {
    in.RunModule(program, globals);
  } catch (const PyError& error) {
    if (!IsSubclass(error.type(), ExcType::kException)) throw;
    return {error.exception(), std::nullopt};
  } catch (const NotModeled& refusal) {
    // Refused outside any frame of the program (Dynamo between frames): at its first line.
    std::string where = refusal.located() ? refusal.where() : program->filename + ":1:1";
    return {nullptr, graph::Unsupported{refusal.reason(), std::move(where)}};
  }
  return {};
}

std::variant<graph::Outcome, std::string> RunProgram(const std::string& source,
                                                     const std::string& display_name, RunMode mode,
                                                     ReuseFlip flip, int64_t max_steps) {
  return RunProgram(ParseProgram(source, display_name), display_name, mode, flip, max_steps);
}

std::variant<graph::Outcome, std::string> RunProgram(const ParsedProgram& parsed,
                                                     const std::string& display_name, RunMode mode,
                                                     ReuseFlip flip, int64_t max_steps) {
  (void)mode;  // the eager run; the compile mode is reference/dynamo's RunCompiled
  if (auto* diagnostic = std::get_if<Diagnostic>(&parsed)) return OutcomeOfDiagnostic(*diagnostic);
  const auto& program = std::get<std::shared_ptr<const Program>>(parsed);
  ScopedStepBudget budget(max_steps);
  Process process;
  process.heap().set_reuse_flip(flip);
  graph::Outcome outcome;
  {
    Interpreter in(process);
    Ref<PyDict> globals = PrepareFixture(in, display_name);
    outcome = MakeOutcome(*globals, RunFixtureModule(in, program, globals), display_name);
  }
  return outcome;
}

}  // namespace tdc::runtime
