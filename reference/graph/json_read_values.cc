// Reading Values (SCHEMA.md §6), graph Args and Graphs (§7).
#include <fmt/format.h>

#include "reference/graph/json_read_internal.h"

namespace tdc::graph::json_read {
namespace {

// Deeper nesting is rejected rather than risking the stack on a hostile document.
constexpr int kMaxDepth = 100;

// Where a value is read: in `outs` or as a node argument, and then how far back node
// references may point (to nodes before the one being read).
struct ValueContext {
  bool in_args = false;
  int64_t ref_limit = 0;
  int depth = 0;
};

Value ReadValueIn(const Json& json, const JsonPath& at, const ValueContext& context);

std::vector<Value> ReadValueList(const Json& json, const JsonPath& at,
                                 const ValueContext& context) {
  return ReadList(json, at, [&](const Json& item, const JsonPath& item_at) {
    return ReadValueIn(item, item_at, context);
  });
}

// The product of `shape`, which must be non-negative and small enough to hold.
int64_t CheckedNumElements(const std::vector<int64_t>& shape, const JsonPath& at) {
  int64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) Fail(at.Index(i), fmt::format("negative size {}", shape[i]));
    if (shape[i] != 0 && count > INT64_MAX / shape[i]) Fail(at, "shape has too many elements");
    count *= shape[i];
  }
  return count;
}

Tensor ReadTensor(const Json& json, const JsonPath& at) {
  using enum Field;
  ObjectReader object(json, at, {kDtype, kShape, kStrides, kRequiresGrad, kValues});
  Tensor tensor;
  tensor.dtype = object.Get(kDtype, ReadDType);
  tensor.shape = object.Get(kShape, ReadIntList);
  tensor.strides = object.Get(kStrides, ReadIntList);
  tensor.requires_grad = object.Get(kRequiresGrad, ReadBool);
  if (tensor.strides.size() != tensor.shape.size()) {
    Fail(at.Field(kStrides),
         fmt::format("{} strides for {} dimensions", tensor.strides.size(), tensor.shape.size()));
  }
  int64_t count = CheckedNumElements(tensor.shape, at.Field(kShape));
  const Json& values = object.Member(kValues);
  JsonPath values_at = at.Field(kValues);
  ExpectArray(values, values_at);
  if (static_cast<int64_t>(values.size()) != count) {
    Fail(values_at, fmt::format("{} elements for shape [{}] (which has {})", values.size(),
                                fmt::join(tensor.shape, ", "), count));
  }
  switch (DTypeElementKind(tensor.dtype)) {
    case ElementKind::kFloat:
      tensor.floats = ReadList(values, values_at, ReadHexFloat);
      break;
    case ElementKind::kInt:
      tensor.integers = ReadList(values, values_at, ReadInt);
      break;
    case ElementKind::kBool:
      for (bool b : ReadList(values, values_at, ReadBool)) tensor.integers.push_back(b ? 1 : 0);
      break;
    case ElementKind::kComplex:
      Fail(at.Field(kDtype),
           fmt::format("{} tensors have no encoding in schema v1", DTypeName(tensor.dtype)));
  }
  return tensor;
}

// The text of a named enum value, e.g. {"layout": "strided"}.
template <typename Enum>
Enum ReadName(const Json& json, const JsonPath& at, std::optional<Enum> (*parse)(std::string_view),
              std::string_view what) {
  std::string name = ReadString(json, at);
  std::optional<Enum> value = parse(name);
  if (!value) Fail(at, fmt::format("unknown {} \"{}\"", what, name));
  return *value;
}

Value ReadPayload(ValueKind kind, const Json& body, const JsonPath& at,
                  const ValueContext& context) {
  Value value;
  value.kind = kind;
  switch (kind) {
    case ValueKind::kTensor:
      value.tensor = std::make_shared<const Tensor>(ReadTensor(body, at));
      break;
    case ValueKind::kInt:
      value.integer = ReadInt(body, at);
      break;
    case ValueKind::kFloat:
      value.number = ReadHexFloat(body, at);
      break;
    case ValueKind::kBool:
      value.boolean = ReadBool(body, at);
      break;
    case ValueKind::kStr:
    case ValueKind::kDevice:
    case ValueKind::kCallable:
    case ValueKind::kRepr:
      value.text = ReadString(body, at);
      break;
    case ValueKind::kNone:
    case ValueKind::kEllipsis:
      if (!body.is_null()) Fail(at, fmt::format("expected null, got {}", Describe(body)));
      break;
    case ValueKind::kTuple:
    case ValueKind::kList:
      value.items = ReadValueList(body, at, context);
      break;
    case ValueKind::kSlice:
      value.items = ReadValueList(body, at, context);
      if (value.items.size() != 3) {
        Fail(at,
             fmt::format("a slice has 3 parts (start, stop, step), got {}", value.items.size()));
      }
      break;
    case ValueKind::kDict:
      ExpectArray(body, at);
      for (size_t i = 0; i < body.size(); ++i) {
        JsonPath entry_at = at.Index(i);
        if (!body[i].is_array() || body[i].size() != 2) {
          Fail(entry_at, fmt::format("expected a [key, value] pair, got {}", Describe(body[i])));
        }
        value.entries.push_back({ReadValueIn(body[i][0], entry_at.Index(0), context),
                                 ReadValueIn(body[i][1], entry_at.Index(1), context)});
      }
      break;
    case ValueKind::kDtype:
      value.dtype = ReadDType(body, at);
      break;
    case ValueKind::kRef:
      value.integer = ReadInt(body, at);
      if (value.integer < 0 || value.integer >= context.ref_limit) {
        Fail(at, fmt::format("reference to node {}: a node may refer only to the {} nodes "
                             "before it",
                             value.integer, context.ref_limit));
      }
      break;
    case ValueKind::kLayout:
      value.layout = ReadName(body, at, ParseLayout, "layout");
      break;
    case ValueKind::kMemoryFormat:
      value.memory_format = ReadName(body, at, ParseMemoryFormat, "memory format");
      break;
  }
  return value;
}

