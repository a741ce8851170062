#include "reference/lang/ast_dump.h"

#include <fmt/format.h>

#include "reference/base/py_repr.h"
#include "reference/lang/ast_fields.h"

namespace tdc::lang {
namespace {

std::string ReprConstant(const ConstantValue& v) {
  switch (v.kind) {
    case ConstantValue::Kind::kNone:
      return "None";
    case ConstantValue::Kind::kBool:
      return v.boolean ? "True" : "False";
    case ConstantValue::Kind::kInt:
      return v.integer;
    case ConstantValue::Kind::kFloat:
      return ReprFloat(v.real);
    case ConstantValue::Kind::kComplex:
      return ReprImaginary(v.real);
    case ConstantValue::Kind::kStr:
      return ReprStr(v.text);
    case ConstantValue::Kind::kBytes:
      return ReprBytes(v.text);
    case ConstantValue::Kind::kEllipsis:
      return "Ellipsis";
  }
  return "?";
}

// Appends `field=value` pairs; ast.dump leaves out optional fields that are None.
class Dumper : public FieldVisitor {
 public:
  explicit Dumper(std::string& out) : out_(out) {}

  void Child(std::string_view field, const Node* child) override {
    if (child == nullptr) return;  // Every nullable single child is an optional field.
    Field(field);
    Dump(*child);
  }
  void Children(std::string_view field, const NodeList& children) override {
    Field(field);
    out_ += '[';
    for (size_t i = 0; i < children.size(); ++i) {
      if (i > 0) out_ += ", ";
      if (children[i] == nullptr) {
        out_ += "None";
      } else {
        Dump(*children[i]);
      }
    }
    out_ += ']';
  }
  void Identifier(std::string_view field, const std::string& value) override {
    Field(field);
    out_ += ReprStr(value);
  }
  void OptionalIdentifier(std::string_view field,
                          const std::optional<std::string>& value) override {
    if (value) Identifier(field, *value);
  }
  void Identifiers(std::string_view field, const std::vector<std::string>& values) override {
    Field(field);
    out_ += '[';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out_ += ", ";
      out_ += ReprStr(values[i]);
    }
    out_ += ']';
  }
  void Int(std::string_view field, int value) override {
    Field(field);
    out_ += std::to_string(value);
  }
  void Value(std::string_view field, const ConstantValue& value) override {
    Field(field);
    out_ += ReprConstant(value);
  }
  void Tag(std::string_view field, std::string_view class_name) override {
    Field(field);
    out_ += fmt::format("{}()", class_name);
  }
  void Tags(std::string_view field, const std::vector<std::string_view>& class_names) override {
    Field(field);
    out_ += '[';
    for (size_t i = 0; i < class_names.size(); ++i) {
      if (i > 0) out_ += ", ";
      out_ += fmt::format("{}()", class_names[i]);
    }
    out_ += ']';
  }

  void Dump(const Node& node) {
    out_ += ClassName(node);
    out_ += '(';
    Dumper fields(out_);
    VisitFields(node, fields);
    if (NodeKindHasPositions(node.kind)) {
      const SourceSpan& s = node.span;
      fields.Field("lineno");
      out_ += fmt::format("{}", s.begin.line);
      fields.Field("col_offset");
      out_ += fmt::format("{}", s.begin.col);
      fields.Field("end_lineno");
      out_ += fmt::format("{}", s.end.line);
      fields.Field("end_col_offset");
      out_ += fmt::format("{}", s.end.col);
    }
    out_ += ')';
  }

 private:
  void Field(std::string_view name) {
    if (!first_) out_ += ", ";
    first_ = false;
    out_ += name;
    out_ += '=';
  }

  std::string& out_;
  bool first_ = true;
};

}  // namespace

std::string DumpAst(const Node& node) {
  std::string out;
  Dumper(out).Dump(node);
  return out;
}

}  // namespace tdc::lang
