// Name tables of the AST vocabularies: CPython's class names.
#include "reference/lang/ast.h"

namespace tdc::lang {

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
#define TDC_AST_NODE(Name, Category, HasPositions) \
  case NodeKind::k##Name:                          \
    return #Name;
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
  }
  return "?";
}

bool NodeKindHasPositions(NodeKind kind) {
  switch (kind) {
#define TDC_AST_NODE(Name, Category, HasPositions) \
  case NodeKind::k##Name:                          \
    return HasPositions;
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
  }
  return false;
}

bool NodeKindIsStatement(NodeKind kind) {
  switch (kind) {
#define TDC_AST_NODE(Name, Category, HasPositions) \
  case NodeKind::k##Name:                          \
    return std::string_view(#Category) == "Stmt";
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
  }
  return false;
}

std::string_view BinaryOpClassName(BinaryOp op) {
  switch (op) {
#define TDC_BINARY_OP(Enum, Class, Spelling) \
  case BinaryOp::Enum:                       \
    return #Class;
#include "reference/lang/operators.def"
#undef TDC_BINARY_OP
  }
  return "?";
}

std::string_view BoolOpClassName(BoolOpKind op) {
  switch (op) {
    case BoolOpKind::kAnd:
      return "And";
    case BoolOpKind::kOr:
      return "Or";
  }
  return "?";
}

std::string_view UnaryOpClassName(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::kInvert:
      return "Invert";
    case UnaryOpKind::kNot:
      return "Not";
    case UnaryOpKind::kUAdd:
      return "UAdd";
    case UnaryOpKind::kUSub:
      return "USub";
  }
  return "?";
}

std::string_view CompareOpClassName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "Eq";
    case CompareOp::kNotEq:
      return "NotEq";
    case CompareOp::kLt:
      return "Lt";
    case CompareOp::kLtE:
      return "LtE";
    case CompareOp::kGt:
      return "Gt";
    case CompareOp::kGtE:
      return "GtE";
    case CompareOp::kIs:
      return "Is";
    case CompareOp::kIsNot:
      return "IsNot";
    case CompareOp::kIn:
      return "In";
    case CompareOp::kNotIn:
      return "NotIn";
  }
  return "?";
}

std::string_view ExprContextClassName(ExprContext ctx) {
  switch (ctx) {
    case ExprContext::kLoad:
      return "Load";
    case ExprContext::kStore:
      return "Store";
    case ExprContext::kDel:
      return "Del";
  }
  return "?";
}

}  // namespace tdc::lang
