#include "gpu/backend/plan.h"

#include <string_view>

namespace tdc::gpu {

namespace {

struct OpRow {
  std::string_view name;
  CudaOp op;
  std::string_view function, method, python_operator, aten_overloads;
};
constexpr OpRow kOps[] = {
#define TDC_CUDA_ELEMENTWISE(name, Kind, arity, function, method, python_operator, overloads)    \
  {#name,    {CudaOp::Family::kElementwise, ElementOp::Kind}, function, method, python_operator, \
   overloads},
#define TDC_CUDA_REDUCTION(name, Kind, function, method, overloads) \
  {#name, {CudaOp::Family::kReduction, {}, ReduceOp::Kind}, function, method, "", overloads},
#define TDC_CUDA_VIEW(name, Kind, function, method, overloads) \
  {#name, {CudaOp::Family::kView, {}, {}, ViewOp::Kind}, function, method, "", overloads},
#define TDC_CUDA_MATMUL(name, function, method, python_operator, overloads) \
  {#name, {CudaOp::Family::kMatmul}, function, method, python_operator, overloads},
#include "gpu/backend/cuda_ops.def"
};

// A target that reaches another row's op (TDC_CUDA_ALIAS).
struct AliasRow {
  std::string_view target, name;
};
constexpr AliasRow kAliases[] = {
#define TDC_CUDA_ALIAS(target, name) {target, #name},
#include "gpu/backend/cuda_ops.def"
};

}  // namespace

const Targets& AllTargets() {
  static const Targets targets = [] {
    Targets t;
    for (const OpRow& row : kOps) {
      for (std::string_view target : {row.function, row.python_operator}) {
        if (!target.empty()) t.functions.emplace(target, row.op);
      }
      if (!row.method.empty()) t.methods.emplace(row.method, row.op);
      for (std::string_view rest = row.aten_overloads; !rest.empty();) {
        const size_t space = rest.find(' ');
        const std::string_view overload = rest.substr(0, space);
        t.functions.emplace("aten." + std::string(row.name) + "." + std::string(overload), row.op);
        rest = space == std::string_view::npos ? "" : rest.substr(space + 1);
      }
    }
    for (const AliasRow& alias : kAliases) {
      for (const OpRow& row : kOps) {
        if (row.name == alias.name) t.functions.emplace(alias.target, row.op);
      }
    }
    for (const auto& [name, op] : t.functions) t.names.push_back(name);
    for (const auto& [name, op] : t.methods) t.names.push_back(name);
    for (const std::string& name : t.names) t.pointers.push_back(name.c_str());
    return t;
  }();
  return targets;
}

namespace {

constexpr const char* kDTypes = "float32, float64, int64 or bool";

// A call the host runs: not a torch, ATen or Python operator function.
bool IsOpaque(std::string_view target) {
  for (std::string_view prefix : {"torch.", "aten.", "operator.", "builtins.", "higher_order."}) {
    if (target.starts_with(prefix)) return false;
  }
  return true;
}

bool ReadOperand(const tdc_arg& arg, Operand& out) {
  switch (arg.kind) {
    case TDC_ARG_REF:
      out.node = static_cast<int>(arg.integer);
      return true;
    case TDC_ARG_INT:
    case TDC_ARG_BOOL:
      out.number_dtype = arg.kind == TDC_ARG_BOOL ? DType::kBool : DType::kInt64;
      out.integer = arg.integer;
      return true;
    case TDC_ARG_FLOAT:
      out.number_dtype = DType::kFloat64;
      out.real = arg.number;
      return true;
    default:
      return false;
  }
}

// A REF to an earlier node (one before node `i`).
bool Earlier(const Operand& o, size_t i) { return o.node >= 0 && static_cast<size_t>(o.node) < i; }

std::variant<Step, std::string> PlanElementwise(const tdc_node& n, size_t i, ElementOp op) {
  Step s;
  s.kind = StepKind::kElement;
  s.op = op;
  const auto arity = static_cast<size_t>(Arity(op));
  Operand* operands[] = {&s.a, &s.b, &s.c};
  bool read = n.num_kwargs == 0 && n.num_args == arity;
  bool tensor = false;
  for (size_t k = 0; k < arity && read; ++k) {
    read =
        ReadOperand(n.args[k], *operands[k]) && (operands[k]->node < 0 || Earlier(*operands[k], i));
    tensor = tensor || operands[k]->node >= 0;
  }
  if (!read || !tensor)
    return std::string(
        "(tensors or Python numbers, one tensor at least, no keywords) are "
        "outside this backend");
  return s;
}

// A reduction's `dim` (an int, a list or tuple of ints, None) and `keepdim` (a bool).
bool ReadDims(const tdc_arg& arg, Step& s) {
  if (arg.kind == TDC_ARG_NONE) return true;
  if (arg.kind == TDC_ARG_INT) {
    s.dims = std::vector<int64_t>{arg.integer};
    return true;
  }
  if (arg.kind != TDC_ARG_LIST && arg.kind != TDC_ARG_TUPLE) return false;
  s.dims.emplace();
  for (size_t k = 0; k < arg.num_items; ++k) {
    if (arg.items[k].kind != TDC_ARG_INT) return false;
    s.dims->push_back(arg.items[k].integer);
  }
  return true;
}

std::variant<Step, std::string> PlanReduction(const tdc_node& n, size_t i, ReduceOp op) {
  Step s;
  s.kind = StepKind::kReduce;
  s.reduce = op;
  bool read = n.num_args >= 1 && n.num_args <= 3 && n.args[0].kind == TDC_ARG_REF &&
              ReadOperand(n.args[0], s.a) && Earlier(s.a, i);
  if (read && n.num_args >= 2) read = ReadDims(n.args[1], s);
  if (read && n.num_args == 3) {
    read = n.args[2].kind == TDC_ARG_BOOL;
    s.keepdim = n.args[2].integer != 0;
  }
  for (size_t k = 0; k < n.num_kwargs && read; ++k) {
    const std::string_view name = n.kwargs[k].name != nullptr ? n.kwargs[k].name : "";
    const tdc_arg& value = n.kwargs[k].value;
    if (name == "dim") {
      read = ReadDims(value, s);
    } else if (name == "keepdim") {
      read = value.kind == TDC_ARG_BOOL;
      s.keepdim = value.integer != 0;
    } else {
      read = false;  // dtype=, out=
    }
  }
  if (!read) return std::string("(a tensor, dim, keepdim) are outside this backend");
  if (op == ReduceOp::kMax && (n.num_args != 1 || n.num_kwargs != 0))
    return std::string("(a dim: values and indices) are outside this backend");
  return s;
}

// The ints of `args` from `first` on: one int each, or one list or tuple of them
// (x.view(2, 3), x.view((2, 3)), aten.view.default(x, [2, 3])).
bool ReadInts(const tdc_node& n, size_t first, std::vector<int64_t>& out) {
  if (first + 1 == n.num_args &&
      (n.args[first].kind == TDC_ARG_LIST || n.args[first].kind == TDC_ARG_TUPLE)) {
    for (size_t k = 0; k < n.args[first].num_items; ++k) {
      if (n.args[first].items[k].kind != TDC_ARG_INT) return false;
      out.push_back(n.args[first].items[k].integer);
    }
    return true;
  }
  for (size_t k = first; k < n.num_args; ++k) {
    if (n.args[k].kind != TDC_ARG_INT) return false;
    out.push_back(n.args[k].integer);
  }
  return true;
}

// clone's memory_format: its values are the same whatever the layout.
bool CloneKeywords(const tdc_node& n) {
  for (size_t k = 0; k < n.num_kwargs; ++k) {
    const std::string_view name = n.kwargs[k].name != nullptr ? n.kwargs[k].name : "";
    const tdc_arg& value = n.kwargs[k].value;
    if (name != "memory_format" || value.kind != TDC_ARG_MEMORY_FORMAT ||
        (value.integer != TDC_MEMORY_FORMAT_CONTIGUOUS &&
         value.integer != TDC_MEMORY_FORMAT_PRESERVE))
      return false;
  }
  return true;
}

std::variant<Step, std::string> PlanView(const tdc_node& n, size_t i, ViewOp op) {
  Step s;
  s.kind = StepKind::kView;
  s.view = op;
  bool read = n.num_args >= 1 && n.args[0].kind == TDC_ARG_REF && ReadOperand(n.args[0], s.a) &&
              Earlier(s.a, i) && (n.num_kwargs == 0 || (op == ViewOp::kClone && CloneKeywords(n)));
  std::vector<int64_t> ints;
  if (read) read = ReadInts(n, 1, ints);
  switch (op) {
    case ViewOp::kView:
    case ViewOp::kReshape:
    case ViewOp::kExpand:
    case ViewOp::kPermute:
      read = read && n.num_args >= 2;
      s.dims = ints;
      break;
    case ViewOp::kTranspose:
      read = read && ints.size() == 2 && n.num_args == 3;
      s.dims = ints;
      break;
    case ViewOp::kUnsqueeze:
      read = read && ints.size() == 1 && n.num_args == 2;
      s.dims = ints;
      break;
    case ViewOp::kSqueeze:  // squeeze(x), squeeze(x, d), squeeze(x, [d, ...])
      read = read && n.num_args <= 2;
      if (n.num_args == 2) s.dims = ints;
      break;
    case ViewOp::kContiguous:
    case ViewOp::kClone:
      read = read && n.num_args == 1;
      break;
  }
  if (!read) return std::string("(a tensor and int sizes or dims) are outside this backend");
  return s;
}

std::variant<Step, std::string> PlanMatmul(const tdc_node& n, size_t i) {
  Step s;
  s.kind = StepKind::kMatmul;
  if (n.num_kwargs != 0 || n.num_args != 2 || n.args[0].kind != TDC_ARG_REF ||
      n.args[1].kind != TDC_ARG_REF || !ReadOperand(n.args[0], s.a) ||
      !ReadOperand(n.args[1], s.b) || !Earlier(s.a, i) || !Earlier(s.b, i))
    return std::string("(two tensors, no keywords) are outside this backend");
  return s;
}

std::variant<Step, std::string> PlanCall(const tdc_node& n, size_t i, const CudaOp& op) {
  switch (op.family) {
    case CudaOp::Family::kElementwise:
      return PlanElementwise(n, i, op.element);
    case CudaOp::Family::kReduction:
      return PlanReduction(n, i, op.reduce);
    case CudaOp::Family::kView:
      return PlanView(n, i, op.view);
    case CudaOp::Family::kMatmul:
      return PlanMatmul(n, i);
  }
  return std::string("(an unknown op)");
}

// A get_attr node: the graph's constant it names, copied.
std::variant<Step, std::string> PlanConstant(const tdc_graph& g, const tdc_node& n,
                                             const std::string& node) {
  const std::string_view target = n.target != nullptr ? n.target : "";
  for (size_t k = 0; k < g.num_constants; ++k) {
    if (g.constant_names[k] == nullptr || target != g.constant_names[k]) continue;
    const tdc_tensor& t = g.constants[k];
    if (!IsComputed(t.dtype) || t.ndim < 0 || t.ndim > kMaxRank || t.data == nullptr)
      return node + ": a constant that is not a " + kDTypes + " tensor of rank 8 or less";
    Step s;
    s.kind = StepKind::kConstant;
    s.dtype = static_cast<DType>(t.dtype);
    s.shape.assign(t.shape, t.shape + t.ndim);
    const int64_t size = ElementSize(s.dtype);
    std::vector<int64_t> index(s.shape.size(), 0);
    int64_t numel = 1;
    for (int64_t extent : s.shape) numel *= extent;
    for (int64_t e = 0; e < numel; ++e) {
      int64_t offset = 0;
      for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.strides[d];
      const auto* element = static_cast<const unsigned char*>(t.data) + offset * size;
      s.bytes.insert(s.bytes.end(), element, element + size);
      for (size_t d = index.size(); d-- > 0;) {
        if (++index[d] < s.shape[d]) break;
        index[d] = 0;
      }
    }
    return s;
  }
  return node + ": get_attr " + std::string(target) + " names no constant of the graph";
}

// The node's step, or why the backend does not compute it.
std::variant<Step, std::string> PlanNode(const tdc_graph& g, size_t i,
                                         const std::vector<Step>& earlier) {
  const tdc_node& n = g.nodes[i];
  const std::string node = "node " + std::to_string(i);
  Step s;
  if (n.op == TDC_NODE_PLACEHOLDER) {
    if (n.ndim < 0 || n.ndim > kMaxRank || !IsComputed(n.dtype))
      return node + ": an input that is not a " + kDTypes + " tensor of rank 8 or less";
    return s;
  }
  if (n.op == TDC_NODE_GET_ATTR) return PlanConstant(g, n, node);
  if (n.op != TDC_NODE_CALL_FUNCTION && n.op != TDC_NODE_CALL_METHOD)
    return node + ": a module node";
  const std::string_view target = n.target != nullptr ? n.target : "";
  const auto& ops = n.op == TDC_NODE_CALL_METHOD ? AllTargets().methods : AllTargets().functions;
  if (auto found = ops.find(target); found != ops.end()) {
    const CudaOp& op = found->second;
    auto planned = PlanCall(n, i, op);
    if (auto* why = std::get_if<std::string>(&planned))
      return node + ": " + std::string(target) + " with these arguments " + *why;
    return planned;
  }
  if (n.op == TDC_NODE_CALL_FUNCTION && target == "operator.getitem" && n.num_args == 2 &&
      n.args[0].kind == TDC_ARG_REF && n.args[1].kind == TDC_ARG_INT && n.args[0].integer >= 0 &&
      static_cast<size_t>(n.args[0].integer) < i &&
      earlier[n.args[0].integer].kind == StepKind::kOpaque) {
    s.kind = StepKind::kGetItem;
    s.a.node = static_cast<int>(n.args[0].integer);
    s.item = static_cast<int>(n.args[1].integer);
    return s;
  }
  if (n.op == TDC_NODE_CALL_FUNCTION && IsOpaque(target)) {
    s.kind = StepKind::kOpaque;
    for (size_t j = 0; j < n.num_args; ++j) {
      const tdc_arg& arg = n.args[j];
      if (arg.kind != TDC_ARG_REF) continue;
      if (arg.integer < 0 || static_cast<size_t>(arg.integer) >= i)
        return node + ": a REF to a later node";
      s.refs.push_back(static_cast<int>(arg.integer));
    }
    return s;
  }
  return node + ": " + std::string(target) + " is not one of this backend's ops";
}

}  // namespace

std::variant<Plan, std::string> PlanGraph(const tdc_graph* g) {
  if (g == nullptr || g->num_nodes == 0 || g->nodes[g->num_nodes - 1].op != TDC_NODE_OUTPUT)
    return std::string("a graph without an output node");
  Plan plan;
  for (size_t i = 0; i + 1 < g->num_nodes; ++i) {
    auto step = PlanNode(*g, i, plan.steps);
    if (auto* why = std::get_if<std::string>(&step)) return *why;
    plan.steps.push_back(std::get<Step>(std::move(step)));
  }
  const tdc_node& output = g->nodes[g->num_nodes - 1];
  plan.steps.emplace_back().kind = StepKind::kOutput;
  if (output.num_args > 0) {
    const tdc_arg& list = output.args[0];
    for (size_t j = 0; j < list.num_items; ++j) {
      const tdc_arg& item = list.items[j];
      if (item.kind != TDC_ARG_REF || item.integer < 0 ||
          static_cast<size_t>(item.integer) + 1 >= g->num_nodes)
        return std::string("an output that is no earlier node");
      plan.outputs.push_back(static_cast<int>(item.integer));
    }
  }
  return plan;
}

}  // namespace tdc::gpu
