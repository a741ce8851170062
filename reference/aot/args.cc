#include "reference/aot/args.h"

namespace tdc::aot {

graph::Arg IntList(const std::vector<int64_t>& ints) {
  std::vector<graph::Arg> items;
  for (int64_t i : ints) items.push_back(graph::Arg::Int(i));
  return graph::Arg::Sequence(graph::ValueKind::kList, std::move(items));
}

graph::Arg CpuDevice() {
  graph::Arg arg;
  arg.kind = graph::ValueKind::kDevice;
  arg.text = "cpu";
  return arg;
}

graph::Arg ContiguousFormat() {
  graph::Arg arg;
  arg.kind = graph::ValueKind::kMemoryFormat;
  arg.memory_format = graph::MemoryFormat::kContiguousFormat;
  return arg;
}

graph::Arg StridedLayout() {
  graph::Arg arg;
  arg.kind = graph::ValueKind::kLayout;
  arg.layout = graph::Layout::kStrided;
  return arg;
}

graph::Arg DTypeArg(graph::DType dtype) {
  graph::Arg arg;
  arg.kind = graph::ValueKind::kDtype;
  arg.dtype = dtype;
  return arg;
}

}  // namespace tdc::aot
