#include "reference/backends/interpreting_backend.h"

#include <fmt/format.h>

namespace tdc::backends {

std::variant<std::vector<runtime::Tensor>, std::string> InterpretGraph(
    const runtime::GraphBackend::Graphs& graphs, GraphLevel level) {
  if (level == GraphLevel::kDynamo)
    return RunGraph(*graphs.dynamo, level, graphs.inputs, {}, graphs.dynamo_host);
  if (graphs.aten == nullptr) return fmt::format("graph {} has no ATen form", graphs.compile_id);
  return RunGraph(*graphs.aten, level, graphs.inputs, graphs.aten_constants, graphs.aten_host);
}

std::optional<std::vector<runtime::Tensor>> InterpretingBackend::Run(const Graphs& graphs) {
  auto outputs = InterpretGraph(graphs, level_);
  if (auto* error = std::get_if<std::string>(&outputs)) {
    if (error_.empty()) error_ = fmt::format("graph {}: {}", graphs.compile_id, *error);
    return std::nullopt;
  }
  return std::get<std::vector<runtime::Tensor>>(std::move(outputs));
}

}  // namespace tdc::backends
