// Canonical graph v1 <-> tdc_graph. The vocabularies' enum values cross as they are: the
// header numbers tdc_dtype, tdc_node_op, tdc_arg_kind, tdc_layout and tdc_memory_format in
// the order of reference/graph/*.def.
#include "conformance/abi/wire.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <utility>

namespace tdc::conformance {

namespace {

// The number of values of each vocabulary: a wire value at or past it is malformed.
constexpr int kDTypes = 0
#define TDC_DTYPE(Enum, Name, Kind) +1
#include "reference/graph/dtypes.def"
#undef TDC_DTYPE
    ;
constexpr int kValueKinds = 0
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) +1
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
    ;
constexpr int kNodeOps = 0
#define TDC_NODE_OP(Enum, Name) +1
#include "reference/graph/node_ops.def"
#undef TDC_NODE_OP
    ;
constexpr int kLayouts = 0
#define TDC_LAYOUT(Enum, Name) +1
#include "reference/graph/layouts.def"
#undef TDC_LAYOUT
    ;
constexpr int kMemoryFormats = 0
#define TDC_MEMORY_FORMAT(Enum, Name) +1
#include "reference/graph/memory_formats.def"
#undef TDC_MEMORY_FORMAT
    ;
static_assert(kDTypes == TDC_DTYPE_BOOL + 1 && kValueKinds == TDC_ARG_MEMORY_FORMAT + 1 &&
              kNodeOps == TDC_NODE_OUTPUT + 1 && kLayouts == TDC_LAYOUT_JAGGED + 1 &&
              kMemoryFormats == TDC_MEMORY_FORMAT_PRESERVE + 1);

}  // namespace

WireGraph::WireGraph(const graph::Graph& g, tdc_graph_level level, std::string name,
                     const NamedTensors& constants,
                     const std::vector<runtime::Tensor>& example_inputs) {
  example_copies_.reserve(example_inputs.size());
  for (const runtime::Tensor& t : example_inputs) {
    runtime::Tensor& copy = example_copies_.emplace_back(t);
    if (t.storage) copy.storage = std::make_shared<runtime::Storage>(*t.storage);
    example_views_.push_back(examples_.Add(copy));
  }
  for (const auto& [target, tensor] : constants) {
    constant_names_.push_back(Keep(target));
    constant_views_.push_back(constants_.Add(tensor));
  }
  nodes_.reserve(g.nodes.size());
  for (const graph::Node& n : g.nodes) {
    tdc_node node{};
    node.op = static_cast<int32_t>(n.op);
    node.target = Keep(n.target);
    std::vector<tdc_arg>& args = args_.emplace_back();
    for (const graph::Arg& a : n.args) args.push_back(Encode(a));
    node.num_args = args.size();
    node.args = args.data();
    std::vector<tdc_kwarg>& kwargs = kwargs_.emplace_back();
    for (const auto& [key, value] : n.kwargs) kwargs.push_back({Keep(key), Encode(value)});
    node.num_kwargs = kwargs.size();
    node.kwargs = kwargs.data();
    node.ndim = -1;
    if (n.op == graph::NodeOp::kPlaceholder) {
      node.type = Keep(n.type);
      if (n.shape) {
        node.ndim = static_cast<int32_t>(n.shape->size());
        node.shape = shapes_.emplace_back(*n.shape).data();
      }
      node.dtype = n.dtype ? static_cast<int32_t>(*n.dtype) : 0;
      node.requires_grad = n.requires_grad.value_or(false) ? 1 : 0;
      node.source = n.source ? Keep(*n.source) : nullptr;
    }
    nodes_.push_back(node);
  }
  graph_.struct_size = sizeof(tdc_graph);
  graph_.level = level;
  graph_.num_nodes = nodes_.size();
  graph_.nodes = nodes_.data();
  graph_.name = Keep(std::move(name));
  graph_.num_constants = constant_views_.size();
  graph_.constant_names = constant_names_.data();
  graph_.constants = constant_views_.data();
  graph_.num_example_inputs = example_views_.size();
  graph_.example_inputs = example_views_.empty() ? nullptr : example_views_.data();
}

const char* WireGraph::Keep(std::string text) {
  return strings_.emplace_back(std::move(text)).c_str();
}

