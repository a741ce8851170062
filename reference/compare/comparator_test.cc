// The rules of SCHEMA.md §10, one at a time, on the sample document
// (reference/graph/testdata/sample_golden.json) and small edits of it.
#include "reference/compare/comparator.h"

#include <gtest/gtest.h>

#include <functional>

#include "reference/compare/tolerance.h"
#include "reference/graph/golden_json.h"
#include "reference/graph/hex_float.h"
#include "reference/graph/test_files.h"

namespace tdc::compare {
namespace {

using graph::FormatHexFloat;
using graph::Golden;
using graph::Json;

const Json& SampleJson() {
  static const Json json = Json::parse(graph::testing::SampleGoldenText());
  return json;
}

Golden Read(const Json& json) {
  graph::GoldenReadResult read = graph::ReadGolden(json.dump(1));
  if (!read.golden) ADD_FAILURE() << graph::FormatJsonError("document", *read.error);
  return read.golden.value_or(Golden{});
}

Json Edited(const std::function<void(Json&)>& edit) {
  Json json = SampleJson();
  edit(json);
  return json;
}

// The difference lines for comparing `actual` against `expected`.
std::vector<std::string> Lines(const Json& expected, const Json& actual,
                               const CompareOptions& options = {}) {
  CompareResult result = Compare(Read(expected), Read(actual), options);
  EXPECT_FALSE(result.error) << *result.error;
  std::vector<std::string> lines;
  for (const Difference& d : result.differences) lines.push_back(FormatDifference(d));
  return lines;
}

std::vector<std::string> Lines(const Json& actual) { return Lines(SampleJson(), actual); }

const Json::json_pointer kOut("/eager/outs/out/tensor/values");
const Json::json_pointer kOut64("/eager/outs/out64/tensor/values");
const Json::json_pointer kTorch213("/compiled/torch-2.13");

TEST(CompareTest, EqualDocumentsHaveNoDifference) {
  EXPECT_TRUE(Lines(SampleJson()).empty());
  for (const auto& path : graph::testing::RecordedGoldens()) {
    std::ifstream in(path, std::ios::binary);
    Json json = Json::parse(in);
    EXPECT_TRUE(Lines(json, json).empty()) << path;
  }
}

TEST(CompareTest, NamesTheFieldThatDiffers) {
  Json actual = Edited([](Json& j) {
    j[kTorch213 / "invocations" / 1 / "dynamo_graph" / "nodes" / 2 / "target"] = "torch.tanh";
  });
  EXPECT_EQ(Lines(actual), std::vector<std::string>{
                               "compiled[\"torch-2.13\"].invocations[1].dynamo_graph.nodes[2]."
                               "target: expected \"torch.sigmoid\", got \"torch.tanh\""});
}

TEST(CompareTest, Float32ElementsUseTheDefaultTolerance) {
  // values[0] is 0.5: the float32 tolerance there is 1e-5 + 1.3e-6 * 0.5 = 1.065e-5.
  Json inside = Edited([](Json& j) { j[kOut / 0] = FormatHexFloat(0.5 + 1.06e-5); });
  Json outside = Edited([](Json& j) { j[kOut / 0] = FormatHexFloat(0.5 + 1.07e-5); });
  EXPECT_TRUE(Lines(inside).empty());
  std::vector<std::string> lines = Lines(outside);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(
      lines[0].starts_with("eager.outs[\"out\"].tensor.values[0]: expected "
                           "0x1.0000000000000p-1 (0.5), got 0x1.00"))
      << lines[0];
}

TEST(CompareTest, HeaderOverridesOfTheExpectedDocumentApply) {
  // The sample's header sets float64 to rtol 1e-5, atol 1e-8. out64's values[3] is 2.5e-3:
  // the tolerance there is 1e-8 + 2.5e-8 = 3.5e-8 (the default would give 1.0025e-7).
  Json close = Edited([](Json& j) { j[kOut64 / 3] = FormatHexFloat(2.5e-3 + 3.4e-8); });
  Json far = Edited([](Json& j) { j[kOut64 / 3] = FormatHexFloat(2.5e-3 + 3.6e-8); });
  EXPECT_TRUE(Lines(close).empty());
  EXPECT_EQ(Lines(far).size(), 1u);
  // Without the override the default applies.
  auto no_override = [](Json& j) { j["meta"]["header"]["tolerance"] = Json::object(); };
  EXPECT_TRUE(Lines(Edited(no_override), far).empty());
  // The actual document's header is ignored.
  Json far_loose = far;
  far_loose["meta"]["header"]["tolerance"]["float64"] = {{"rtol", 1.0}, {"atol", 1.0}};
  EXPECT_EQ(Lines(SampleJson(), far_loose).size(), 1u);
  // Float scalars are Python floats: float64's tolerance (here the override, rtol 1e-5).
  EXPECT_TRUE(Lines(Edited([](Json& j) {
                j["eager"]["outs"]["out_float"]["float"] = FormatHexFloat(0.1 * (1 + 0.9e-5));
              })).empty());
  EXPECT_EQ(Lines(Edited([](Json& j) {
              j["eager"]["outs"]["out_float"]["float"] = FormatHexFloat(0.1 * (1 + 1.2e-5));
            })).size(),
            1u);
}

TEST(CompareTest, NanEqualsNanAndInfinitiesCompareBySign) {
  EXPECT_TRUE(WithinTolerance(std::nan(""), -std::nan(""), {1, 1}));
  EXPECT_FALSE(WithinTolerance(std::nan(""), 1.0, {1, 1}));
  EXPECT_FALSE(WithinTolerance(1.0, std::nan(""), {1, 1}));
  EXPECT_TRUE(WithinTolerance(INFINITY, INFINITY, {0, 0}));
  EXPECT_FALSE(WithinTolerance(INFINITY, -INFINITY, {1, 1}));
  EXPECT_FALSE(WithinTolerance(INFINITY, 1e308, {1, 1}));
  EXPECT_FALSE(WithinTolerance(1e308, INFINITY, {1, 1}));
  // out64 holds [inf, nan, -inf, 2.5e-3].
  EXPECT_EQ(Lines(Edited([](Json& j) { j[kOut64 / 0] = "-inf"; })),
            std::vector<std::string>{"eager.outs[\"out64\"].tensor.values[0]: expected inf, "
                                     "got -inf"});
  EXPECT_EQ(Lines(Edited([](Json& j) { j[kOut64 / 1] = "0x1.0000000000000p+0"; })),
            std::vector<std::string>{"eager.outs[\"out64\"].tensor.values[1]: expected nan, "
                                     "got 0x1.0000000000000p+0 (1.0)"});
}

TEST(CompareTest, IntegersAndBoolsCompareExactly) {
  EXPECT_EQ(ToleranceTable::Default(graph::DType::kInt64).atol, 0);
  Json actual = Edited([](Json& j) {
    j["/eager/outs/out_tuple/tuple/1/tensor/values/5"_json_pointer] = 6;
    j["/eager/outs/out_list/list/1/tensor/values/1"_json_pointer] = true;
  });
  EXPECT_EQ(Lines(actual),
            (std::vector<std::string>{
                "eager.outs[\"out_tuple\"].tuple[1].tensor.values[5]: expected 5, got 6",
                "eager.outs[\"out_list\"].list[1].tensor.values[1]: expected false, got true"}));
}

TEST(CompareTest, OutsAndCountersCompareAsMaps) {
  Json reordered = Edited([](Json& j) {
    Json outs = Json::object();
    Json& original = j["eager"]["outs"];
    for (auto it = original.rbegin(); it != original.rend(); ++it) outs[it.key()] = it.value();
    j["eager"]["outs"] = outs;
  });
  EXPECT_TRUE(Lines(reordered).empty());
  Json changed = Edited([](Json& j) {
    j["eager"]["outs"].erase("out_int");
    j["eager"]["outs"]["out_new"] = {{"int", 5}};
    j[kTorch213 / "counters" / "graph_break"].erase("Data dependent operator");
  });
  EXPECT_EQ(Lines(changed),
            (std::vector<std::string>{
                "eager.outs[\"out_int\"]: expected {\"int\":3}, got (absent)",
                "eager.outs[\"out_new\"]: expected (absent), got {\"int\":5}",
                "compiled[\"torch-2.13\"].counters.graph_break[\"Data dependent operator\"]: "
                "expected 1, got (absent)"}));
}

TEST(CompareTest, ListLengthIsReportedOnceAndThePrefixCompared) {
  Json fewer = Edited([](Json& j) { j[kTorch213 / "invocations"].erase(2); });
  EXPECT_EQ(Lines(fewer), std::vector<std::string>{"compiled[\"torch-2.13\"].invocations: "
                                                   "expected length 3, got length 2"});
  Json more_and_changed = Edited([](Json& j) {
    j[kOut.parent_pointer() / "shape"] = {9};
    j[kOut.parent_pointer() / "strides"] = {1};
    j[kOut].push_back("0x0.0p+0");
    j[kTorch213 / "graph_breaks" / 0 / "hints"].push_back("extra");
    j[kTorch213 / "graph_breaks" / 0 / "hints" / 0] = "changed";
  });
  std::vector<std::string> lines = Lines(SampleJson(), more_and_changed);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "eager.outs[\"out\"].tensor.shape: expected [8], got [9]",
                       "compiled[\"torch-2.13\"].graph_breaks[0].hints: expected length 2, got "
                       "length 3",
                       "compiled[\"torch-2.13\"].graph_breaks[0].hints[0]: expected \"Remove the "
                       "`torch._dynamo.graph_break()` call.\", got \"changed\""}))
      << ::testing::PrintToString(lines);
}

