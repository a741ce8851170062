// Node by node: placeholders take the inputs, call nodes their op's kernel (ops.def through
// op_table.h), accessors pick a tuple's item, and whatever has no row goes to the host.
#include "reference/backends/graph_interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "reference/backends/special_nodes.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/op_value.h"

namespace tdc::backends {

using runtime::OpValue;

namespace {

constexpr std::pair<std::string_view, std::string_view> kFunctionAliases[] = {
#define TDC_FUNCTION_ALIAS(target, row) {target, row},
#include "reference/backends/target_aliases.def"
};

constexpr std::pair<std::string_view, std::string_view> kAtenAliases[] = {
#define TDC_ATEN_ALIAS(aten_op, row) {aten_op, row},
#include "reference/backends/target_aliases.def"
};

struct Resolved {
  const runtime::OpInfo* op = nullptr;
  runtime::Surface surface = runtime::Surface::kFunction;
};

Resolved ResolveAten(const graph::Node& n);

Resolved ResolveDynamo(const graph::Node& n) {
  // A direct call of torch.ops.aten.<op>.<overload> is a node of that name (SEMANTICS §8.6).
  if (n.target.starts_with("aten.")) return ResolveAten(n);
  if (n.op == graph::NodeOp::kCallMethod)
    return {runtime::FindMethod(n.target), runtime::Surface::kMethod};
  if (const runtime::OpInfo* op = runtime::FindFunction(n.target))
    return {op, runtime::Surface::kFunction};
  if (const runtime::OpInfo* op = runtime::FindPythonOperator(n.target))
    return {op, runtime::Surface::kFunction};
  for (const auto& [target, name] : kFunctionAliases) {
    if (n.target == target) return {runtime::FindOp(name), runtime::Surface::kFunction};
  }
  return {};
}

// `aten.<op>.<overload>` (or a packet, `aten.<op>`): its row, called on the surface the
// row has (the overloads take their arguments as the torch function or method does).
Resolved ResolveAten(const graph::Node& n) {
  std::string_view target = n.target;
  if (n.op != graph::NodeOp::kCallFunction || !target.starts_with("aten.")) return {};
  target.remove_prefix(5);
  std::string_view name = target.substr(0, target.find('.'));
  for (const auto& [aten, row] : kAtenAliases) {
    if (name == aten) name = row;
  }
  const runtime::OpInfo* op = runtime::FindOp(name);
  if (op == nullptr) return {};
  return {op, op->function.empty() ? runtime::Surface::kMethod : runtime::Surface::kFunction};
}

class Run {
 public:
  Run(const graph::Graph& g, GraphLevel level, const Constants& constants, const HostNode& host)
      : g_(g), level_(level), constants_(constants), host_(host) {}

  std::variant<std::vector<runtime::Tensor>, std::string> Go(
      const std::vector<runtime::Tensor>& inputs) {
    size_t next_input = 0;
    for (index_ = 0; index_ < g_.nodes.size(); ++index_) {
      const graph::Node& n = g_.nodes[index_];
      switch (n.op) {
        case graph::NodeOp::kPlaceholder:
          if (next_input == inputs.size()) return Error("more placeholders than inputs");
          values_.push_back(OpValue::Of(inputs[next_input++]));
          break;
        case graph::NodeOp::kOutput:
          return Outputs(n);
        case graph::NodeOp::kGetAttr: {
          // A tensor constant, or what only the node using it needs (a nonstrict_trace
          // call's function and input spec: that call goes to the host).
          auto constant = std::find_if(constants_.begin(), constants_.end(),
                                       [&](const auto& c) { return c.first == n.target; });
          values_.push_back(constant != constants_.end() ? OpValue::Of(constant->second)
                                                         : OpValue::None());
          break;
        }
        case graph::NodeOp::kCallFunction:
        case graph::NodeOp::kCallMethod:
        case graph::NodeOp::kCallModule: {
          std::optional<OpValue> v = Call(n);
          if (!v) return error_;
          values_.push_back(std::move(*v));
          break;
        }
      }
    }
    return Error("no output node");
  }

