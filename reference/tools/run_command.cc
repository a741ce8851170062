#include "reference/tools/run_command.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reference/compare/comparator.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden_json.h"
#include "reference/runtime/interp/run_program.h"
#include "reference/tools/compare_command.h"
#include "reference/tools/read_file.h"

namespace tdc::tools {
namespace {

// The name code objects and messages show: the path relative to the working directory
// (the repository root, where ctest and the README run tdref), as the oracle records it.
std::string DisplayName(const std::string& file) {
  std::error_code ec;
  std::filesystem::path rel = std::filesystem::relative(file, ec);
  if (ec || rel.empty() || rel.native().starts_with("..")) return file;
  return rel.generic_string();
}

// A rule label as the dynamo layer takes it: SEMANTICS.md's `R-label` without the `R-`.
std::vector<std::string> RuleLabels(const std::vector<std::string>& rules) {
  std::vector<std::string> labels;
  for (const std::string& rule : rules) {
    labels.push_back(rule.starts_with("R-") ? rule.substr(2) : rule);
  }
  return labels;
}

// Fills `golden->eager`; the diagnostic when the program cannot run.
std::optional<std::string> RunEager(const std::string& source, const std::string& name,
                                    graph::Golden* golden) {
  auto result = runtime::RunProgram(source, name, runtime::RunMode::kEager);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  golden->eager = std::get<graph::Outcome>(std::move(result));
  return std::nullopt;
}

// Fills `golden->compiled[options.profile]`; the diagnostic when the program cannot run.
std::optional<std::string> RunCompile(const std::string& source, const std::string& name,
                                      const RunOptions& options, graph::Golden* golden) {
  dynamo::CompileRunOptions compile_options;
  compile_options.profile = options.profile;
  compile_options.disabled_rules = RuleLabels(options.disabled_rules);
  auto result = dynamo::RunCompiled(source, name, compile_options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  golden->compiled.emplace_back(options.profile,
                                std::get<graph::CompiledOutcome>(std::move(result)));
  return std::nullopt;
}

// Runs `file`; a golden document, or an error printed on `err`. The run modes are the
// comparator's (`eager`, `compile`).
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
  std::optional<std::string> source = ReadFile(file);
  if (!source) {
    fmt::print(err, "{}:1:1: error: cannot read file\n", file);
    return std::nullopt;
  }
  graph::Golden golden;
  golden.meta.fixture = DisplayName(file);
  std::optional<std::string> diagnostic =
      *mode == compare::Mode::kEager ? RunEager(*source, golden.meta.fixture, &golden)
                                     : RunCompile(*source, golden.meta.fixture, options, &golden);
  if (diagnostic) {
    fmt::print(err, "{}\n", *diagnostic);
    return std::nullopt;
  }
  return golden;
}

// `name = value` per out, then `exception type: message`.
void PrintOutcome(const graph::Outcome& outcome, std::ostream& out) {
  for (const auto& [name, value] : outcome.outs) {
    fmt::print(out, "{} = {}\n", name, graph::ToJson(value).dump());
  }
  if (outcome.exception) {
    fmt::print(out, "exception {}: {}\n", outcome.exception->type, outcome.exception->message);
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

namespace {

// The comparator's options for `options`, or nullopt after printing why there are none.
std::optional<compare::CompareOptions> CompareOptionsFor(const VerifyOptions& options,
                                                         std::ostream& err) {
  compare::CompareOptions compare_options;
  compare_options.mode = compare::ParseMode(options.run.mode);
  if (compare_options.mode == compare::Mode::kCompile) {
    compare_options.profile = options.run.profile;
  }
  if (!AddMasks(options.masks, "tdref", &compare_options, err)) return std::nullopt;
  return compare_options;
}

// 0 when `file` matches its golden, 1 when it differs, 2 on an error.
int VerifyOne(const std::string& file, const RunOptions& run_options,
              const compare::CompareOptions& compare_options, std::ostream& out,
              std::ostream& err) {
  std::string golden_file =
      std::filesystem::path(file).replace_extension(".golden.json").string();
  std::optional<std::string> text = ReadFile(golden_file);
  if (!text) {
    fmt::print(err, "{}:1:1: error: cannot read the golden\n", golden_file);
    return 2;
  }
  graph::GoldenReadResult expected = graph::ReadGolden(*text);
  if (!expected.golden) {
    fmt::print(err, "{}\n", graph::FormatJsonError(golden_file, *expected.error));
    return 2;
  }
  std::optional<graph::Golden> actual = RunToGolden(file, run_options, err);
  if (!actual) return 2;
  compare::CompareResult result = compare::Compare(*expected.golden, *actual, compare_options);
  if (result.error) {
    fmt::print(err, "{}: error: {}\n", golden_file, *result.error);
    return 2;
  }
  for (const compare::Difference& d : result.differences) {
    fmt::print(out, "{}\n", compare::FormatDifference(d));
  }
  if (result.differences.empty()) return 0;
  fmt::print(out, "{}: differs from its golden\n", DisplayName(file));
  return 1;
}

}  // namespace

int RunVerify(const std::vector<std::string>& files, const VerifyOptions& options,
              std::ostream& out, std::ostream& err) {
  std::optional<compare::CompareOptions> compare_options = CompareOptionsFor(options, err);
  if (!compare_options) return 2;
  int count[3] = {};  // by VerifyOne's status: match, differ, error
  for (const std::string& file : files) {
    int rc = VerifyOne(file, options.run, *compare_options, out, err);
    if (rc == 0 && options.expect_differ) {
      fmt::print(out, "{}: matches its golden (a difference was expected)\n", DisplayName(file));
    }
    count[rc] += 1;
  }
  auto [match, differ, error] = count;
  if (options.expect_differ) {
    // An error (a crash) is no difference: it fails the run too.
    fmt::print(out, "{} differ, {} match\n", differ, match);
    return error > 0 ? 2 : match > 0 ? 1 : 0;
  }
  fmt::print(out, "{} passed, {} failed\n", match, differ + error);
  return error > 0 ? 2 : differ > 0 ? 1 : 0;
}

}  // namespace tdc::tools
