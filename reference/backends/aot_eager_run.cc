#include "reference/backends/aot_eager_run.h"

#include <utility>

#include "reference/backends/interpreting_backend.h"

namespace tdc::backends {

std::variant<graph::Outcome, std::string> RunAotEager(const runtime::ParsedProgram& parsed,
                                                      const std::string& display_name,
                                                      dynamo::CompileRunOptions options) {
  InterpretingBackend interpreter(GraphLevel::kAten);
  options.backend = &interpreter;
  auto result = dynamo::RunCompiled(parsed, display_name, options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  graph::Outcome outcome = std::get<graph::CompiledOutcome>(std::move(result));
  if (!interpreter.error().empty() && !outcome.unsupported) {
    outcome.unsupported = graph::Unsupported{
        "an ATen graph the interpreter cannot run: " + interpreter.error(), display_name};
  }
  return outcome;
}

std::optional<std::string> AddAotEager(const runtime::ParsedProgram& parsed,
                                       const std::string& display_name,
                                       const dynamo::CompileRunOptions& options,
                                       graph::CompiledOutcome& compiled) {
  if (compiled.unsupported) return std::nullopt;
  auto outcome = RunAotEager(parsed, display_name, options);
  if (auto* diagnostic = std::get_if<std::string>(&outcome)) return std::move(*diagnostic);
  compiled.aot_eager = std::get<graph::Outcome>(std::move(outcome));
  return std::nullopt;
}

}  // namespace tdc::backends
