// Name tables of the schema's vocabularies, generated from the .def files.
#include "reference/graph/vocabulary.h"

namespace tdc::graph {

std::string_view DTypeName(DType dtype) {
  switch (dtype) {
#define TDC_DTYPE(Enum, Name, Kind) \
  case DType::Enum:                 \
    return Name;
#include "reference/graph/dtypes.def"
#undef TDC_DTYPE
  }
  return "?";
}

std::optional<DType> ParseDType(std::string_view name) {
#define TDC_DTYPE(Enum, Name, Kind) \
  if (name == Name) return DType::Enum;
#include "reference/graph/dtypes.def"
#undef TDC_DTYPE
  return std::nullopt;
}

ElementKind DTypeElementKind(DType dtype) {
  switch (dtype) {
#define TDC_DTYPE(Enum, Name, Kind) \
  case DType::Enum:                 \
    return ElementKind::Kind;
#include "reference/graph/dtypes.def"
#undef TDC_DTYPE
  }
  return ElementKind::kComplex;
}

std::string_view ValueKindName(ValueKind kind) {
  switch (kind) {
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) \
  case ValueKind::Enum:                            \
    return Name;
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
  }
  return "?";
}

std::optional<ValueKind> ParseValueKind(std::string_view name) {
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) \
  if (name == Name) return ValueKind::Enum;
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
  return std::nullopt;
}

bool ValueKindAllowedInOuts(ValueKind kind) {
  switch (kind) {
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) \
  case ValueKind::Enum:                            \
    return InOuts;
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
  }
  return false;
}

bool ValueKindAllowedInArgs(ValueKind kind) {
  switch (kind) {
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) \
  case ValueKind::Enum:                            \
    return InArgs;
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
  }
  return false;
}

std::string_view NodeOpName(NodeOp op) {
  switch (op) {
#define TDC_NODE_OP(Enum, Name) \
  case NodeOp::Enum:            \
    return Name;
#include "reference/graph/node_ops.def"
#undef TDC_NODE_OP
  }
  return "?";
}

std::optional<NodeOp> ParseNodeOp(std::string_view name) {
#define TDC_NODE_OP(Enum, Name) \
  if (name == Name) return NodeOp::Enum;
#include "reference/graph/node_ops.def"
#undef TDC_NODE_OP
  return std::nullopt;
}

std::string_view LayoutName(Layout layout) {
  switch (layout) {
#define TDC_LAYOUT(Enum, Name) \
  case Layout::Enum:           \
    return Name;
#include "reference/graph/layouts.def"
#undef TDC_LAYOUT
  }
  return "?";
}

std::optional<Layout> ParseLayout(std::string_view name) {
#define TDC_LAYOUT(Enum, Name) \
  if (name == Name) return Layout::Enum;
#include "reference/graph/layouts.def"
#undef TDC_LAYOUT
  return std::nullopt;
}

std::string_view MemoryFormatName(MemoryFormat format) {
  switch (format) {
#define TDC_MEMORY_FORMAT(Enum, Name) \
  case MemoryFormat::Enum:            \
    return Name;
#include "reference/graph/memory_formats.def"
#undef TDC_MEMORY_FORMAT
  }
  return "?";
}

std::optional<MemoryFormat> ParseMemoryFormat(std::string_view name) {
#define TDC_MEMORY_FORMAT(Enum, Name) \
  if (name == Name) return MemoryFormat::Enum;
#include "reference/graph/memory_formats.def"
#undef TDC_MEMORY_FORMAT
  return std::nullopt;
}

std::string_view FieldName(Field field) {
  switch (field) {
#define TDC_FIELD(Enum, Name) \
  case Field::Enum:           \
    return Name;
#include "reference/graph/fields.def"
#undef TDC_FIELD
  }
  return "?";
}

std::optional<Field> ParseField(std::string_view name) {
#define TDC_FIELD(Enum, Name) \
  if (name == Name) return Field::Enum;
#include "reference/graph/fields.def"
#undef TDC_FIELD
  return std::nullopt;
}

}  // namespace tdc::graph
