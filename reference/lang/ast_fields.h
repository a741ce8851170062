// Field-by-field access to AST nodes in CPython's `_fields` order. The dumper (ast_dump)
// and the subset walker (subset) both read the tree through this one table, so the field
// order that `ast.dump` and `ast.walk` depend on is written down once.
#ifndef TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_
#define TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/lang/ast.h"

namespace tdc::lang {

class FieldVisitor {
 public:
  virtual ~FieldVisitor() = default;
  // A child node. `child` is null when an optional field is absent.
  virtual void Child(std::string_view field, const Node* child) = 0;
  // A list of child nodes; entries are null where CPython stores None (Dict.keys of
  // `**m`, arguments.kw_defaults without a default).
  virtual void Children(std::string_view field, const std::vector<const Node*>& children) = 0;
  // Leaves. Operator and context fields are nodes in CPython (`Add()`, `Load()`) but have
  // no fields or positions; they are passed by class name.
  virtual void Identifier(std::string_view field, const std::string& value) {}
  virtual void OptionalIdentifier(std::string_view field, const std::optional<std::string>& value) {
  }
  virtual void Identifiers(std::string_view field, const std::vector<std::string>& values) {}
  virtual void Int(std::string_view field, int value) {}
  virtual void Value(std::string_view field, const ConstantValue& value) {}
  virtual void Tag(std::string_view field, std::string_view class_name) {}
  virtual void Tags(std::string_view field, const std::vector<std::string_view>& class_names) {}
};

// Calls `visitor` once per field of `node`, in CPython's order.
void VisitFields(const Node& node, FieldVisitor& visitor);

// The CPython class name of `node` (for Unsupported nodes, the class they stand for).
std::string_view ClassName(const Node& node);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_
