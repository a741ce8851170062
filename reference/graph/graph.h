// Canonical graph form v1 (DESIGN.md D2, fixtures/SCHEMA.md §7): the FX graph a backend
// receives, with FX node names dropped and nodes referred to by index.
#ifndef TDCONFORM_REFERENCE_GRAPH_GRAPH_H_
#define TDCONFORM_REFERENCE_GRAPH_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/graph/value.h"
#include "reference/graph/vocabulary.h"

namespace tdc::graph {

// One FX node. Which members are meaningful depends on `op`:
//   placeholder: type, shape, dtype, requires_grad, source
//   call_function, call_method, call_module, get_attr: target, args, kwargs
//   output: args (FX's output args)
struct Node {
  NodeOp op = NodeOp::kCallFunction;

  std::string type;                           // "tensor" or the example value's type name
  std::optional<std::vector<int64_t>> shape;  // null unless a tensor
  std::optional<DType> dtype;                 // null unless a tensor
  std::optional<bool> requires_grad;          // null unless a tensor
  std::optional<std::string> source;          // Dynamo's source (L['x']); null in ATen graphs

  std::string target;  // normalized by SCHEMA.md §7.1 (torch.relu, aten.add.Tensor, add)
  std::vector<Arg> args;
  OrderedMap<Arg> kwargs;
};

struct Graph {
  std::vector<Node> nodes;  // FX order; an Arg {"ref": i} names nodes[i], i < its user
};

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_GRAPH_H_
