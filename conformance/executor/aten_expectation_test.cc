// The values an ATen-level backend is checked against come from the reference's run whenever
// the graph is the one that run gave the same inputs, and are computed afresh otherwise.
#include "conformance/executor/aten_expectation.h"

#include <gtest/gtest.h>

namespace tdc::conformance {
namespace {

using runtime::Scalar;
using runtime::Tensor;

Tensor Floats(const std::vector<double>& values) {
  std::vector<Scalar> scalars;
  for (double v : values) scalars.push_back(Scalar::Float(v, graph::DType::kFloat32));
  return runtime::TensorFromValues(graph::DType::kFloat32, {static_cast<int64_t>(values.size())},
                                   scalars);
}

std::vector<double> ValuesOf(const std::variant<std::vector<Tensor>, std::string>& outputs) {
  EXPECT_TRUE(std::holds_alternative<std::vector<Tensor>>(outputs));
  std::vector<double> values;
  if (const auto* tensors = std::get_if<std::vector<Tensor>>(&outputs)) {
    for (const Scalar& s : tensors->at(0).Values()) values.push_back(s.AsDouble());
  }
  return values;
}

// neg(x) at the ATen level.
graph::Graph Negation() {
  graph::Graph g;
  graph::Node x;
  x.op = graph::NodeOp::kPlaceholder;
  x.type = "tensor";
  x.shape = std::vector<int64_t>{2};
  x.dtype = graph::DType::kFloat32;
  graph::Node neg;
  neg.target = "aten.neg.default";
  neg.args = {graph::Value::Ref(0)};
  graph::Node out;
  out.op = graph::NodeOp::kOutput;
  out.args = {graph::Value::Sequence(graph::ValueKind::kTuple, {graph::Value::Ref(1)})};
  g.nodes = {x, neg, out};
  return g;
}

TEST(AtenExpectationTest, OnlyTheSameCompileOnTheSameInputsTakesTheReferencesOutputs) {
  const graph::Graph g = Negation();
  runtime::GraphBackend::Graphs graphs;
  graphs.compile = 3;
  graphs.dynamo = &g;
  graphs.aten = &g;
  graphs.inputs = {Floats({1.5, -2})};
  // Outputs no interpreter computes for neg: whoever gets them got them from the run.
  AtenExpectation expectation;
  expectation.graphs.push_back({3, {Floats({1.5, -2})}, std::vector<Tensor>{Floats({7, 7})}});
  EXPECT_EQ(ValuesOf(ExpectedAtenOutputs(expectation, 0, graphs)), (std::vector<double>{7, 7}));
  // Another position in the run, another compile, other inputs: computed from these inputs.
  EXPECT_EQ(ValuesOf(ExpectedAtenOutputs(expectation, 1, graphs)), (std::vector<double>{-1.5, 2}));
  graphs.compile = 4;
  EXPECT_EQ(ValuesOf(ExpectedAtenOutputs(expectation, 0, graphs)), (std::vector<double>{-1.5, 2}));
  graphs.compile = 3;
  graphs.inputs = {Floats({1.5, -2.0000002})};
  EXPECT_EQ(ValuesOf(ExpectedAtenOutputs(expectation, 0, graphs)),
            (std::vector<double>{-1.5, 2.0000002384185791}));
  // Nothing is carried for a graph the run could not compute: it is computed here.
  expectation.graphs[0].outputs.reset();
  graphs.inputs = {Floats({1.5, -2})};
  EXPECT_EQ(ValuesOf(ExpectedAtenOutputs(expectation, 0, graphs)), (std::vector<double>{-1.5, 2}));
}

}  // namespace
}  // namespace tdc::conformance