Value ReadValueIn(const Json& json, const JsonPath& at, const ValueContext& context) {
  if (context.depth > kMaxDepth) Fail(at, fmt::format("nested deeper than {}", kMaxDepth));
  if (!json.is_object() || json.size() != 1) {
    Fail(at, fmt::format("expected a value (an object with one key naming its kind), got {}",
                         json.is_object() ? fmt::format("an object with {} keys", json.size())
                                          : Describe(json)));
  }
  const std::string& name = json.begin().key();
  std::optional<ValueKind> kind = ParseValueKind(name);
  if (!kind) Fail(at, fmt::format("unknown value kind \"{}\"", name));
  if (context.in_args && !ValueKindAllowedInArgs(*kind)) {
    Fail(at, fmt::format("a graph argument cannot be a {}", name));
  }
  if (!context.in_args && !ValueKindAllowedInOuts(*kind)) {
    Fail(at, fmt::format("\"{}\" is allowed only in graph arguments", name));
  }
  ValueContext inner = context;
  ++inner.depth;
  return ReadPayload(*kind, json.begin().value(), at.Kind(*kind), inner);
}

std::optional<std::vector<int64_t>> ReadShape(const Json& json, const JsonPath& at) {
  return ReadNullable(json, at, ReadIntList);
}

Node ReadNode(const Json& json, const JsonPath& at, int64_t index) {
  using enum Field;
  ExpectObject(json, at);
  const std::string op_key(FieldName(kOp));
  if (!json.contains(op_key)) Fail(at, "missing field \"op\"");
  Node node;
  node.op = ReadName(json.at(op_key), at.Field(kOp), ParseNodeOp, "node op");
  ValueContext context{.in_args = true, .ref_limit = index, .depth = 0};
  auto read_arg = [&](const Json& arg, const JsonPath& arg_at) {
    return ReadValueIn(arg, arg_at, context);
  };
  switch (node.op) {
    case NodeOp::kPlaceholder: {
      ObjectReader object(json, at, {kOp, kType, kShape, kDtype, kRequiresGrad, kSource});
      node.type = object.Get(kType, ReadString);
      node.shape = object.Get(kShape, ReadShape);
      node.dtype = ReadNullable(object.Member(kDtype), at.Field(kDtype), ReadDType);
      node.requires_grad =
          ReadNullable(object.Member(kRequiresGrad), at.Field(kRequiresGrad), ReadBool);
      node.source = ReadNullable(object.Member(kSource), at.Field(kSource), ReadString);
      break;
    }
    case NodeOp::kCallFunction:
    case NodeOp::kCallMethod:
    case NodeOp::kCallModule:
    case NodeOp::kGetAttr: {
      ObjectReader object(json, at, {kOp, kTarget, kArgs, kKwargs});
      node.target = object.Get(kTarget, ReadString);
      node.args = ReadList(object.Member(kArgs), at.Field(kArgs), read_arg);
      node.kwargs = ReadMap(object.Member(kKwargs), at.Field(kKwargs), read_arg);
      break;
    }
    case NodeOp::kOutput: {
      ObjectReader object(json, at, {kOp, kArgs});
      node.args = ReadList(object.Member(kArgs), at.Field(kArgs), read_arg);
      break;
    }
  }
  return node;
}

}  // namespace

Value ReadOutValue(const Json& json, const JsonPath& at) {
  return ReadValueIn(json, at, ValueContext{});
}

Graph ReadGraph(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {Field::kNodes});
  const Json& nodes = object.Member(Field::kNodes);
  JsonPath nodes_at = at.Field(Field::kNodes);
  ExpectArray(nodes, nodes_at);
  Graph graph;
  for (size_t i = 0; i < nodes.size(); ++i) {
    graph.nodes.push_back(ReadNode(nodes[i], nodes_at.Index(i), static_cast<int64_t>(i)));
  }
  return graph;
}

Exception ReadException(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {Field::kType, Field::kMessage});
  return Exception{object.Get(Field::kType, ReadString), object.Get(Field::kMessage, ReadString)};
}

}  // namespace tdc::graph::json_read
