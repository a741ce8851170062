// THE perturbation test (fixtures/SCHEMA.md §10, issue 3): every field of a golden,
// perturbed alone, is reported by the comparator at exactly its path and nowhere else,
// in both directions; every --mask on the way hides it; perturbations within tolerance
// and of `meta` compare equal.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "reference/compare/comparator.h"
#include "reference/compare/golden_perturbations.h"
#include "reference/graph/test_files.h"

namespace tdc::compare {
namespace {

using graph::Golden;
using graph::Json;
using testing::Perturbation;

graph::Golden Read(const std::string& text, const std::string& what) {
  graph::GoldenReadResult read = graph::ReadGolden(text);
  if (!read.golden) {
    ADD_FAILURE() << graph::FormatJsonError(what, *read.error);
    return Golden{};
  }
  return *read.golden;
}

std::string Paths(const std::vector<Difference>& differences) {
  std::string text;
  for (const Difference& d : differences) text += "\n    " + FormatDifference(d);
  return text.empty() ? " (none)" : text;
}

struct Coverage {
  std::map<std::string, int> sites_per_kind;
  int masks_checked = 0;
  int aten_masks_checked = 0;
};

// Checks one perturbation of `base`.
void Check(const Json& base_json, const Golden& base, const Perturbation& p,
           const std::string& what, Coverage& coverage) {
  Json json = base_json;
  p.apply(json);
  graph::GoldenReadResult read = graph::ReadGolden(json.dump(1));
  ASSERT_TRUE(read.golden) << what << ": perturbation " << p.kind << " at " << p.path
                           << " made an invalid document: "
                           << graph::FormatJsonError(what, *read.error);
  const Golden& perturbed = *read.golden;
  ++coverage.sites_per_kind[p.kind];

  for (bool forward : {true, false}) {
    CompareResult result = forward ? Compare(base, perturbed, {}) : Compare(perturbed, base, {});
    ASSERT_FALSE(result.error) << *result.error;
    if (p.path.empty()) {
      EXPECT_TRUE(result.differences.empty())
          << what << ": " << p.kind << " must compare equal, got" << Paths(result.differences);
      continue;
    }
    ASSERT_EQ(result.differences.size(), 1u)
        << what << ": " << p.kind << " (" << (forward ? "expected = base" : "actual = base")
        << ") must be reported once at\n    " << p.path << "\n  got" << Paths(result.differences);
    EXPECT_EQ(result.differences[0].path, p.path) << what << ": " << p.kind;
  }
  for (const std::string& mask : p.masks) {
    CompareOptions options;
    options.masked = MaskFields(mask).value();
    CompareResult masked = Compare(base, perturbed, options);
    EXPECT_TRUE(masked.differences.empty()) << what << ": --mask " << mask << " must hide "
                                            << p.path << ", got" << Paths(masked.differences);
    ++coverage.masks_checked;
    if (mask == "aten") ++coverage.aten_masks_checked;
  }
}

Coverage CheckAll(const std::string& text, const std::string& what, bool first_of_each_kind) {
  Coverage coverage;
  Json base_json = Json::parse(text);
  Golden base = Read(text, what);
  std::set<std::string> seen;
  for (const Perturbation& p : testing::EnumeratePerturbations(base_json)) {
    if (first_of_each_kind && !seen.insert(p.kind).second) continue;
    Check(base_json, base, p, what, coverage);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return coverage;
}

// Every field kind of SCHEMA.md §5-§7 (the sample document holds each of them).
const char* const kEveryFieldKind[] = {
    // Values in outs (§6), each kind; tensors and their elements.
    "value.kind",
    "value.int_vs_float",
    "value.int",
    "value.float.beyond_tolerance",
    "value.float.within_tolerance",
    "value.bool",
    "value.str",
    "value.device",
    "value.callable",
    "value.repr",
    "value.dtype",
    "value.tuple.length",
    "value.list.length",
    "value.dict.length",
    "tensor.dtype",
    "tensor.shape",
    "tensor.strides",
    "tensor.requires_grad",
    "tensor.element.beyond_tolerance",
    "tensor.element.within_tolerance",
    "tensor.element.nan_vs_number",
    "tensor.element.infinity_sign",
    "tensor.element.int",
    "tensor.element.bool",
    // Outcomes (§5).
    "outs.missing",
    "outs.extra",
    "exception.null_vs_set",
    "exception.set_vs_null",
    "exception.type",
    "exception.message",
    "compiled.profile_missing",
    "compiled.profile_extra",
    "invocations.count",
    "trigger.code",
    "trigger.resume",
    "trigger.line",
    "invocation.compile_id",
    "invocation.recompile",
    // Graphs (§7): nodes, placeholders, args and kwargs.
    "graph.nodes.length",
    "node.op",
    "node.target",
    "node.args.length",
    "node.kwargs.missing",
    "node.kwargs.extra",
    "arg.ref",
    "arg.ref_vs_const",
    "arg.int_vs_float",
    "arg.kind",
    "arg.int",
    "arg.float.beyond_tolerance",
    "arg.layout",
    "arg.memory_format",
    "arg.dtype",
    "arg.device",
    "arg.bool",
    "placeholder.type",
    "placeholder.shape",
    "placeholder.dtype",
    "placeholder.requires_grad",
    "placeholder.source",
    "aten_graph.set_vs_null",
    "aten_graph.null_vs_set",
    "aten_error.null_vs_set",
    "aten_error.set_vs_null",
    "aten_error.type",
    "aten_error.message",
    // Counters and graph breaks.
    "counters.frame_count",
    "counters.op_count",
    "counters.graph_break.count",
    "counters.graph_break.missing",
    "counters.graph_break.extra",
    "graph_breaks.count",
    "graph_break.location.null_vs_set",
    "graph_break.location.set_vs_null",
    "graph_break.location.file",
    "graph_break.location.line",
    "graph_break.reason",
    "graph_break.gb_type",
    "graph_break.explanation",
    "graph_break.hints.element",
    "graph_break.hints.length",
    "graph_break.context",
    "graph_break.user_stack.null_vs_set",
    "graph_break.user_stack.set_vs_null",
    "graph_break.user_stack.frame.file",
    "graph_break.user_stack.frame.line",
    "graph_break.user_stack.frame.name",
    "graph_break.user_stack.length",
    // Never compared.
    "meta.ignored",
};

TEST(PerturbationTest, EveryFieldKindOfTheSampleIsReportedAtExactlyItsPath) {
  Coverage coverage = CheckAll(graph::testing::SampleGoldenText(), "sample_golden.json", false);
  for (const char* kind : kEveryFieldKind) {
    EXPECT_GT(coverage.sites_per_kind[kind], 0) << "the sample exercises no " << kind;
  }
  EXPECT_GT(coverage.aten_masks_checked, 10);
  int sites = 0;
  for (const auto& [kind, count] : coverage.sites_per_kind) sites += count;
  RecordProperty("perturbations", sites);
  RecordProperty("masks_checked", coverage.masks_checked);
}

TEST(PerturbationTest, RecordedExample5GoldenIsReportedAtExactlyItsPaths) {
  const std::string file = "fixtures/seed/example5_graph_break.golden.json";
  std::optional<std::string> text = graph::testing::ReadSourceFile(file);
  if (!text) GTEST_SKIP() << file << " is not recorded yet";
  Coverage coverage = CheckAll(*text, file, false);
  // What the oracle really writes for the seed example: two graphs and a break.
  for (const char* kind :
       {"tensor.element.beyond_tolerance", "tensor.element.within_tolerance", "node.target",
        "arg.ref_vs_const", "placeholder.source", "aten_graph.set_vs_null", "trigger.resume",
        "graph_break.gb_type", "counters.graph_break.count", "invocations.count"}) {
    EXPECT_GT(coverage.sites_per_kind[kind], 0) << file << " exercises no " << kind;
  }
}

TEST(PerturbationTest, EveryRecordedGoldenIsReportedAtExactlyItsPaths) {
  std::vector<std::filesystem::path> goldens = graph::testing::RecordedGoldens();
  if (goldens.empty()) GTEST_SKIP() << "the oracle has recorded no golden yet";
  for (const std::filesystem::path& path : goldens) {
    std::optional<std::string> text =
        graph::testing::ReadSourceFile(std::filesystem::relative(path, TDC_SOURCE_DIR).string());
    ASSERT_TRUE(text) << path;
    CheckAll(*text, path.string(), /*first_of_each_kind=*/true);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace tdc::compare
