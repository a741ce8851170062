// The closed vocabularies of the golden schema (fixtures/SCHEMA.md), as enums. Each has
// one table (a .def file beside this header); names are used only when reading and
// writing documents.
#ifndef TDCONFORM_REFERENCE_GRAPH_VOCABULARY_H_
#define TDCONFORM_REFERENCE_GRAPH_VOCABULARY_H_

#include <optional>
#include <string_view>

namespace tdc::graph {

// How a tensor's elements are encoded (dtypes.def).
enum class ElementKind { kFloat, kInt, kBool, kComplex };

enum class DType {
#define TDC_DTYPE(Enum, Name, Kind) Enum,
#include "reference/graph/dtypes.def"
#undef TDC_DTYPE
};
std::string_view DTypeName(DType dtype);
std::optional<DType> ParseDType(std::string_view name);
ElementKind DTypeElementKind(DType dtype);

enum class ValueKind {
#define TDC_VALUE_KIND(Enum, Name, InOuts, InArgs) Enum,
#include "reference/graph/value_kinds.def"
#undef TDC_VALUE_KIND
};
std::string_view ValueKindName(ValueKind kind);
std::optional<ValueKind> ParseValueKind(std::string_view name);
bool ValueKindAllowedInOuts(ValueKind kind);
bool ValueKindAllowedInArgs(ValueKind kind);

enum class NodeOp {
#define TDC_NODE_OP(Enum, Name) Enum,
#include "reference/graph/node_ops.def"
#undef TDC_NODE_OP
};
std::string_view NodeOpName(NodeOp op);
std::optional<NodeOp> ParseNodeOp(std::string_view name);

enum class Layout {
#define TDC_LAYOUT(Enum, Name) Enum,
#include "reference/graph/layouts.def"
#undef TDC_LAYOUT
};
std::string_view LayoutName(Layout layout);
std::optional<Layout> ParseLayout(std::string_view name);

enum class MemoryFormat {
#define TDC_MEMORY_FORMAT(Enum, Name) Enum,
#include "reference/graph/memory_formats.def"
#undef TDC_MEMORY_FORMAT
};
std::string_view MemoryFormatName(MemoryFormat format);
std::optional<MemoryFormat> ParseMemoryFormat(std::string_view name);

// A key of the schema that names a field (fields.def).
enum class Field {
#define TDC_FIELD(Enum, Name) Enum,
#include "reference/graph/fields.def"
#undef TDC_FIELD
};
std::string_view FieldName(Field field);
std::optional<Field> ParseField(std::string_view name);

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_VOCABULARY_H_