TEST(CompareTest, ShapeOrDtypeDifferencesHideElements) {
  Json actual = Edited([](Json& j) {
    j[kOut64.parent_pointer() / "dtype"] = "float32";
    j[kOut64 / 3] = "0x1.0000000000000p+0";
    j["/eager/outs/out_tuple/tuple/1/tensor/shape"_json_pointer] = {3, 2};
    j["/eager/outs/out_tuple/tuple/1/tensor/strides"_json_pointer] = {2, 1};
  });
  EXPECT_EQ(Lines(actual),
            (std::vector<std::string>{
                "eager.outs[\"out_tuple\"].tuple[1].tensor.shape: expected [2, 3], got [3, 2]",
                "eager.outs[\"out64\"].tensor.dtype: expected \"float64\", got \"float32\""}));
}

// `out` as a tensor of `shape` and `strides` (its 8 values kept unless the shape is empty).
Json WithLayout(std::vector<int64_t> shape, std::vector<int64_t> strides) {
  return Edited([&](Json& j) {
    j[kOut.parent_pointer() / "shape"] = shape;
    j[kOut.parent_pointer() / "strides"] = strides;
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) j[kOut] = Json::array();
  });
}

TEST(CompareTest, EveryStrideCountsUnlessOnlySignificantOnesAreAsked) {
  CompareOptions significant;
  significant.significant_strides_only = true;
  // A dimension of size 1: its stride addresses no second element.
  Json expected = WithLayout({8, 1}, {1, 1});
  Json actual = WithLayout({8, 1}, {1, 8});
  EXPECT_EQ(
      Lines(expected, actual),
      std::vector<std::string>{"eager.outs[\"out\"].tensor.strides: expected [1, 1], got [1, 8]"});
  EXPECT_TRUE(Lines(expected, actual, significant).empty());
  // No elements: no stride addresses anything.
  EXPECT_TRUE(Lines(WithLayout({0, 8}, {8, 1}), WithLayout({0, 8}, {1, 0}), significant).empty());
  // A stride of a longer dimension is still a difference, reported as the whole list.
  EXPECT_EQ(Lines(WithLayout({2, 1, 4}, {4, 4, 1}), WithLayout({2, 1, 4}, {1, 1, 2}), significant),
            std::vector<std::string>{
                "eager.outs[\"out\"].tensor.strides: expected [4, 4, 1], got [1, 1, 2]"});
}

