#include "perf/runs.h"

#include <fmt/format.h>

#include <variant>

#include "reference/aot/aot_lowering.h"
#include "reference/base/diagnostic.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::perf {
namespace {

constexpr const char* kName = "perf/generated.py";
// The largest generated programs run tens of millions of steps.
constexpr int64_t kMaxSteps = int64_t{1} << 40;

std::optional<std::string> ErrorOf(const graph::Outcome& outcome) {
  if (outcome.unsupported) return fmt::format("refused: {}", outcome.unsupported->reason);
  if (outcome.exception) return fmt::format("raised: {}", outcome.exception->type);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> RunOnce(const std::string& source, const RunSpec& spec) {
  if (spec.mode == RunSpec::Mode::kEager) {
    auto result = runtime::RunProgram(source, kName, runtime::RunMode::kEager, {}, kMaxSteps);
    if (auto* diagnostic = std::get_if<std::string>(&result)) return *diagnostic;
    return ErrorOf(std::get<graph::Outcome>(result));
  }
  dynamo::CompileRunOptions options;
  options.profile = spec.profile;
  options.max_steps = kMaxSteps;
  if (spec.aten) options.aten = &aot::AotLowering();
  auto result = dynamo::RunCompiled(source, kName, options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return *diagnostic;
  return ErrorOf(std::get<graph::CompiledOutcome>(result));
}

std::optional<std::string> ParseOnce(const std::string& source) {
  auto parsed = runtime::ParseProgram(source, kName);
  if (auto* diagnostic = std::get_if<Diagnostic>(&parsed)) return FormatDiagnostic(*diagnostic);
  return std::nullopt;
}

}  // namespace tdc::perf
