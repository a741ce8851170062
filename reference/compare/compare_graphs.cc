// Comparing canonical graphs (SCHEMA.md §7, §10): node by node in FX order. Nodes whose
// ops differ are one difference, on `op`: their other fields mean different things.
#include "reference/compare/differ.h"

namespace tdc::compare {
namespace {

using enum Field;
using graph::Node;
using graph::NodeOp;

std::string RenderArg(const graph::Value& arg) { return RenderJson(graph::ToJson(arg)); }

void CompareKwargs(Differ& d, const JsonPath& at, const graph::OrderedMap<graph::Value>& expected,
                   const graph::OrderedMap<graph::Value>& actual) {
  CompareMaps(d, at, expected, actual, CompareValues, RenderArg);
}

void CompareArgs(Differ& d, const JsonPath& at, const std::vector<graph::Value>& expected,
                 const std::vector<graph::Value>& actual) {
  CompareLists(d, at, expected, actual, CompareValues);
}

void CompareNodes(Differ& d, const JsonPath& at, const Node& expected, const Node& actual) {
  if (expected.op != actual.op) {
    ExactField(d, at, kOp, expected.op, actual.op);
    return;
  }
  switch (expected.op) {
    case NodeOp::kPlaceholder:
      ExactField(d, at, kType, expected.type, actual.type);
      ExactField(d, at, kShape, expected.shape, actual.shape);
      ExactField(d, at, kDtype, expected.dtype, actual.dtype);
      ExactField(d, at, kRequiresGrad, expected.requires_grad, actual.requires_grad);
      ExactField(d, at, kSource, expected.source, actual.source);
      break;
    case NodeOp::kCallFunction:
    case NodeOp::kCallMethod:
    case NodeOp::kCallModule:
    case NodeOp::kGetAttr:
      ExactField(d, at, kTarget, expected.target, actual.target);
      InField(d, at, kArgs, expected.args, actual.args, CompareArgs);
      InField(d, at, kKwargs, expected.kwargs, actual.kwargs, CompareKwargs);
      break;
    case NodeOp::kOutput:
      InField(d, at, kArgs, expected.args, actual.args, CompareArgs);
      break;
  }
}

void CompareNodeLists(Differ& d, const JsonPath& at, const std::vector<Node>& expected,
                      const std::vector<Node>& actual) {
  CompareLists(d, at, expected, actual, CompareNodes);
}

}  // namespace

void CompareGraphs(Differ& d, const JsonPath& at, const graph::Graph& expected,
                   const graph::Graph& actual) {
  InField(d, at, kNodes, expected.nodes, actual.nodes, CompareNodeLists);
}

}  // namespace tdc::compare
