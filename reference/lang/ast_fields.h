// Field-by-field access to AST nodes in CPython's `_fields` order. The dumper (ast_dump)
// and the subset walker (subset) both read the tree through this one table, so the field
// order that `ast.dump` and `ast.walk` depend on is written down once.
#ifndef TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_
#define TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/lang/ast.h"

namespace tdc::lang {

// One list field's nodes, read in place (no copy of the pointers per visit). Entries are
// null where CPython stores None (Dict.keys of `**m`, arguments.kw_defaults).
class NodeList {
 public:
  NodeList() = default;
  template <typename T>
  NodeList(const std::vector<std::unique_ptr<T>>& list)  // NOLINT: every list field converts
      : data_(list.data()), size_(list.size()), at_([](const void* data, size_t i) -> const Node* {
          return static_cast<const std::unique_ptr<T>*>(data)[i].get();
        }) {}
  template <typename T>
  NodeList(std::vector<std::unique_ptr<T>>&&) = delete;  // would outlive its list

  size_t size() const { return size_; }
  const Node* operator[](size_t i) const { return at_(data_, i); }

  class Iterator {
   public:
    Iterator(const NodeList& list, size_t i) : list_(list), i_(i) {}
    const Node* operator*() const { return list_[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return i_ != other.i_; }

   private:
    const NodeList& list_;
    size_t i_;
  };
  Iterator begin() const { return {*this, 0}; }
  Iterator end() const { return {*this, size_}; }

 private:
  const void* data_ = nullptr;
  size_t size_ = 0;
  const Node* (*at_)(const void*, size_t) = nullptr;
};

class FieldVisitor {
 public:
  virtual ~FieldVisitor() = default;
  // A child node. `child` is null when an optional field is absent.
  virtual void Child(std::string_view field, const Node* child) = 0;
  // A list of child nodes.
  virtual void Children(std::string_view field, const NodeList& children) = 0;
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

// Calls `f(child)` for each child node of `node` in field order, absent ones left out.
template <typename F>
void ForEachChild(const Node& node, F&& f) {
  class Each final : public FieldVisitor {
   public:
    explicit Each(F& f) : f_(f) {}
    void Child(std::string_view, const Node* child) override {
      if (child != nullptr) f_(*child);
    }
    void Children(std::string_view, const NodeList& children) override {
      for (const Node* child : children) Child({}, child);
    }

   private:
    F& f_;
  };
  Each each(f);
  VisitFields(node, each);
}

// The CPython class name of `node` (for Unsupported nodes, the class they stand for).
std::string_view ClassName(const Node& node);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_AST_FIELDS_H_
