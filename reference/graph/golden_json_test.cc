#include "reference/graph/golden_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "reference/graph/test_files.h"

namespace tdc::graph {
namespace {

using testing::SampleGoldenText;

const Golden& Sample() {
  static const Golden golden = [] {
    GoldenReadResult read = ReadGolden(SampleGoldenText());
    if (!read.golden) ADD_FAILURE() << FormatJsonError("sample_golden.json", *read.error);
    return read.golden.value_or(Golden{});
  }();
  return golden;
}

const Value& Out(const OrderedMap<Value>& outs, const std::string& name) {
  for (const auto& [key, value] : outs) {
    if (key == name) return value;
  }
  static const Value missing;
  ADD_FAILURE() << "no out " << name;
  return missing;
}

TEST(GoldenJsonTest, SampleRoundTripsByteForByte) {
  std::string text = SampleGoldenText();
  ASSERT_FALSE(text.empty()) << "missing reference/graph/testdata/sample_golden.json";
  GoldenReadResult read = ReadGolden(text);
  ASSERT_TRUE(read.golden) << FormatJsonError("sample_golden.json", *read.error);
  EXPECT_EQ(WriteGolden(*read.golden), text);
}

TEST(GoldenJsonTest, RecordedGoldensRoundTripByteForByte) {
  std::vector<std::filesystem::path> goldens = testing::RecordedGoldens();
  if (goldens.empty()) GTEST_SKIP() << "the oracle has recorded no golden under fixtures/ yet";
  for (const std::filesystem::path& path : goldens) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    GoldenReadResult read = ReadGolden(text.str());
    ASSERT_TRUE(read.golden) << FormatJsonError(path.string(), *read.error);
    EXPECT_EQ(WriteGolden(*read.golden), text.str()) << path;
  }
}

TEST(GoldenJsonTest, ReadsTheModel) {
  const Golden& golden = Sample();
  ASSERT_EQ(golden.compiled.size(), 2u);
  EXPECT_EQ(golden.compiled[0].first, "torch-2.13");
  EXPECT_EQ(golden.compiled[1].first, "torch-2.13-ngb");
  // aot_eager: an Outcome where recorded, null where nobody ran the program that way.
  ASSERT_TRUE(golden.compiled[0].second.aot_eager);
  EXPECT_EQ(golden.compiled[0].second.aot_eager->outs.size(), 2u);
  EXPECT_EQ(golden.compiled[0].second.aot_eager->outs[1].first, "out_int");
  EXPECT_FALSE(golden.compiled[1].second.aot_eager);

  const Tensor& out = *Out(golden.eager.outs, "out").tensor;
  EXPECT_EQ(out.dtype, DType::kFloat32);
  EXPECT_EQ(out.shape, std::vector<int64_t>{8});
  ASSERT_EQ(out.floats.size(), 8u);
  EXPECT_EQ(out.floats[0], 0.5);
  // float32 sigmoid(relu(2.0)): 0x1.c2f7d4p-1.
  EXPECT_EQ(out.floats[7], std::ldexp(static_cast<double>(0xc2f7d4 | 0x1000000), -25));

  EXPECT_EQ(Out(golden.eager.outs, "out_float").number, 0.1);
  const Value& dict = Out(golden.eager.outs, "out_dict");
  ASSERT_EQ(dict.entries.size(), 2u);
  EXPECT_EQ(dict.entries[0].key.text, "a");
  EXPECT_TRUE(std::signbit(dict.entries[0].value.number));
  EXPECT_EQ(Out(golden.eager.outs, "out_str").text, "caf\u00e9\n\u00a0\U0001F600\x7f\x1f\t\"\\/");

  const Tensor& ints = *Out(golden.eager.outs, "out_tuple").items[1].tensor;
  EXPECT_EQ(ints.strides, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ints.integers, (std::vector<int64_t>{0, 2, 4, 1, 3, 5}));
  const Tensor& f64 = *Out(golden.eager.outs, "out64").tensor;
  EXPECT_TRUE(std::isinf(f64.floats[0]) && f64.floats[0] > 0);
  EXPECT_TRUE(std::isnan(f64.floats[1]));

  const CompiledOutcome& compiled = golden.compiled[0].second;
  ASSERT_EQ(compiled.invocations.size(), 3u);
  const Invocation& second = compiled.invocations[1];
  EXPECT_TRUE(second.trigger.resume);
  EXPECT_EQ(second.trigger.line, 12);
  EXPECT_FALSE(second.aten_graph);
  ASSERT_TRUE(second.aten_error);
  EXPECT_EQ(second.aten_error->type, "RuntimeError");
  const std::vector<Node>& nodes = second.dynamo_graph.nodes;
  EXPECT_EQ(nodes[1].type, "int");
  EXPECT_FALSE(nodes[1].shape);
  EXPECT_EQ(nodes[3].args[1].kind, ValueKind::kSlice);
  EXPECT_EQ(nodes[3].args[1].items[2].kind, ValueKind::kNone);
  EXPECT_EQ(nodes[4].op, NodeOp::kCallMethod);
  EXPECT_EQ(nodes[4].kwargs[0].first, "alpha");
  EXPECT_EQ(nodes[4].kwargs[0].second.number, 2.0);
  EXPECT_EQ(nodes[5].kwargs[1].second.kind, ValueKind::kLayout);
  EXPECT_EQ(nodes[7].args[0].items[1].integer, 5);

  EXPECT_EQ(compiled.counters.graph_break[0].second, 2);
  EXPECT_FALSE(compiled.graph_breaks[1].user_stack);
  EXPECT_EQ(compiled.graph_breaks[0].user_stack->at(1).name, "fn");
  ASSERT_EQ(golden.meta.header.tolerance.size(), 1u);
  EXPECT_EQ(golden.meta.header.tolerance[0].first, DType::kFloat64);
  EXPECT_EQ(golden.meta.header.tolerance[0].second.rtol, 1e-5);
  EXPECT_TRUE(golden.meta.profiles[1].second[0].second);
}

TEST(GoldenJsonTest, WritesToleranceNumbersAsPythonDoes) {
  // Python's json.dumps of the same floats (the only JSON numbers that are not integers).
  const std::pair<double, const char*> numbers[] = {
      {1e-3, "0.001"},  {1e-5, "1e-05"},  {1.3e-6, "1.3e-06"}, {1e-4, "0.0001"},
      {0.5, "0.5"},     {2.0, "2.0"},     {1e-7, "1e-07"},     {0.05, "0.05"},
      {3e-4, "0.0003"}, {0.016, "0.016"}, {1e-12, "1e-12"},    {123.25, "123.25"}};
  for (const auto& [number, text] : numbers) {
    Golden golden = Sample();
    golden.meta.header.tolerance = {{DType::kFloat32, Tolerance{number, number}}};
    std::string written = WriteGolden(golden);
    std::string want = std::string("\"rtol\": ") + text + ",\n";
    EXPECT_NE(written.find(want), std::string::npos) << text;
    GoldenReadResult back = ReadGolden(written);
    ASSERT_TRUE(back.golden);
    EXPECT_EQ(back.golden->meta.header.tolerance[0].second.rtol, number);
  }
}

// The sample with one change applied to its JSON.
std::string Mutated(const std::function<void(Json&)>& change) {
  Json json = Json::parse(SampleGoldenText());
  change(json);
  return json.dump(1);
}

struct Malformed {
  std::string name;
  std::string text;
  std::string error;  // FormatJsonError("g.json", ...) must start with this.
};

std::vector<Malformed> MalformedCases() {
  const Json::json_pointer out("/eager/outs/out/tensor");
  const Json::json_pointer graph("/compiled/torch-2.13/invocations/1/dynamo_graph/nodes");
  const std::string graph_path =
      "g.json: error: compiled[\"torch-2.13\"].invocations[1]"
      ".dynamo_graph.nodes";
  return {
      {"syntax", "{\n \"schema\": }", "g.json:2:12: error: invalid JSON: syntax error"},
      {"empty", "", "g.json:1:1: error: invalid JSON:"},
      {"invalid utf-8", "{\"schema\": \"\xff\"}",
       "g.json:1:13: error: invalid JSON: syntax error while parsing value - invalid "
       "string: ill-formed UTF-8 byte"},
      {"not an object", "[]", "g.json: error: expected an object, got an array"},
      {"schema version", Mutated([](Json& j) { j["schema"] = "tdconform-golden/2"; }),
       "g.json: error: schema: unsupported schema \"tdconform-golden/2\""},
      {"missing field", Mutated([](Json& j) { j["eager"].erase("exception"); }),
       "g.json: error: eager: missing field \"exception\""},
      {"unknown field", Mutated([](Json& j) { j["meta"]["extra"] = 1; }),
       "g.json: error: meta: unknown field \"extra\" (expected the fields fixture, "},
      {"bad sha", Mutated([](Json& j) { j["meta"]["fixture_sha256"] = "ABC"; }),
       "g.json: error: meta.fixture_sha256: expected a SHA-256"},
      {"tolerance dtype", Mutated([](Json& j) {
         Json& tolerance = j["meta"]["header"]["tolerance"];
         tolerance["int64"] = tolerance["float64"];
       }),
       "g.json: error: meta.header.tolerance[\"int64\"]: a tolerance applies to a floating"},
      {"hex float", Mutated([](Json& j) { j["eager"]["outs"]["out_float"]["float"] = "0.1"; }),
       "g.json: error: eager.outs[\"out_float\"].float: \"0.1\" is not Python's float.hex()"},
      {"wrong type",
       Mutated([](Json& j) { j["compiled"]["torch-2.13"]["counters"]["frame_count"] = "3"; }),
       "g.json: error: compiled[\"torch-2.13\"].counters.frame_count: expected an integer, "
       "got the string \"3\""},
      {"float for int", Mutated([](Json& j) { j["eager"]["outs"]["out_int"]["int"] = 1.5; }),
       "g.json: error: eager.outs[\"out_int\"].int: expected an integer, got the number 1.5"},
      {"int range",
       Mutated([](Json& j) { j["eager"]["outs"]["out_int"]["int"] = 18446744073709551615ull; }),
       "g.json: error: eager.outs[\"out_int\"].int: integer 18446744073709551615 is outside"},
      {"value kind", Mutated([](Json& j) {
         j["eager"]["outs"]["out_int"] = {{"integer", 3}};
       }),
       "g.json: error: eager.outs[\"out_int\"]: unknown value kind \"integer\""},
      {"two kinds", Mutated([](Json& j) { j["eager"]["outs"]["out_int"]["str"] = "x"; }),
       "g.json: error: eager.outs[\"out_int\"]: expected a value (an object with one key "
       "naming its kind), got an object with 2 keys"},
      {"ref in outs", Mutated([](Json& j) {
         j["eager"]["outs"]["out_int"] = {{"ref", 0}};
       }),
       "g.json: error: eager.outs[\"out_int\"]: \"ref\" is allowed only in graph arguments"},
      {"tensor in args",
       Mutated([&](Json& j) { j[graph / 2 / "args" / 0] = j["eager"]["outs"]["out"]; }),
       graph_path + "[2].args[0]: a graph argument cannot be a tensor"},
      {"forward ref", Mutated([&](Json& j) { j[graph / 2 / "args" / 0 / "ref"] = 2; }),
       graph_path + "[2].args[0].ref: reference to node 2: a node may refer only to the 2 "
                    "nodes before it"},
      {"slice parts", Mutated([&](Json& j) { j[graph / 3 / "args" / 1 / "slice"].erase(2); }),
       graph_path + "[3].args[1].slice: a slice has 3 parts"},
      {"node op", Mutated([&](Json& j) { j[graph / 2 / "op"] = "call"; }),
       graph_path + "[2].op: unknown node op \"call\""},
      {"placeholder field", Mutated([&](Json& j) { j[graph / 0 / "target"] = "x"; }),
       graph_path + "[0]: unknown field \"target\""},
      {"layout", Mutated([&](Json& j) { j[graph / 5 / "kwargs" / "layout" / "layout"] = "x"; }),
       graph_path + "[5].kwargs[\"layout\"].layout: unknown layout \"x\""},
      {"element count", Mutated([&](Json& j) { j[out / "values"].erase(7); }),
       "g.json: error: eager.outs[\"out\"].tensor.values: 7 elements for shape [8] (which has "
       "8)"},
      {"stride count", Mutated([&](Json& j) { j[out / "strides"].push_back(1); }),
       "g.json: error: eager.outs[\"out\"].tensor.strides: 2 strides for 1 dimensions"},
      {"negative size", Mutated([&](Json& j) { j[out / "shape" / 0] = -8; }),
       "g.json: error: eager.outs[\"out\"].tensor.shape[0]: negative size -8"},
      {"huge shape", Mutated([&](Json& j) {
         j[out / "shape"] = {1ll << 40, 1ll << 40};
         j[out / "strides"] = {1, 1};
       }),
       "g.json: error: eager.outs[\"out\"].tensor.shape: shape has too many elements"},
      {"dtype", Mutated([&](Json& j) { j[out / "dtype"] = "float33"; }),
       "g.json: error: eager.outs[\"out\"].tensor.dtype: unknown dtype \"float33\""},
      {"complex", Mutated([&](Json& j) { j[out / "dtype"] = "complex64"; }),
       "g.json: error: eager.outs[\"out\"].tensor.dtype: complex64 tensors have no encoding"},
      {"element type", Mutated([&](Json& j) { j[out / "dtype"] = "int64"; }),
       "g.json: error: eager.outs[\"out\"].tensor.values[0]: expected an integer, got the "
       "string \"0x1.0000000000000p-1\""},
      {"dict pair", Mutated([](Json& j) { j["eager"]["outs"]["out_dict"]["dict"][1].erase(1); }),
       "g.json: error: eager.outs[\"out_dict\"].dict[1]: expected a [key, value] pair"},
  };
}

TEST(GoldenJsonTest, MalformedDocumentsGiveLocatedErrors) {
  for (const Malformed& m : MalformedCases()) {
    GoldenReadResult read = ReadGolden(m.text);
    ASSERT_FALSE(read.golden) << m.name;
    std::string message = FormatJsonError("g.json", *read.error);
    EXPECT_TRUE(message.starts_with(m.error))
        << m.name << "\n  got: " << message << "\n want: " << m.error;
  }
}

// Whatever a hostile or broken file holds, reading it gives a document or an error, and
// an accepted document is written back in the form it reads again unchanged.
void ExpectReadSafely(const std::string& text, const std::string& what) {
  GoldenReadResult read = ReadGolden(text);
  if (!read.golden) {
    EXPECT_FALSE(read.error->message.empty()) << what;
    return;
  }
  std::string written = WriteGolden(*read.golden);
  GoldenReadResult again = ReadGolden(written);
  ASSERT_TRUE(again.golden) << what << ": " << FormatJsonError("rewritten", *again.error);
  EXPECT_EQ(WriteGolden(*again.golden), written) << what;
}

TEST(GoldenJsonTest, RandomEditsGiveADocumentOrAnError) {
  std::mt19937 random(20130);  // Fixed: the same edits every run.
  const std::string text = SampleGoldenText();
  constexpr char kBytes[] = "{}[]\",:0-9aepx.\\ \n\xff";  // and its final NUL
  for (int i = 0; i < 300; ++i) {
    std::string edited = text;
    size_t at = random() % edited.size();
    edited[at] = kBytes[random() % sizeof(kBytes)];
    ExpectReadSafely(edited, "byte edit " + std::to_string(i));
  }
  // Edits of the JSON tree: any value replaced by a value of another shape.
  Json json = Json::parse(text);
  std::vector<Json::json_pointer> places;
  std::function<void(const Json&, const Json::json_pointer&)> collect =
      [&](const Json& j, const Json::json_pointer& at) {
        places.push_back(at);
        if (j.is_object()) {
          for (const auto& item : j.items()) collect(item.value(), at / item.key());
        } else if (j.is_array()) {
          for (size_t k = 0; k < j.size(); ++k) collect(j[k], at / k);
        }
      };
  collect(json, Json::json_pointer());
  const Json replacements[] = {nullptr,
                               0,
                               -1,
                               9223372036854775807ll,
                               1.5,
                               true,
                               "x",
                               "0x1.8000000000000p+1",
                               Json::array(),
                               Json::object(),
                               {{"int", 1}},
                               {{"ref", 0}},
                               Json::array({1, 2})};
  for (int i = 0; i < 600; ++i) {
    Json edited = json;
    const Json::json_pointer& at = places[random() % places.size()];
    const Json& replacement = replacements[random() % std::size(replacements)];
    if (at.empty()) continue;
    edited[at] = replacement;
    ExpectReadSafely(edited.dump(1), at.to_string() + " = " + replacement.dump());
  }
}

TEST(GoldenJsonTest, DeepNestingIsAnErrorNotACrash) {
  std::string values;
  for (int i = 0; i < 150; ++i) values += "{\"tuple\": [";
  values += "{\"int\": 1}";
  for (int i = 0; i < 150; ++i) values += "]}";
  std::string text = Mutated([](Json& j) { j["eager"]["outs"]["out_deep"] = nullptr; });
  size_t at = text.find("null", text.find("out_deep"));
  text.replace(at, 4, values);
  GoldenReadResult read = ReadGolden(text);
  ASSERT_FALSE(read.golden);
  EXPECT_NE(read.error->message.find("nested deeper than 100"), std::string::npos)
      << read.error->message;

  std::string arrays(100000, '[');
  read = ReadGolden(arrays + std::string(100000, ']'));
  ASSERT_FALSE(read.golden);
  // Refused by the depth scan before the parser (json_depth.h), at the bracket too deep.
  EXPECT_EQ(read.error->message, "JSON nested more than 1000 levels deep");
  EXPECT_EQ(read.error->line, 1);
  EXPECT_EQ(read.error->column, 1001);
}

}  // namespace
}  // namespace tdc::graph
