#include "reference/tools/run_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "reference/aot/aot_lowering.h"
#include "reference/backends/aot_eager_run.h"
#include "reference/base/read_file.h"
#include "reference/base/sha256.h"
#include "reference/compare/comparator.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden_json.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::tools {

std::string DisplayName(const std::string& file) {
  std::error_code ec;
  std::filesystem::path rel = std::filesystem::relative(file, ec);
  if (ec || rel.empty() || rel.native().starts_with("..")) return file;
  return rel.generic_string();
}

namespace {

dynamo::CompileRunOptions CompileOptionsFor(const RunOptions& options) {
  dynamo::CompileRunOptions compile_options;
  compile_options.aten = options.aten ? &aot::AotLowering() : nullptr;
  compile_options.profile = options.profile;
  compile_options.disabled_rules = options.disabled_rules;  // FindRule takes `R-x` or `x`
  compile_options.reuse_flip = options.reuse_flip;
  compile_options.max_steps = options.max_steps;
  return compile_options;
}

// Fills `golden->eager`; the diagnostic when the program cannot run.
std::optional<std::string> RunEager(const std::string& source, const std::string& name,
                                    const RunOptions& options, graph::Golden* golden) {
  auto result = runtime::RunProgram(source, name, runtime::RunMode::kEager, options.reuse_flip,
                                    options.max_steps);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  golden->eager = std::get<graph::Outcome>(std::move(result));
  return std::nullopt;
}

// Fills `golden->compiled[options.profile]`, with its aot_eager outcome where ATen graphs
// are lowered and the program was not refused; the diagnostic when the program cannot run.
std::optional<std::string> RunCompile(const std::string& source, const std::string& name,
                                      const RunOptions& options, graph::Golden* golden) {
  const runtime::ParsedProgram parsed = runtime::ParseProgram(source, name);
  const dynamo::CompileRunOptions compile_options = CompileOptionsFor(options);
  auto result = dynamo::RunCompiled(parsed, name, compile_options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  auto& compiled = std::get<graph::CompiledOutcome>(result);
  if (options.aten) {
    if (auto diagnostic = backends::AddAotEager(parsed, name, compile_options, compiled))
      return diagnostic;
  }
  golden->compiled.emplace_back(options.profile, std::move(compiled));
  return std::nullopt;
}

}  // namespace

std::optional<graph::Golden> RunToGolden(const std::string& file, const RunOptions& options,
                                         std::ostream& err) {
  std::optional<compare::Mode> mode = compare::ParseMode(options.mode);
  if (!mode) {
    fmt::print(err, "error: unknown mode '{}' (the reference runs: eager, compile)\n",
               options.mode);
    return std::nullopt;
  }
  if (*mode == compare::Mode::kEager && !options.disabled_rules.empty()) {
    fmt::print(err, "error: --disable-rule switches off Dynamo rules: use --mode compile\n");
    return std::nullopt;
  }
  FileContents read = ReadRegularFile(file);
  if (!read.bytes) {
    fmt::print(err, "{}:1:1: error: {}\n", file, read.error);
    return std::nullopt;
  }
  const std::string* source = &*read.bytes;
  graph::Golden golden;
  golden.meta.fixture = DisplayName(file);
  // The bytes this prediction is of; oracle_sha256 stays empty: no oracle recorded it.
  golden.meta.fixture_sha256 = Sha256Hex(*source);
  std::optional<std::string> diagnostic =
      *mode == compare::Mode::kEager ? RunEager(*source, golden.meta.fixture, options, &golden)
                                     : RunCompile(*source, golden.meta.fixture, options, &golden);
  if (diagnostic) {
    fmt::print(err, "{}\n", *diagnostic);
    return std::nullopt;
  }
  return golden;
}

namespace {

// `name = value` per out, then `exception type: message`, then `unsupported where: reason`
// when the reference refused the program there (DESIGN D13).
void PrintOutcome(const graph::Outcome& outcome, std::ostream& out) {
  for (const auto& [name, value] : outcome.outs) {
    fmt::print(out, "{} = {}\n", name, graph::ToJson(value).dump());
  }
  if (outcome.exception) {
    fmt::print(out, "exception {}: {}\n", outcome.exception->type, outcome.exception->message);
  }
  if (outcome.unsupported) {
    fmt::print(out, "unsupported {}: {}\n", outcome.unsupported->where,
               outcome.unsupported->reason);
  }
}

// The outcome, then `invocation <compile_id> <code>@<line> (<n> nodes)` per backend call,
// then the counters (a graph_break key is the full message, printed as a JSON string).
void PrintCompiled(const graph::CompiledOutcome& outcome, std::ostream& out) {
  PrintOutcome(outcome, out);
  for (const graph::Invocation& invocation : outcome.invocations) {
    fmt::print(out, "invocation {} {}@{} ({} nodes)\n", invocation.compile_id,
               invocation.trigger.code, invocation.trigger.line,
               invocation.dynamo_graph.nodes.size());
  }
  fmt::print(out, "counters frame_count={} op_count={}\n", outcome.counters.frame_count,
             outcome.counters.op_count);
  for (const auto& [message, count] : outcome.counters.graph_break) {
    fmt::print(out, "graph_break {} {}\n", count, graph::Json(message).dump());
  }
}

}  // namespace

int RunRun(const std::string& file, const RunOptions& options, bool json, std::ostream& out,
           std::ostream& err) {
  std::optional<graph::Golden> golden = RunToGolden(file, options, err);
  if (!golden) return 2;
  if (json) {
    out << graph::WriteGolden(*golden);
  } else if (golden->compiled.empty()) {  // eager mode
    PrintOutcome(golden->eager, out);
  } else {
    PrintCompiled(golden->compiled.front().second, out);
  }
  return 0;
}

int RunExplain(const std::string& file, const RunOptions& options, std::ostream& out,
               std::ostream& err) {
  FileContents read = ReadRegularFile(file);
  if (!read.bytes) {
    fmt::print(err, "{}:1:1: error: {}\n", file, read.error);
    return 2;
  }
  const std::string* source = &*read.bytes;
  auto result = dynamo::RunExplained(*source, DisplayName(file), CompileOptionsFor(options));
  if (auto* diagnostic = std::get_if<std::string>(&result)) {
    fmt::print(err, "{}\n", *diagnostic);
    return 2;
  }
  const auto& explained = std::get<dynamo::Explained>(result);
  for (const std::string& line : explained.explanation) fmt::print(out, "{}\n", line);
  fmt::print(out, "outcome:\n");
  PrintCompiled(explained.outcome, out);
  return 0;
}

}  // namespace tdc::tools
