#include "reference/tools/verify_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "reference/base/read_file.h"
#include "reference/compare/comparator.h"
#include "reference/dynamo/rules.h"
#include "reference/graph/golden_json.h"
#include "reference/tools/compare_command.h"

namespace tdc::tools {
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
enum Status { kMatch = 0, kDiffer = 1, kError = 2, kAllocatorDivergence = 3, kUnsupported = 4 };

// DESIGN D1: a result named out_reused... records `id(new) == old_id`.
bool OnlyReuseDiffers(const std::vector<compare::Difference>& differences) {
  return std::ranges::all_of(differences, [](const compare::Difference& d) {
    return d.path.find(".outs[\"out_reused") != std::string::npos;
  });
}

// The allocation decision that, taken against the heap's model, makes `file` match
// `expected` in every compared field; nullopt when no single one does (DESIGN's Tests:
// allocator_divergence needs the rerun with torch's reuse decision to match everything).
std::optional<runtime::ReuseFlip> FindReuseFlip(const std::string& file,
                                                const graph::Golden& expected,
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

// The refusal in `actual`'s outcome of the mode compared (or of its aot_eager run), if the
// reference refused.
const std::optional<graph::Unsupported>& RefusalOf(const graph::Golden& actual) {
  if (actual.compiled.empty()) return actual.eager.unsupported;
  const graph::CompiledOutcome& compiled = actual.compiled.front().second;
  if (!compiled.unsupported && compiled.aot_eager) return compiled.aot_eager->unsupported;
  return compiled.unsupported;
}

// Runs `file` and compares its outcome with `expected`, printing each difference.
Status VerifyAgainst(const std::string& file, const graph::Golden& expected,
                     const RunOptions& run_options, const compare::CompareOptions& compare_options,
                     std::ostream& out, std::ostream& err) {
  std::optional<graph::Golden> actual = RunToGolden(file, run_options, err);
  if (!actual) return kError;
  if (const auto& refusal = RefusalOf(*actual)) {
    // No prediction to compare (DESIGN D13): a refusal is never a pass against a golden.
    fmt::print(out, "{}: UNSUPPORTED at {}: {}\n", DisplayName(file), refusal->where,
               refusal->reason);
    return kUnsupported;
  }
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
    if (std::optional<runtime::ReuseFlip> flip =
            FindReuseFlip(file, expected, run_options, compare_options)) {
      fmt::print(
          out,
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
  int count[5] = {};
  void Add(Status status) { count[status] += 1; }
  // An allocator_divergence is no semantic failure (DESIGN D1): it passes, reported.
  int match() const { return count[kMatch] + count[kAllocatorDivergence]; }
  int differ() const { return count[kDiffer]; }
  int error() const { return count[kError]; }
  int divergence() const { return count[kAllocatorDivergence]; }
  int unsupported() const { return count[kUnsupported]; }
};

// `--expect-unsupported`: the refusal passes, and so does agreement with the golden (what
// is awaited may be modeled in this mode already: classes in eager code); a different
// answer fails.
Status ExpectRefusal(const std::string& file, Status status, std::ostream& out) {
  if (status == kUnsupported || status == kError) return status;
  if (status == kMatch || status == kAllocatorDivergence) {
    fmt::print(out, "{}: predicted, although its header says it awaits more of the model\n",
               DisplayName(file));
    return status;
  }
  fmt::print(out,
             "{}: answered differently from its golden, but its header says it awaits what the "
             "reference does not model: it must refuse it (DESIGN D13)\n",
             DisplayName(file));
  return kDiffer;
}

// The plain verify: every file against its golden.
int VerifyAll(const std::vector<std::string>& files, const VerifyOptions& options,
              const compare::CompareOptions& compare_options, std::ostream& out,
              std::ostream& err) {
  Tally tally;
  for (const std::string& file : files) {
    std::optional<graph::Golden> expected = ReadExpected(file, err);
    Status status =
        expected ? VerifyAgainst(file, *expected, options.run, compare_options, out, err) : kError;
    tally.Add(options.expect_unsupported ? ExpectRefusal(file, status, out) : status);
  }
  if (options.expect_unsupported) {
    fmt::print(out, "{} refused as expected, {} predicted, {} failed\n", tally.unsupported(),
               tally.match(), tally.differ() + tally.error());
    return tally.error() > 0 ? 2 : tally.differ() > 0 ? 1 : 0;
  }
  fmt::print(out, "{} passed, {} failed{}{}\n", tally.match(),
             tally.differ() + tally.error() + tally.unsupported(),
             tally.unsupported() > 0
                 ? fmt::format(" ({} of the failed: UNSUPPORTED)", tally.unsupported())
                 : "",
             tally.divergence() > 0
                 ? fmt::format(" ({} of the passed: allocator_divergence)", tally.divergence())
                 : "");
  return tally.error() > 0 ? 2 : tally.differ() + tally.unsupported() > 0 ? 1 : 0;
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
    return VerifyAll(files, options, *compare_options, out, err);
  }
  std::optional<dynamo::Rule> rule = SwitchedOffRule(options, err);
  if (!rule) return 2;
  return VerifySwitchedOff(files, *rule, options.run, *compare_options, out, err);
}

}  // namespace tdc::tools
