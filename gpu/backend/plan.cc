#include "gpu/backend/plan.h"

#include <string_view>

namespace tdc::gpu {

namespace {

struct OpRow {
  std::string_view name;
  ElementOp op;
  std::string_view function, method, python_operator, aten_overloads;
};
constexpr OpRow kOps[] = {
#define TDC_CUDA_OP(name, Kind, function, method, python_operator, overloads) \
  {#name, ElementOp::Kind, function, method, python_operator, overloads},
#include "gpu/backend/cuda_ops.def"
#undef TDC_CUDA_OP
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
    for (const auto& [name, op] : t.functions) t.names.push_back(name);
    for (const auto& [name, op] : t.methods) t.names.push_back(name);
    for (const std::string& name : t.names) t.pointers.push_back(name.c_str());
    return t;
  }();
  return targets;
}

namespace {

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
      out.number = static_cast<float>(arg.integer);
      return true;
    case TDC_ARG_FLOAT:
      out.number = static_cast<float>(arg.number);
      return true;
    default:
      return false;
  }
}

// The node's step, or why the backend does not compute it.
std::variant<Step, std::string> PlanNode(const tdc_graph& g, size_t i,
                                         const std::vector<Step>& earlier) {
  const tdc_node& n = g.nodes[i];
  const std::string node = "node " + std::to_string(i);
  Step s;
  if (n.op == TDC_NODE_PLACEHOLDER) {
    if (n.ndim < 0 || n.ndim > kMaxRank || n.dtype != TDC_DTYPE_FLOAT32)
      return node + ": an input that is not a float32 tensor of rank 8 or less";
    return s;
  }
  if (n.op != TDC_NODE_CALL_FUNCTION && n.op != TDC_NODE_CALL_METHOD)
    return node + (n.op == TDC_NODE_GET_ATTR ? ": a get_attr node" : ": a module node");
  const std::string_view target = n.target != nullptr ? n.target : "";
  const auto& ops = n.op == TDC_NODE_CALL_METHOD ? AllTargets().methods : AllTargets().functions;
  if (auto found = ops.find(target); found != ops.end()) {
    s.kind = StepKind::kElement;
    s.op = found->second;
    const size_t arity = IsBinary(s.op) ? 2 : 1;
    const bool read = n.num_kwargs == 0 && n.num_args == arity && ReadOperand(n.args[0], s.a) &&
                      (arity == 1 || ReadOperand(n.args[1], s.b));
    // A REF must name an earlier tensor: a node before this one that is not the output.
    auto tensor = [&](const Operand& o) { return o.node >= 0 && static_cast<size_t>(o.node) < i; };
    const bool refs_ok = (s.a.node < 0 || tensor(s.a)) && (s.b.node < 0 || tensor(s.b));
    if (!read || !refs_ok || (s.a.node < 0 && (arity == 1 || s.b.node < 0))) {
      return node + ": " + std::string(target) +
             " with these arguments (float32 tensors or "
             "Python numbers, no keywords) is outside this backend";
    }
    return s;
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