TEST(CompareTest, NodesWithDifferentOpsDifferOnlyInOp) {
  Json actual = Edited([](Json& j) {
    Json& node = j[kTorch213 / "invocations" / 1 / "dynamo_graph" / "nodes" / 2];
    node["op"] = "call_method";
    node["target"] = "sigmoid";
  });
  EXPECT_EQ(Lines(actual), std::vector<std::string>{
                               "compiled[\"torch-2.13\"].invocations[1].dynamo_graph.nodes[2].op: "
                               "expected \"call_function\", got \"call_method\""});
}

TEST(CompareTest, MaskAtenHidesTheAtenLevelOnly) {
  Json actual = Edited([](Json& j) {
    j[kTorch213 / "invocations" / 0 / "aten_graph" / "nodes" / 1 / "target"] = "aten.abs.default";
    j[kTorch213 / "invocations" / 1 / "aten_error" / "message"] = "other";
    j[kTorch213 / "invocations" / 2 / "aten_graph"] = nullptr;
    j[kTorch213 / "invocations" / 2 / "trigger" / "line"] = 11;
    j[kTorch213 / "aot_eager"] = nullptr;
  });
  EXPECT_EQ(Lines(actual).size(), 5u);
  CompareOptions options;
  options.masked = MaskFields("aten").value();
  EXPECT_EQ(Lines(SampleJson(), actual, options),
            std::vector<std::string>{"compiled[\"torch-2.13\"].invocations[2].trigger.line: "
                                     "expected 10, got 11"});
}