 private:
  std::optional<OpValue> Call(const graph::Node& n) {
    if (n.target == "operator.getitem" && n.args.size() == 2 &&
        n.args[0].kind == graph::ValueKind::kRef) {
      const OpValue& of = values_[static_cast<size_t>(n.args[0].integer)];
      if (of.kind == OpValue::Kind::kTuple) {
        const int64_t i = n.args[1].integer;
        if (i < 0 || static_cast<size_t>(i) >= of.items.size())
          return Fail(fmt::format("item {} of a tuple of {}", i, of.items.size()));
        return of.items[static_cast<size_t>(i)];
      }
      if (of.kind == OpValue::Kind::kTensor) {  // tensor indexing (a Dynamo graph's)
        auto item = TensorGetItem(of.tensor, n.args[1], [this](int64_t ref) -> const OpValue& {
          return values_[static_cast<size_t>(ref)];
        });
        if (auto* error = std::get_if<std::string>(&item))
          return Fail(fmt::format("{}: {}", n.target, *error));
        return std::get<OpValue>(std::move(item));
      }
    }
    if (n.target == "torch._C._set_grad_enabled")
      return OpValue::None();  // no training graphs here
    // torch._assert_async(cond, message): nothing, or the RuntimeError it raises.
    if ((n.target == "torch._VariableFunctionsClass._assert_async" ||
         n.target == "aten._assert_async.msg") &&
        n.args.size() == 2 && n.args[0].kind == graph::ValueKind::kRef &&
        n.args[1].kind == graph::ValueKind::kStr) {
      const OpValue& cond = values_[static_cast<size_t>(n.args[0].integer)];
      if (cond.kind != OpValue::Kind::kTensor)
        return Fail("an assert on a value that is no tensor");
      if (cond.tensor.numel() != 1)
        return Fail("Boolean value of Tensor with more than one value is ambiguous");
      if (!runtime::Item(cond.tensor).AsBool()) return Fail(n.args[1].text);
      return OpValue::None();
    }
    // `.real` / `.imag` of torch.fft.fft's result, which the runtime holds as a real
    // tensor with a trailing (real, imag) dim.
    if (n.target == "builtins.getattr" && n.args.size() == 2 &&
        n.args[0].kind == graph::ValueKind::kRef &&
        g_.nodes[static_cast<size_t>(n.args[0].integer)].target == "torch.fft.fft") {
      const bool imag = n.args[1].text == "imag";
      if (!imag && n.args[1].text != "real")
        return Fail("an attribute of a complex tensor other than real and imag");
      auto part = backends::Select(values_[static_cast<size_t>(n.args[0].integer)].tensor, -1,
                                   imag ? 1 : 0);
      if (auto* error = std::get_if<std::string>(&part)) return Fail(*error);
      return std::get<OpValue>(std::move(part));
    }
    Resolved r = level_ == GraphLevel::kAten ? ResolveAten(n) : ResolveDynamo(n);
    std::optional<Arguments> args = Convert(n);
    if (args) {
      if (auto special = RunSpecialNode(n.target, args->positional, args->keywords)) {
        if (auto* error = std::get_if<std::string>(&*special))
          return Fail(fmt::format("{}: {}", n.target, *error));
        return std::get<OpValue>(std::move(*special));
      }
    }
    if (r.op == nullptr) return Host(n);
    if (!args) return std::nullopt;
    try {
      return runtime::CallOp(*r.op, r.surface, std::move(args->positional),
                             std::move(args->keywords));
    } catch (const runtime::TorchError& e) {
      return Fail(fmt::format("{} raised {}: {}", n.target, e.type(), e.what()));
    } catch (const runtime::NotModeled& refusal) {
      return Fail(fmt::format("{}: {}", n.target, refusal.what()));
    }
  }

  struct Arguments {
    std::vector<OpValue> positional;
    Keywords keywords;
  };

  std::optional<Arguments> Convert(const graph::Node& n) {
    Arguments out;
    for (const graph::Arg& a : n.args) {
      std::optional<OpValue> v = Convert(a);
      if (!v) return std::nullopt;
      out.positional.push_back(std::move(*v));
    }
    for (const auto& [name, a] : n.kwargs) {
      if (IsDefaultPlacement(name, a)) continue;
      std::optional<OpValue> v = Convert(a);
      if (!v) return std::nullopt;
      out.keywords.emplace_back(name, std::move(*v));
    }
    return out;
  }

  // Keywords naming what the subset's tensors always are (cpu, strided, contiguous, not
  // pinned; gelu's approximate='none'): the kernels compute the same without them.
  static bool IsDefaultPlacement(const std::string& name, const graph::Arg& a) {
    switch (a.kind) {
      case graph::ValueKind::kDevice:
        return name == "device" && a.text == "cpu";
      case graph::ValueKind::kLayout:
        return name == "layout" && a.layout == graph::Layout::kStrided;
      case graph::ValueKind::kMemoryFormat:
        return name == "memory_format" &&
               (a.memory_format == graph::MemoryFormat::kContiguousFormat ||
                a.memory_format == graph::MemoryFormat::kPreserveFormat);
      case graph::ValueKind::kBool:
        return name == "pin_memory" && !a.boolean;
      case graph::ValueKind::kNone:
        return name == "pin_memory" || name == "layout" || name == "device";
      case graph::ValueKind::kStr:
        return name == "approximate" && a.text == "none";
      case graph::ValueKind::kTensor:
      case graph::ValueKind::kInt:
      case graph::ValueKind::kFloat:
      case graph::ValueKind::kEllipsis:
      case graph::ValueKind::kTuple:
      case graph::ValueKind::kList:
      case graph::ValueKind::kDict:
      case graph::ValueKind::kDtype:
      case graph::ValueKind::kCallable:
      case graph::ValueKind::kRepr:
      case graph::ValueKind::kRef:
      case graph::ValueKind::kSlice:
        break;
    }
    return false;
  }

