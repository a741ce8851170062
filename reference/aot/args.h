// Node arguments the lowerings write that no traced value supplies: int lists, the
// device and memory-format keywords AOT autograd's factory and copy ops carry.
#ifndef TDCONFORM_REFERENCE_AOT_ARGS_H_
#define TDCONFORM_REFERENCE_AOT_ARGS_H_

#include <cstdint>
#include <vector>

#include "reference/graph/value.h"

namespace tdc::aot {

graph::Arg IntList(const std::vector<int64_t>& ints);
graph::Arg CpuDevice();
graph::Arg ContiguousFormat();
graph::Arg StridedLayout();
graph::Arg DTypeArg(graph::DType dtype);

}  // namespace tdc::aot

#endif  // TDCONFORM_REFERENCE_AOT_ARGS_H_
