#include "reference/tools/run_command.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reference/compare/comparator.h"
#include "reference/dynamo/rules.h"
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

dynamo::CompileRunOptions CompileOptionsFor(const RunOptions& options) {
  dynamo::CompileRunOptions compile_options;
  compile_options.profile = options.profile;
  compile_options.disabled_rules = RuleLabels(options.disabled_rules);
  compile_options.reuse_flip = options.reuse_flip;
  return compile_options;
}

// Fills `golden->eager`; the diagnostic when the program cannot run.
std::optional<std::string> RunEager(const std::string& source, const std::string& name,
                                    const RunOptions& options, graph::Golden* golden) {
  auto result = runtime::RunProgram(source, name, runtime::RunMode::kEager, options.reuse_flip);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  golden->eager = std::get<graph::Outcome>(std::move(result));
  return std::nullopt;
}

// Fills `golden->compiled[options.profile]`; the diagnostic when the program cannot run.
std::optional<std::string> RunCompile(const std::string& source, const std::string& name,
                                      const RunOptions& options, graph::Golden* golden) {
  auto result = dynamo::RunCompiled(source, name, CompileOptionsFor(options));
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
      *mode == compare::Mode::kEager ? RunEager(*source, golden.meta.fixture, options, &golden)
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

// `file`'s golden, `<stem>.golden.json` beside it.
std::string GoldenFile(const std::string& file) {
  return std::filesystem::path(file).replace_extension(".golden.json").string();
}

// `file`'s golden, or nullopt after printing why it cannot be read.
std::optional<graph::Golden> ReadExpected(const std::string& file, std::ostream& err) {
  std::string golden_file = GoldenFile(file);
  std::optional<std::string> text = ReadFile(golden_file);
  if (!text) {
    fmt::print(err, "{}:1:1: error: cannot read the golden\n", golden_file);
    return std::nullopt;
  }
  graph::GoldenReadResult expected = graph::ReadGolden(*text);
  if (!expected.golden) {
    fmt::print(err, "{}\n", graph::FormatJsonError(golden_file, *expected.error));
    return std::nullopt;
  }
  return std::move(*expected.golden);
}

// By VerifyAgainst's status.
enum Status { kMatch = 0, kDiffer = 1, kError = 2, kAllocatorDivergence = 3 };

// DESIGN D1: a result named out_reused... records `id(new) == old_id`.
bool OnlyReuseDiffers(const std::vector<compare::Difference>& differences) {
  return std::ranges::all_of(differences, [](const compare::Difference& d) {
    return d.path.find(".outs[\"out_reused") != std::string::npos;
  });
}

// The allocation decision that, taken against the heap's model, makes `file` match
// `expected` in every compared field; nullopt when no single one does (DESIGN's Tests:
// allocator_divergence needs the rerun with torch's reuse decision to match everything).
std::optional<runtime::ReuseFlip> FindReuseFlip(const std::string& file, const graph::Golden& expected,
                                                RunOptions run_options,
                                                const compare::CompareOptions& compare_options) {
  constexpr int64_t kDecisionsTried = 256;  // per kind; fixtures allocate far fewer before `del`
  std::ostringstream quiet;
  for (auto kind : {runtime::ReuseFlip::Kind::kRefuse, runtime::ReuseFlip::Kind::kAdopt}) {
    for (int64_t at = 0; at < kDecisionsTried; ++at) {
      run_options.reuse_flip = {kind, at};
      std::optional<graph::Golden> actual = RunToGolden(file, run_options, quiet);
      if (actual && compare::Compare(expected, *actual, compare_options).differences.empty()) {
        return run_options.reuse_flip;
      }
    }
  }
  return std::nullopt;
}

// Runs `file` and compares its outcome with `expected`, printing each difference.
Status VerifyAgainst(const std::string& file, const graph::Golden& expected,
                     const RunOptions& run_options,
                     const compare::CompareOptions& compare_options, std::ostream& out,
                     std::ostream& err) {
  std::optional<graph::Golden> actual = RunToGolden(file, run_options, err);
  if (!actual) return kError;
  compare::CompareResult result = compare::Compare(expected, *actual, compare_options);
  if (result.error) {
    fmt::print(err, "{}: error: {}\n", GoldenFile(file), *result.error);
    return kError;
  }
  for (const compare::Difference& d : result.differences) {
    fmt::print(out, "{}\n", compare::FormatDifference(d));
  }
  if (result.differences.empty()) return kMatch;
  if (OnlyReuseDiffers(result.differences)) {
    if (std::optional<runtime::ReuseFlip> flip = FindReuseFlip(file, expected, run_options, compare_options)) {
      fmt::print(out,
                 "{}: allocator_divergence: only out_reused differs; with allocation {} {} a freed id "
                 "(against the heap's model) every field matches (DESIGN D1)\n",
                 DisplayName(file), flip->at,
                 flip->kind == runtime::ReuseFlip::Kind::kRefuse ? "not reusing" : "reusing");
      return kAllocatorDivergence;
    }
  }
  fmt::print(out, "{}: differs from its golden\n", DisplayName(file));
  return kDiffer;
}

// Counts of files by status.
struct Tally {
  int count[4] = {};
  void Add(Status status) { count[status] += 1; }
  // An allocator_divergence is no semantic failure (DESIGN D1): it passes, reported.
  int match() const { return count[kMatch] + count[kAllocatorDivergence]; }
  int differ() const { return count[kDiffer]; }
  int error() const { return count[kError]; }
  int divergence() const { return count[kAllocatorDivergence]; }
};

// The plain verify: every file against its golden.
int VerifyAll(const std::vector<std::string>& files, const RunOptions& run_options,
              const compare::CompareOptions& compare_options, std::ostream& out,
              std::ostream& err) {
  Tally tally;
  for (const std::string& file : files) {
    std::optional<graph::Golden> expected = ReadExpected(file, err);
    tally.Add(expected ? VerifyAgainst(file, *expected, run_options, compare_options, out, err)
                       : kError);
  }
  fmt::print(out, "{} passed, {} failed{}\n", tally.match(), tally.differ() + tally.error(),
             tally.divergence() > 0 ? fmt::format(" ({} of the passed: allocator_divergence)", tally.divergence())
                                    : "");
  return tally.error() > 0 ? 2 : tally.differ() > 0 ? 1 : 0;
}

// Whether the fixture's header cites `rule` (its labels with or without the `R-`).
bool Cites(const graph::Header& header, dynamo::Rule rule) {
  return std::ranges::any_of(
      header.rules, [rule](const std::string& label) { return dynamo::FindRule(label) == rule; });
}

// The rule `--switch-off` names, or nullopt after printing why it cannot be switched off.
std::optional<dynamo::Rule> SwitchedOffRule(const VerifyOptions& options, std::ostream& err) {
  if (compare::ParseMode(options.run.mode) != compare::Mode::kCompile) {
    fmt::print(err, "error: --switch-off switches off a Dynamo rule: use --mode compile\n");
    return std::nullopt;
  }
  std::optional<dynamo::Rule> rule = dynamo::FindRule(options.switch_off);
  if (!rule) {
    fmt::print(err, "error: --switch-off {}: unknown rule (reference/dynamo/rules.def)\n",
               options.switch_off);
  }
  return rule;
}

// The switch-off test: the files citing `rule`, each run with it off, against their goldens.
int VerifySwitchedOff(const std::vector<std::string>& files, dynamo::Rule rule,
                      RunOptions run_options, const compare::CompareOptions& compare_options,
                      std::ostream& out, std::ostream& err) {
  std::string label = fmt::format("R-{}", dynamo::RuleLabel(rule));
  run_options.disabled_rules.push_back(label);
  Tally tally;  // an unreadable golden counts as an error, citing or not
  int cite = 0;
  for (const std::string& file : files) {
    std::optional<graph::Golden> expected = ReadExpected(file, err);
    if (!expected) {
      tally.Add(kError);
    } else if (Cites(expected->meta.header, rule)) {
      cite += 1;
      Status status = VerifyAgainst(file, *expected, run_options, compare_options, out, err);
      if (status == kMatch) {
        fmt::print(out, "{}: matches its golden with {} off\n", DisplayName(file), label);
      }
      tally.Add(status);
    }
  }
  fmt::print(out, "{}: {} cite it, {} differ, {} match\n", label, cite, tally.differ(),
             tally.match());
  if (cite == 0) fmt::print(out, "{}: no fixture cites this rule\n", label);
  // A crash is no difference: an error fails the test whatever else differs.
  return tally.error() > 0 ? 2 : tally.differ() > 0 ? 0 : 1;
}

}  // namespace

int RunVerify(const std::vector<std::string>& files, const VerifyOptions& options,
              std::ostream& out, std::ostream& err) {
  std::optional<compare::CompareOptions> compare_options = CompareOptionsFor(options, err);
  if (!compare_options) return 2;
  if (options.switch_off.empty()) {
    return VerifyAll(files, options.run, *compare_options, out, err);
  }
  std::optional<dynamo::Rule> rule = SwitchedOffRule(options, err);
  if (!rule) return 2;
  return VerifySwitchedOff(files, *rule, options.run, *compare_options, out, err);
}

int RunExplain(const std::string& file, const RunOptions& options, std::ostream& out, std::ostream& err) {
  std::optional<std::string> source = ReadFile(file);
  if (!source) {
    fmt::print(err, "{}:1:1: error: cannot read file\n", file);
    return 2;
  }
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
