#include "reference/backends/interpreting_backend.h"

#include <fmt/format.h>

namespace tdc::backends {

namespace {

// `t` over a storage of its own (the same view of a copy of its bytes).
runtime::Tensor Copy(const runtime::Tensor& t) {
  runtime::Tensor copy = t;
  if (t.storage) copy.storage = std::make_shared<runtime::Storage>(*t.storage);
  return copy;
}

std::vector<runtime::Tensor> Copies(const std::vector<runtime::Tensor>& tensors) {
  std::vector<runtime::Tensor> copies;
  for (const runtime::Tensor& t : tensors) copies.push_back(Copy(t));
  return copies;
}

}  // namespace

std::variant<std::vector<runtime::Tensor>, std::string> InterpretGraph(
    const runtime::GraphBackend::Graphs& graphs, GraphLevel level) {
  if (level == GraphLevel::kDynamo)
    return RunGraph(*graphs.dynamo, level, graphs.inputs, {}, graphs.dynamo_host);
  if (graphs.aten == nullptr) return fmt::format("graph {} has no ATen form", graphs.compile_id);
  return RunGraph(*graphs.aten, level, graphs.inputs, graphs.aten_constants, graphs.aten_host);
}

std::optional<std::vector<runtime::Tensor>> InterpretingBackend::Run(const Graphs& graphs) {
  // By index: a host node the interpreter runs could, in principle, send a graph of its own.
  const size_t at = computed_.size();
  if (keep_runs_) computed_.push_back(Computed{graphs.compile, Copies(graphs.inputs), {}});
  auto outputs = InterpretGraph(graphs, level_);
  if (auto* error = std::get_if<std::string>(&outputs)) {
    if (error_.empty()) error_ = fmt::format("graph {}: {}", graphs.compile_id, *error);
    return std::nullopt;
  }
  if (keep_runs_) computed_[at].outputs = Copies(std::get<std::vector<runtime::Tensor>>(outputs));
  return std::get<std::vector<runtime::Tensor>>(std::move(outputs));
}

}  // namespace tdc::backends