tdc_arg WireGraph::Encode(const graph::Arg& a) {
  tdc_arg out{};
  out.kind = static_cast<int32_t>(a.kind);
  switch (a.kind) {
    case graph::ValueKind::kInt:
    case graph::ValueKind::kRef:
      out.integer = a.integer;
      break;
    case graph::ValueKind::kBool:
      out.integer = a.boolean ? 1 : 0;
      break;
    case graph::ValueKind::kFloat:
      out.number = a.number;
      break;
    case graph::ValueKind::kStr:
    case graph::ValueKind::kDevice:
    case graph::ValueKind::kCallable:
    case graph::ValueKind::kRepr:
      out.text = Keep(a.text);
      break;
    case graph::ValueKind::kDtype:
      out.integer = static_cast<int64_t>(a.dtype);
      break;
    case graph::ValueKind::kLayout:
      out.integer = static_cast<int64_t>(a.layout);
      break;
    case graph::ValueKind::kMemoryFormat:
      out.integer = static_cast<int64_t>(a.memory_format);
      break;
    case graph::ValueKind::kTuple:
    case graph::ValueKind::kList:
    case graph::ValueKind::kSlice:
    case graph::ValueKind::kDict: {
      // Encoded first, then kept: Encode adds lists of its own to args_.
      std::vector<tdc_arg> items;
      for (const graph::Value& item : a.items) items.push_back(Encode(item));
      for (const graph::DictEntry& e : a.entries) {
        items.push_back(Encode(e.key));
        items.push_back(Encode(e.value));
      }
      std::vector<tdc_arg>& kept = args_.emplace_back(std::move(items));
      out.num_items = kept.size();
      out.items = kept.data();
      break;
    }
    case graph::ValueKind::kTensor:  // not an Arg in schema v1
    case graph::ValueKind::kNone:
    case graph::ValueKind::kEllipsis:
      break;
  }
  return out;
}

namespace {

class Decoder {
 public:
  explicit Decoder(const tdc_graph& g) : g_(g) {}

  std::variant<graph::Graph, std::string> Run() {
    if (g_.num_nodes > 0 && g_.nodes == nullptr) return std::string("nodes is NULL");
    graph::Graph out;
    for (node_ = 0; node_ < g_.num_nodes; ++node_) {
      std::optional<graph::Node> n = Node(g_.nodes[node_]);
      if (!n) return fmt::format("node {}: {}", node_, error_);
      out.nodes.push_back(std::move(*n));
    }
    return out;
  }

 private:
  std::optional<graph::Node> Node(const tdc_node& w) {
    graph::Node n;
    if (w.op < 0 || w.op >= kNodeOps) return Fail(fmt::format("op {} is not a tdc_node_op", w.op));
    n.op = static_cast<graph::NodeOp>(w.op);
    if (!Text(w.target, "target", n.target)) return std::nullopt;
    if (w.num_args > 0 && w.args == nullptr) return Fail("args is NULL");
    for (size_t i = 0; i < w.num_args; ++i) {
      std::optional<graph::Arg> a = Arg(w.args[i]);
      if (!a) return std::nullopt;
      n.args.push_back(std::move(*a));
    }
    if (w.num_kwargs > 0 && w.kwargs == nullptr) return Fail("kwargs is NULL");
    for (size_t i = 0; i < w.num_kwargs; ++i) {
      std::string key;
      if (!Text(w.kwargs[i].name, "a kwarg name", key)) return std::nullopt;
      std::optional<graph::Arg> a = Arg(w.kwargs[i].value);
      if (!a) return std::nullopt;
      n.kwargs.emplace_back(std::move(key), std::move(*a));
    }
    if (n.op != graph::NodeOp::kPlaceholder) return n;
    if (!Text(w.type, "type", n.type)) return std::nullopt;
    if (w.ndim >= 0) {
      if (w.ndim > 0 && w.shape == nullptr) return Fail("shape is NULL");
      if (w.dtype < 0 || w.dtype >= kDTypes)
        return Fail(fmt::format("dtype {} is not a tdc_dtype", w.dtype));
      n.shape = std::vector<int64_t>(w.shape, w.shape + w.ndim);
      n.dtype = static_cast<graph::DType>(w.dtype);
      n.requires_grad = w.requires_grad != 0;
    }
    if (w.source != nullptr) n.source = w.source;
    return n;
  }

