// How the CUDA backend compiles a graph: each node becomes a step (an input, a constant, a
// kernel launch of one of cuda_ops.def's ops, an opaque node the host runs, an item of its
// results, the output), or the graph is refused with the node that is outside the backend.
#ifndef TDCONFORM_GPU_BACKEND_PLAN_H_
#define TDCONFORM_GPU_BACKEND_PLAN_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "gpu/backend/elementwise.h"
#include "gpu/backend/reduction.h"

namespace tdc::gpu {

// One of cuda_ops.def's ops: elementwise or a reduction.
struct CudaOp {
  bool reduction = false;
  ElementOp element = ElementOp::kAdd;
  ReduceOp reduce = ReduceOp::kSum;
};

// Every target of cuda_ops.def: what get_capabilities declares, and which op each reaches.
struct Targets {
  std::vector<std::string> names;
  std::vector<const char*> pointers;  // into names, for tdc_capabilities.ops
  std::map<std::string, CudaOp, std::less<>> functions, methods;
};
const Targets& AllTargets();

struct Operand {
  int node = -1;  // -1: `number`
  float number = 0;
};

enum class StepKind { kInput, kConstant, kOutput, kElement, kReduce, kOpaque, kGetItem };

struct Step {
  StepKind kind = StepKind::kInput;
  ElementOp op = ElementOp::kAdd;  // kElement
  Operand a, b;                    // kElement; kReduce and kGetItem: a
  ReduceOp reduce = ReduceOp::kSum;
  std::optional<std::vector<int64_t>> dims;  // kReduce: none or empty: every dim
  bool keepdim = false;
  int item = 0;           // kGetItem: which of node a's results
  std::vector<int> refs;  // kOpaque: the nodes its tensor arguments name, in order
  // kConstant: the graph's tensor constant, copied (the graph lives only during compile)
  std::vector<int64_t> shape;
  std::vector<float> values;
};

struct Plan {
  std::vector<Step> steps;
  std::vector<int> outputs;
};

// The steps of `g`, or why the backend does not compute it ("node 3: ...").
std::variant<Plan, std::string> PlanGraph(const tdc_graph* g);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_PLAN_H_
