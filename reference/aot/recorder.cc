#include "reference/aot/recorder.h"

#include <fmt/format.h>

#include "reference/aot/lowering.h"
#include "reference/dynamo/graph_builder.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::aot {

Recorder::Recorder(const std::vector<const runtime::PyTensor*>& inputs,
                   dynamo::ForeignTensor foreign)
    : foreign_(foreign) {
  for (size_t j = 0; j < inputs.size(); ++j) refs_.emplace(inputs[j], -static_cast<int64_t>(j) - 1);
}

int64_t Recorder::RefOf(const runtime::PyTensor& tensor) {
  auto it = refs_.find(&tensor);
  if (it != refs_.end()) return it->second;
  // Neither an input nor made by a lowered op: a global the traced code reads.
  if (foreign_ == dynamo::ForeignTensor::kRefuse) {
    runtime::RefuseNotModeled(
        "an allow_in_graph function reading a tensor that is not its input (Dynamo's "
        "fake-tensor run raises TorchRuntimeError there) is not modeled");
  }
  return EmitConstant(Value(const_cast<runtime::PyTensor*>(&tensor)));
}

graph::Arg Recorder::ArgOf(const Value& v) {
  return dynamo::ArgOf(v, [this](const runtime::PyTensor& t) { return RefOf(t); });
}

int64_t Recorder::Emit(std::string target, std::vector<graph::Arg> args,
                       graph::OrderedMap<graph::Arg> kwargs) {
  graph::Node node;
  node.op = graph::NodeOp::kCallFunction;
  node.target = std::move(target);
  node.args = std::move(args);
  node.kwargs = std::move(kwargs);
  fragment_.nodes.push_back(std::move(node));
  return static_cast<int64_t>(fragment_.nodes.size()) - 1;
}

int64_t Recorder::EmitConstant(const Value& tensor) {
  graph::Node node;
  node.op = graph::NodeOp::kGetAttr;
  node.target = "_tensor_constant";
  fragment_.nodes.push_back(std::move(node));
  fragment_.constants.push_back(tensor);
  return static_cast<int64_t>(fragment_.nodes.size()) - 1;
}

void Recorder::Bind(const Value& tensor, int64_t ref) {
  if (const auto* t = runtime::DynCast<runtime::PyTensor>(tensor)) refs_[t] = ref;
}

void Recorder::Unsupported(std::string why) {
  if (fragment_.unsupported.empty()) fragment_.unsupported = std::move(why);
}

void Recorder::Record(const runtime::OpCallSite& site, const CallArgs& as_called,
                      const Value& result) {
  if (!fragment_.unsupported.empty()) return;
  Lower(*this, OpCall{site, as_called, result});
}

dynamo::Fragment Recorder::Finish(const Value& result) {
  std::vector<const runtime::PyTensor*> tensors;
  dynamo::CollectTensors(result, tensors);
  for (const runtime::PyTensor* t : tensors) fragment_.outputs.push_back(RefOf(*t));
  return std::move(fragment_);
}

}  // namespace tdc::aot