  std::optional<OpValue> Host(const graph::Node& n) {
    std::vector<runtime::Tensor> inputs;
    for (const graph::Arg& a : n.args) CollectTensors(a, inputs);
    for (const auto& [name, a] : n.kwargs) CollectTensors(a, inputs);
    std::variant<std::vector<runtime::Tensor>, std::string> result = host_(index_, inputs);
    if (auto* error = std::get_if<std::string>(&result))
      return Fail(fmt::format("{} on the host: {}", n.target, *error));
    std::vector<OpValue> items;
    for (runtime::Tensor& t : std::get<std::vector<runtime::Tensor>>(result))
      items.push_back(OpValue::Of(std::move(t)));
    // A host node's result is a tuple when accessors read it (operator.getitem), else its tensor.
    if (!ReadByAccessors(index_) && items.size() == 1) return std::move(items.front());
    return OpValue::Tuple(std::move(items));
  }

  bool ReadByAccessors(size_t node) const {
    for (size_t i = node + 1; i < g_.nodes.size(); ++i) {
      const graph::Node& user = g_.nodes[i];
      if (user.target == "operator.getitem" && !user.args.empty() &&
          user.args[0].kind == graph::ValueKind::kRef &&
          static_cast<size_t>(user.args[0].integer) == node) {
        return true;
      }
    }
    return false;
  }

  void CollectTensors(const graph::Arg& a, std::vector<runtime::Tensor>& out) const {
    if (a.kind == graph::ValueKind::kRef) {
      const OpValue& v = values_[static_cast<size_t>(a.integer)];
      if (v.kind == OpValue::Kind::kTensor) out.push_back(v.tensor);
    }
    for (const graph::Arg& item : a.items) CollectTensors(item, out);
  }

  std::optional<OpValue> Convert(const graph::Arg& a) {
    switch (a.kind) {
      case graph::ValueKind::kNone:
        return OpValue::None();
      case graph::ValueKind::kInt:
        return OpValue::Of(runtime::Scalar::Int(a.integer));
      case graph::ValueKind::kFloat:
        return OpValue::Of(runtime::Scalar::Float(a.number));
      case graph::ValueKind::kBool:
        return OpValue::Of(runtime::Scalar::Bool(a.boolean));
      case graph::ValueKind::kDtype:
        return OpValue::OfDType(a.dtype);
      case graph::ValueKind::kRef:
        return values_[static_cast<size_t>(a.integer)];
      case graph::ValueKind::kTuple:
      case graph::ValueKind::kList: {
        std::vector<OpValue> items;
        for (const graph::Arg& item : a.items) {
          std::optional<OpValue> v = Convert(item);
          if (!v) return std::nullopt;
          items.push_back(std::move(*v));
        }
        return a.kind == graph::ValueKind::kTuple ? OpValue::Tuple(std::move(items))
                                                  : OpValue::List(std::move(items));
      }
      case graph::ValueKind::kStr:  // a factory's device="cpu", as the Dynamo graph keeps it
        if (a.text == "cpu") return OpValue::CpuDevice();
        break;
      case graph::ValueKind::kLayout:
      case graph::ValueKind::kDevice:
      case graph::ValueKind::kMemoryFormat:
      case graph::ValueKind::kEllipsis:
      case graph::ValueKind::kDict:
      case graph::ValueKind::kCallable:
      case graph::ValueKind::kRepr:
      case graph::ValueKind::kSlice:
      case graph::ValueKind::kTensor:
        break;
    }
    return Fail(fmt::format("an argument of kind {} is outside the interpreter",
                            graph::ValueKindName(a.kind)));
  }

  std::variant<std::vector<runtime::Tensor>, std::string> Outputs(const graph::Node& n) {
    std::vector<runtime::Tensor> out;
    if (n.args.empty()) return out;
    for (const graph::Arg& a : n.args[0].items) {
      if (a.kind != graph::ValueKind::kRef) return Error("an output is not a node");
      const OpValue& v = values_[static_cast<size_t>(a.integer)];
      if (v.kind != OpValue::Kind::kTensor)
        return Error(fmt::format("output node {} is not a tensor", a.integer));
      out.push_back(v.tensor);
    }
    return out;
  }

  std::nullopt_t Fail(std::string error) {
    error_ = Error(std::move(error));
    return std::nullopt;
  }
  std::string Error(std::string what) const { return fmt::format("node {}: {}", index_, what); }

  const graph::Graph& g_;
  GraphLevel level_;
  const Constants& constants_;
  const HostNode& host_;
  size_t index_ = 0;
  std::vector<OpValue> values_;
  std::string error_;
};

}  // namespace

std::variant<std::vector<runtime::Tensor>, std::string> RunGraph(
    const graph::Graph& g, GraphLevel level, const std::vector<runtime::Tensor>& inputs,
    const Constants& constants, const HostNode& host) {
  return Run(g, level, constants, host).Go(inputs);
}

}  // namespace tdc::backends