TEST(CompareTest, MaskNamesAreSchemaFields) {
  EXPECT_EQ(MaskFields("aten"),
            (std::vector<graph::Field>{graph::Field::kAtenGraph, graph::Field::kAtenError,
                                       graph::Field::kAotEager}));
  EXPECT_EQ(MaskFields("user_stack"), std::vector<graph::Field>{graph::Field::kUserStack});
  EXPECT_FALSE(MaskFields("tensor"));  // A value kind, not a field.
  EXPECT_FALSE(MaskFields("Aten"));
}

TEST(CompareTest, ProfileAndModeSelectWhatIsCompared) {
  Json actual = Edited([](Json& j) {
    j["eager"]["outs"]["out_int"]["int"] = 4;
    j[kTorch213 / "counters" / "op_count"] = 5;
    j["/compiled/torch-2.13-ngb/counters/op_count"_json_pointer] = 5;
  });
  const std::string eager = "eager.outs[\"out_int\"].int: expected 3, got 4";
  const std::string classic = "compiled[\"torch-2.13\"].counters.op_count: expected 6, got 5";
  const std::string ngb = "compiled[\"torch-2.13-ngb\"].counters.op_count: expected 1, got 5";
  EXPECT_EQ(Lines(SampleJson(), actual), (std::vector<std::string>{eager, classic, ngb}));
  CompareOptions options;
  options.profile = "torch-2.13";
  EXPECT_EQ(Lines(SampleJson(), actual, options), (std::vector<std::string>{eager, classic}));
  options.mode = Mode::kCompile;
  EXPECT_EQ(Lines(SampleJson(), actual, options), std::vector<std::string>{classic});
  options.profile.reset();
  options.mode = Mode::kEager;
  EXPECT_EQ(Lines(SampleJson(), actual, options), std::vector<std::string>{eager});

  // The reference emits one profile at a time: the others are not compared.
  Json one_profile = Edited([](Json& j) { j["compiled"].erase("torch-2.13-ngb"); });
  options = CompareOptions{};
  options.profile = "torch-2.13";
  EXPECT_TRUE(Lines(SampleJson(), one_profile, options).empty());
  options.profile = "torch-2.13-ngb";
  EXPECT_EQ(Lines(SampleJson(), one_profile, options),
            std::vector<std::string>{"compiled[\"torch-2.13-ngb\"]: expected an outcome, got "
                                     "(absent)"});
  options.profile = "torch-9";
  CompareResult result = Compare(Read(SampleJson()), Read(SampleJson()), options);
  ASSERT_TRUE(result.error);
  EXPECT_EQ(*result.error, "the expected document has no profile \"torch-9\"");
  EXPECT_EQ(ParseMode("eager"), Mode::kEager);
  EXPECT_EQ(ParseMode("compile"), Mode::kCompile);
  EXPECT_FALSE(ParseMode("compiled"));
}

TEST(CompareTest, MetaIsNeverCompared) {
  Json actual = Edited([](Json& j) {
    j["meta"]["torch_version"] = "2.14.0";
    j["meta"]["header"]["rules"] = Json::array();
    j["meta"]["profiles"].erase("torch-2.13");
  });
  EXPECT_TRUE(Lines(actual).empty());
}

TEST(CompareTest, LongStringsShowWhereTheyDiffer) {
  std::string base(300, 'a');
  Json expected = Edited([&](Json& j) { j["eager"]["outs"]["out_str"]["str"] = base; });
  std::string changed = base;
  changed[200] = 'b';
  Json actual = Edited([&](Json& j) { j["eager"]["outs"]["out_str"]["str"] = changed; });
  std::vector<std::string> lines = Lines(expected, actual);
  ASSERT_EQ(lines.size(), 1u);
  std::string window = "\"" + std::string(30, 'a') + "b" + std::string(69, 'a') + "\"...";
  EXPECT_EQ(lines[0], "eager.outs[\"out_str\"].str: expected ...\"" + std::string(100, 'a') +
                          "\"..., got ..." + window);
}

}  // namespace
}  // namespace tdc::compare
