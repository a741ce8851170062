// The wire form against the graph form it carries: every graph of every golden survives
// the trip, the header's enum values are the vocabularies' (by name), and malformed wire
// graphs are refused with the node and what is wrong.
#include "conformance/abi/wire.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/graph/golden_json.h"
#include "reference/graph/test_files.h"

namespace tdc::conformance {
namespace {

template <typename Parse>
void ExpectNumbered(std::initializer_list<std::pair<std::string_view, int>> header, Parse parse) {
  for (const auto& [name, value] : header) {
    auto parsed = parse(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(static_cast<int>(*parsed), value) << name;
  }
}

TEST(WireTest, HeaderEnumsAreTheVocabulariesByName) {
  ExpectNumbered({{"float16", TDC_DTYPE_FLOAT16},
                  {"bfloat16", TDC_DTYPE_BFLOAT16},
                  {"float32", TDC_DTYPE_FLOAT32},
                  {"float64", TDC_DTYPE_FLOAT64},
                  {"complex64", TDC_DTYPE_COMPLEX64},
                  {"complex128", TDC_DTYPE_COMPLEX128},
                  {"uint8", TDC_DTYPE_UINT8},
                  {"uint16", TDC_DTYPE_UINT16},
                  {"uint32", TDC_DTYPE_UINT32},
                  {"uint64", TDC_DTYPE_UINT64},
                  {"int8", TDC_DTYPE_INT8},
                  {"int16", TDC_DTYPE_INT16},
                  {"int32", TDC_DTYPE_INT32},
                  {"int64", TDC_DTYPE_INT64},
                  {"bool", TDC_DTYPE_BOOL}},
                 graph::ParseDType);
  ExpectNumbered({{"placeholder", TDC_NODE_PLACEHOLDER},
                  {"call_function", TDC_NODE_CALL_FUNCTION},
                  {"call_method", TDC_NODE_CALL_METHOD},
                  {"call_module", TDC_NODE_CALL_MODULE},
                  {"get_attr", TDC_NODE_GET_ATTR},
                  {"output", TDC_NODE_OUTPUT}},
                 graph::ParseNodeOp);
  ExpectNumbered({{"tensor", TDC_ARG_TENSOR},
                  {"int", TDC_ARG_INT},
                  {"float", TDC_ARG_FLOAT},
                  {"bool", TDC_ARG_BOOL},
                  {"str", TDC_ARG_STR},
                  {"none", TDC_ARG_NONE},
                  {"ellipsis", TDC_ARG_ELLIPSIS},
                  {"tuple", TDC_ARG_TUPLE},
                  {"list", TDC_ARG_LIST},
                  {"dict", TDC_ARG_DICT},
                  {"dtype", TDC_ARG_DTYPE},
                  {"device", TDC_ARG_DEVICE},
                  {"callable", TDC_ARG_CALLABLE},
                  {"repr", TDC_ARG_REPR},
                  {"ref", TDC_ARG_REF},
                  {"slice", TDC_ARG_SLICE},
                  {"layout", TDC_ARG_LAYOUT},
                  {"memory_format", TDC_ARG_MEMORY_FORMAT}},
                 graph::ParseValueKind);
  ExpectNumbered({{"strided", TDC_LAYOUT_STRIDED},
                  {"sparse_coo", TDC_LAYOUT_SPARSE_COO},
                  {"sparse_csr", TDC_LAYOUT_SPARSE_CSR},
                  {"sparse_csc", TDC_LAYOUT_SPARSE_CSC},
                  {"sparse_bsr", TDC_LAYOUT_SPARSE_BSR},
                  {"sparse_bsc", TDC_LAYOUT_SPARSE_BSC},
                  {"_mkldnn", TDC_LAYOUT_MKLDNN},
                  {"jagged", TDC_LAYOUT_JAGGED}},
                 graph::ParseLayout);
  ExpectNumbered({{"contiguous_format", TDC_MEMORY_FORMAT_CONTIGUOUS},
                  {"channels_last", TDC_MEMORY_FORMAT_CHANNELS_LAST},
                  {"channels_last_3d", TDC_MEMORY_FORMAT_CHANNELS_LAST_3D},
                  {"preserve_format", TDC_MEMORY_FORMAT_PRESERVE}},
                 graph::ParseMemoryFormat);
}

std::string RoundTrip(const graph::Graph& g, tdc_graph_level level) {
  WireGraph wire(g, level, "test");
  std::variant<graph::Graph, std::string> back = DecodeGraph(wire.get());
  if (auto* error = std::get_if<std::string>(&back)) return "error: " + *error;
  return graph::ToJson(std::get<graph::Graph>(back)).dump();
}

TEST(WireTest, EveryGraphOfEveryGoldenSurvivesTheTrip) {
  size_t graphs = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(graph::testing::SourcePath("fixtures"))) {
    const std::string path = entry.path().string();
    if (!path.ends_with(".golden.json")) continue;
    std::string relative =
        std::filesystem::relative(entry.path(), graph::testing::SourcePath("")).string();
    graph::GoldenReadResult read = graph::ReadGolden(*graph::testing::ReadSourceFile(relative));
    ASSERT_TRUE(read.golden) << relative;
    for (const auto& [profile, outcome] : read.golden->compiled) {
      for (const graph::Invocation& call : outcome.invocations) {
        EXPECT_EQ(RoundTrip(call.dynamo_graph, TDC_GRAPH_LEVEL_DYNAMO),
                  graph::ToJson(call.dynamo_graph).dump())
            << relative;
        ++graphs;
        if (!call.aten_graph) continue;
        EXPECT_EQ(RoundTrip(*call.aten_graph, TDC_GRAPH_LEVEL_ATEN),
                  graph::ToJson(*call.aten_graph).dump())
            << relative;
        ++graphs;
      }
    }
  }
  EXPECT_GT(graphs, 1000U);  // the fixtures hold a few thousand: the walk found them
}

TEST(WireTest, TheGraphRecordsItsLevelNameAndSize) {
  graph::Graph g;
  graph::Node input;
  input.op = graph::NodeOp::kPlaceholder;
  input.type = "tensor";
  input.shape = std::vector<int64_t>{2, 3};
  input.dtype = graph::DType::kFloat64;
  input.requires_grad = false;
  g.nodes.push_back(input);
  WireGraph wire(g, TDC_GRAPH_LEVEL_ATEN, "fixtures:a:b");
  const tdc_graph& w = wire.get();
  EXPECT_EQ(w.struct_size, sizeof(tdc_graph));
  EXPECT_EQ(w.level, TDC_GRAPH_LEVEL_ATEN);
  EXPECT_STREQ(w.name, "fixtures:a:b");
  ASSERT_EQ(w.num_nodes, 1U);
  EXPECT_EQ(w.nodes[0].ndim, 2);
  EXPECT_EQ(w.nodes[0].shape[1], 3);
  EXPECT_EQ(w.nodes[0].dtype, TDC_DTYPE_FLOAT64);
  EXPECT_EQ(w.nodes[0].source, nullptr);  // an ATen placeholder has none
}

TEST(WireTest, TensorConstantsTravelWithTheirNames) {
  runtime::Tensor strided =
      runtime::TensorFromValues(graph::DType::kFloat32, {2, 2},
                                {runtime::Scalar::Float(1), runtime::Scalar::Float(2),
                                 runtime::Scalar::Float(3), runtime::Scalar::Float(4)});
  strided.strides = {1, 2};  // its transpose: elements read in logical order 1, 3, 2, 4
  WireGraph wire(graph::Graph{}, TDC_GRAPH_LEVEL_ATEN, "g", {{"_tensor_constant0", strided}});
  ASSERT_EQ(wire.get().num_constants, 1U);
  EXPECT_STREQ(wire.get().constant_names[0], "_tensor_constant0");
  auto decoded = DecodeConstants(wire.get());
  ASSERT_TRUE(std::holds_alternative<NamedTensors>(decoded)) << std::get<std::string>(decoded);
  const NamedTensors& constants = std::get<NamedTensors>(decoded);
  ASSERT_EQ(constants.size(), 1U);
  EXPECT_EQ(constants[0].first, "_tensor_constant0");
  std::vector<double> values;
  for (const runtime::Scalar& v : constants[0].second.Values()) values.push_back(v.AsDouble());
  EXPECT_EQ(values, (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(constants[0].second.strides, (std::vector<int64_t>{2, 1}));  // copied contiguous
}

TEST(WireTest, ExampleInputsAreCopiesWithTheirStrides) {
  runtime::Tensor transposed =
      runtime::TensorFromValues(graph::DType::kFloat32, {2, 2},
                                {runtime::Scalar::Float(1), runtime::Scalar::Float(2),
                                 runtime::Scalar::Float(3), runtime::Scalar::Float(4)});
  transposed.strides = {1, 2};
  WireGraph wire(graph::Graph{}, TDC_GRAPH_LEVEL_DYNAMO, "g", {}, {transposed});
  const tdc_graph& w = wire.get();
  ASSERT_EQ(w.num_example_inputs, 1U);
  const tdc_tensor& example = w.example_inputs[0];
  ASSERT_EQ(example.ndim, 2);
  EXPECT_EQ(example.strides[0], 1);  // as the run will get it, not made contiguous
  EXPECT_EQ(example.strides[1], 2);
  // A backend writing its example inputs writes no input of the program.
  EXPECT_NE(example.data, static_cast<void*>(transposed.storage->bytes.data()));
  static_cast<float*>(example.data)[0] = 42;
  EXPECT_EQ(transposed.Values()[0].AsDouble(), 1);
  EXPECT_EQ(WireGraph(graph::Graph{}, TDC_GRAPH_LEVEL_DYNAMO, "g").get().example_inputs, nullptr);
}

TEST(WireTest, AnEmptyConstantWhoseStridesOverflowIsRefused) {
  // Found by tdc_wire_fuzzer (fuzz/regressions/wire/): 0 elements, but its contiguous strides
  // (4 * 2^62) overflowed where the copy was made.
  const int64_t shape[] = {0, int64_t{1} << 62, 4};
  const int64_t strides[] = {0, 0, 0};
  float data = 0;
  tdc_tensor t{};
  t.dtype = TDC_DTYPE_FLOAT32;
  t.ndim = 3;
  t.shape = shape;
  t.strides = strides;
  t.data = &data;
  const char* name = "_tensor_constant0";
  tdc_graph g{};
  g.num_constants = 1;
  g.constant_names = &name;
  g.constants = &t;
  auto decoded = DecodeConstants(g);
  ASSERT_TRUE(std::holds_alternative<std::string>(decoded));
  EXPECT_EQ(std::get<std::string>(decoded),
            "constant _tensor_constant0: an empty tensor of shape (0, 4611686018427387904, 4) "
            "whose strides pass 4294967296 bytes");
  const int64_t empty[] = {0, int64_t{1} << 20, 4};  // strides within 4 GiB: fine
  EXPECT_FALSE(CheckShape(TDC_DTYPE_FLOAT32, 3, empty));
}

std::string DecodeError(const tdc_graph& g) {
  std::variant<graph::Graph, std::string> decoded = DecodeGraph(g);
  return std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded) : "decoded";
}

TEST(WireTest, MalformedGraphsAreRefusedNamingTheNode) {
  tdc_arg forward_ref{};
  forward_ref.kind = TDC_ARG_REF;
  forward_ref.integer = 1;
  tdc_node nodes[2] = {};
  nodes[0].op = TDC_NODE_CALL_FUNCTION;
  nodes[0].target = "torch.sin";
  nodes[0].num_args = 1;
  nodes[0].args = &forward_ref;
  nodes[1].op = TDC_NODE_OUTPUT;
  nodes[1].target = "";
  tdc_graph g{};
  g.struct_size = sizeof(tdc_graph);
  g.level = TDC_GRAPH_LEVEL_DYNAMO;
  g.num_nodes = 2;
  g.nodes = nodes;
  EXPECT_EQ(DecodeError(g), "node 0: REF 1 does not name an earlier node");

  forward_ref.kind = 99;
  EXPECT_EQ(DecodeError(g), "node 0: argument kind 99 is not a tdc_arg_kind");

  forward_ref.kind = TDC_ARG_DICT;
  forward_ref.num_items = 1;
  tdc_arg key{};
  key.kind = TDC_ARG_STR;
  key.text = "k";
  forward_ref.items = &key;
  EXPECT_EQ(DecodeError(g), "node 0: a DICT with an odd number of items");

  nodes[0].num_args = 0;
  nodes[1].target = nullptr;
  EXPECT_EQ(DecodeError(g), "node 1: target is NULL");

  nodes[1].target = "";
  nodes[1].op = 6;
  EXPECT_EQ(DecodeError(g), "node 1: op 6 is not a tdc_node_op");

  nodes[1].op = TDC_NODE_OUTPUT;
  EXPECT_EQ(DecodeError(g), "decoded");

  // Items nested 100,000 deep, and a tuple that holds itself: an error, not a stack overflow
  // or an endless walk.
  std::vector<tdc_arg> chain(100000);
  for (size_t i = 0; i < chain.size(); ++i) {
    chain[i].kind = TDC_ARG_TUPLE;
    chain[i].num_items = i + 1 < chain.size() ? 1 : 0;
    chain[i].items = i + 1 < chain.size() ? &chain[i + 1] : nullptr;
  }
  nodes[0].num_args = 1;
  nodes[0].args = chain.data();
  EXPECT_EQ(DecodeError(g), "node 0: arguments nested more than 64 levels deep");
  tdc_arg itself{};
  itself.kind = TDC_ARG_LIST;
  itself.num_items = 1;
  itself.items = &itself;
  nodes[0].args = &itself;
  EXPECT_EQ(DecodeError(g), "node 0: arguments nested more than 64 levels deep");
  chain.resize(64);
  chain.back().num_items = 0;
  nodes[0].args = chain.data();
  EXPECT_EQ(DecodeError(g), "decoded");
}

}  // namespace
}  // namespace tdc::conformance