  std::optional<graph::Arg> Arg(const tdc_arg& w) {
    if (w.kind < 0 || w.kind >= kValueKinds)
      return Fail(fmt::format("argument kind {} is not a tdc_arg_kind", w.kind));
    graph::Arg a;
    a.kind = static_cast<graph::ValueKind>(w.kind);
    switch (a.kind) {
      case graph::ValueKind::kInt:
        a.integer = w.integer;
        break;
      case graph::ValueKind::kRef:
        if (w.integer < 0 || static_cast<size_t>(w.integer) >= node_) {
          return Fail(fmt::format("REF {} does not name an earlier node", w.integer));
        }
        a.integer = w.integer;
        break;
      case graph::ValueKind::kBool:
        a.boolean = w.integer != 0;
        break;
      case graph::ValueKind::kFloat:
        a.number = w.number;
        break;
      case graph::ValueKind::kStr:
      case graph::ValueKind::kDevice:
      case graph::ValueKind::kCallable:
      case graph::ValueKind::kRepr:
        if (!Text(w.text, "an argument's text", a.text)) return std::nullopt;
        break;
      case graph::ValueKind::kDtype:
        if (w.integer < 0 || w.integer >= kDTypes)
          return Fail(fmt::format("dtype {} is not a tdc_dtype", w.integer));
        a.dtype = static_cast<graph::DType>(w.integer);
        break;
      case graph::ValueKind::kLayout:
        if (w.integer < 0 || w.integer >= kLayouts)
          return Fail(fmt::format("layout {} is not a tdc_layout", w.integer));
        a.layout = static_cast<graph::Layout>(w.integer);
        break;
      case graph::ValueKind::kMemoryFormat:
        if (w.integer < 0 || w.integer >= kMemoryFormats) {
          return Fail(fmt::format("memory format {} is not a tdc_memory_format", w.integer));
        }
        a.memory_format = static_cast<graph::MemoryFormat>(w.integer);
        break;
      case graph::ValueKind::kTuple:
      case graph::ValueKind::kList:
      case graph::ValueKind::kSlice:
      case graph::ValueKind::kDict:
        if (!Items(w, a)) return std::nullopt;
        break;
      case graph::ValueKind::kTensor:
        return Fail("a TENSOR argument (not in graph form v1)");
      case graph::ValueKind::kNone:
      case graph::ValueKind::kEllipsis:
        break;
    }
    return a;
  }

  bool Items(const tdc_arg& w, graph::Arg& a) {
    // Deeper than any graph nests (or items that hold themselves): an error, not a stack
    // overflow.
    if (depth_ >= kMaxArgDepth)
      return Reject(fmt::format("arguments nested more than {} levels deep", kMaxArgDepth));
    ++depth_;
    const bool decoded = ItemsOf(w, a);
    --depth_;
    return decoded;
  }

  bool ItemsOf(const tdc_arg& w, graph::Arg& a) {
    if (w.num_items > 0 && w.items == nullptr) return Reject("items is NULL");
    const bool dict = a.kind == graph::ValueKind::kDict;
    if (dict && w.num_items % 2 != 0) return Reject("a DICT with an odd number of items");
    if (a.kind == graph::ValueKind::kSlice && w.num_items != 3)
      return Reject("a SLICE without 3 items");
    for (size_t i = 0; i < w.num_items; ++i) {
      std::optional<graph::Arg> item = Arg(w.items[i]);
      if (!item) return false;
      if (!dict) {
        a.items.push_back(std::move(*item));
      } else if (i % 2 == 0) {
        a.entries.push_back({std::move(*item), {}});
      } else {
        a.entries.back().value = std::move(*item);
      }
    }
    return true;
  }

  bool Text(const char* text, const char* what, std::string& out) {
    if (text == nullptr) return Reject(fmt::format("{} is NULL", what));
    out = text;
    return true;
  }

  // Record the error: Fail for functions returning an optional, Reject for those
  // returning whether they succeeded.
  std::nullopt_t Fail(std::string error) {
    error_ = std::move(error);
    return std::nullopt;
  }
  bool Reject(std::string error) {
    error_ = std::move(error);
    return false;
  }

  static constexpr int kMaxArgDepth = 64;

  const tdc_graph& g_;
  size_t node_ = 0;
  int depth_ = 0;  // containers being decoded
  std::string error_;
};

}  // namespace

std::variant<graph::Graph, std::string> DecodeGraph(const tdc_graph& g) { return Decoder(g).Run(); }

std::variant<NamedTensors, std::string> DecodeConstants(const tdc_graph& g) {
  NamedTensors out;
  if (g.num_constants > 0 && (g.constant_names == nullptr || g.constants == nullptr)) {
    return std::string("constants without their names or tensors");
  }
  for (size_t i = 0; i < g.num_constants; ++i) {
    if (g.constant_names[i] == nullptr) return fmt::format("constant {}: its name is NULL", i);
    auto copy = CopyFromWire(g.constants[i]);
    if (auto* error = std::get_if<std::string>(&copy))
      return fmt::format("constant {}: {}", g.constant_names[i], *error);
    out.emplace_back(g.constant_names[i], std::get<runtime::Tensor>(std::move(copy)));
  }
  return out;
}

}  // namespace tdc::conformance
