#include "conformance/executor/core_set.h"

#include <string_view>

#include "conformance/executor/executor.h"
#include "reference/base/read_file.h"
#include "reference/graph/golden_json.h"
#include "reference/runtime/op_table.h"

namespace tdc::conformance {

namespace {

// Pointwise ops whose result is not bool.
bool FloatPointwise(const runtime::OpInfo* op) {
  if (op == nullptr || !op->Has(runtime::kPointwise)) return false;
  for (std::string_view bool_valued : {"eq", "ne", "lt", "le", "gt", "ge", "where"}) {
    if (op->name == bool_valued) return false;
  }
  return true;
}

const runtime::OpInfo* OpOf(const graph::Node& n, tdc_graph_level level) {
  if (level == TDC_GRAPH_LEVEL_ATEN) {
    std::string_view target = n.target;
    if (n.op != graph::NodeOp::kCallFunction || !target.starts_with("aten.")) return nullptr;
    target.remove_prefix(5);
    return runtime::FindOp(target.substr(0, target.find('.')));
  }
  if (n.op == graph::NodeOp::kCallMethod) return runtime::FindMethod(n.target);
  if (n.op != graph::NodeOp::kCallFunction) return nullptr;
  if (const runtime::OpInfo* op = runtime::FindFunction(n.target)) return op;
  return runtime::FindPythonOperator(n.target);
}

bool Operand(const graph::Arg& a) {
  return a.kind == graph::ValueKind::kRef || a.kind == graph::ValueKind::kInt ||
         a.kind == graph::ValueKind::kFloat || a.kind == graph::ValueKind::kBool;
}

}  // namespace

bool IsFloat32Elementwise(const graph::Graph& g, tdc_graph_level level) {
  for (const graph::Node& n : g.nodes) {
    switch (n.op) {
      case graph::NodeOp::kPlaceholder:
        if (n.dtype != graph::DType::kFloat32) return false;
        break;
      case graph::NodeOp::kOutput:
        break;
      case graph::NodeOp::kCallFunction:
      case graph::NodeOp::kCallMethod:
        if (!FloatPointwise(OpOf(n, level)) || !n.kwargs.empty()) return false;
        for (const graph::Arg& a : n.args) {
          if (!Operand(a)) return false;
        }
        break;
      case graph::NodeOp::kCallModule:
      case graph::NodeOp::kGetAttr:
        return false;
    }
  }
  return true;
}

bool InCoreSet(const graph::CompiledOutcome& recorded, tdc_graph_level level) {
  if (recorded.invocations.empty()) return false;
  for (const graph::Invocation& call : recorded.invocations) {
    const graph::Graph* g = level == TDC_GRAPH_LEVEL_ATEN
                                ? (call.aten_graph ? &*call.aten_graph : nullptr)
                                : &call.dynamo_graph;
    if (g == nullptr || !IsFloat32Elementwise(*g, level)) return false;
  }
  return true;
}

std::vector<std::string> CoreSet(const std::vector<std::string>& fixtures,
                                 const std::string& profile) {
  std::vector<std::string> ids;
  for (const std::string& fixture : fixtures) {
    graph::GoldenReadResult golden =
        graph::ReadGolden(ReadFile(GoldenFileOf(fixture)).value_or(""));
    if (!golden.golden) continue;
    for (const auto& [recorded_profile, recorded] : golden.golden->compiled) {
      if (recorded_profile != profile) continue;
      for (tdc_graph_level level : {TDC_GRAPH_LEVEL_DYNAMO, TDC_GRAPH_LEVEL_ATEN}) {
        if (InCoreSet(recorded, level)) ids.push_back(CaseIdOf(fixture, profile, level));
      }
    }
  }
  return ids;
}

}  // namespace tdc::conformance
