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
#include "gpu/backend/elements.h"
#include "gpu/backend/elementwise.h"
#include "gpu/backend/reduction.h"

namespace tdc::gpu {

enum class ViewOp {
#define TDC_CUDA_VIEW(name, Kind, function, method, overloads) Kind,
#include "gpu/backend/cuda_ops.def"
};

// One of cuda_ops.def's ops.
struct CudaOp {
  enum class Family { kElementwise, kReduction, kView, kMatmul } family = Family::kElementwise;
  ElementOp element = ElementOp::kAdd;
  ReduceOp reduce = ReduceOp::kSum;
  ViewOp view = ViewOp::kView;
};

// Every target of cuda_ops.def: what get_capabilities declares, and which op each reaches.
struct Targets {
  std::vector<std::string> names;
  std::vector<const char*> pointers;  // into names, for tdc_capabilities.ops
  std::map<std::string, CudaOp, std::less<>> functions, methods;
};
const Targets& AllTargets();

struct Operand {
  int node = -1;                       // -1: a Python number
  DType number_dtype = DType::kInt64;  // kBool, kInt64 (an int) or kFloat64 (a float)
  int64_t integer = 0;                 // a bool's or an int's value
  double real = 0;                     // a float's
};

enum class StepKind {
  kInput,
  kConstant,
  kOutput,
  kElement,
  kReduce,
  kView,
  kMatmul,
  kOpaque,
  kGetItem
};

struct Step {
  StepKind kind = StepKind::kInput;
  ElementOp op = ElementOp::kAdd;  // kElement
  Operand a, b, c;  // kElement: Arity(op) of them; kMatmul: a, b; kReduce, kView, kGetItem: a
  ReduceOp reduce = ReduceOp::kSum;
  // kReduce: the dims (none or empty: every dim); kView: permute's order, squeeze's dims
  // (none: every size-1 dim), transpose's two, unsqueeze's one; view, reshape and expand's
  // sizes
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  ViewOp view = ViewOp::kView;
  int item = 0;           // kGetItem: which of node a's results
  std::vector<int> refs;  // kOpaque: the nodes its tensor arguments name, in order
  // kConstant: the graph's tensor constant, copied (the graph lives only during compile)
  std::vector<int64_t> shape;
  DType dtype = DType::kFloat32;
  std::vector<unsigned char> bytes;  // contiguous
};

struct Plan {
  std::vector<Step> steps;
  std::vector<int> outputs;
};

// The steps of `g`, or why the backend does not compute it ("node 3: ...").
std::variant<Plan, std::string> PlanGraph(const tdc_graph* g);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_PLAN_H_
