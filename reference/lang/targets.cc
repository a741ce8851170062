// Assignment, deletion and loop targets: their contexts and CPython's messages for
// invalid ones (_PyPegen_get_invalid_target, _PyPegen_get_expr_name).
#include <fmt/format.h>

#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

const Expr* FindInvalidTarget(const Expr& e, TargetKind kind) {
  switch (e.kind) {
    case NodeKind::kList:
    case NodeKind::kTuple: {
      const ExprList& elts = e.kind == NodeKind::kList ? As<List>(e).elts : As<Tuple>(e).elts;
      for (const ExprPtr& elt : elts) {
        if (const Expr* bad = FindInvalidTarget(*elt, kind)) return bad;
      }
      return nullptr;
    }
    case NodeKind::kStarred:
      if (kind == TargetKind::kDel) return &e;
      return FindInvalidTarget(*As<Starred>(e).value, kind);
    case NodeKind::kName:
    case NodeKind::kSubscript:
    case NodeKind::kAttribute:
      return nullptr;
    case NodeKind::kBoolOp:
    case NodeKind::kBinOp:
    case NodeKind::kUnaryOp:
    case NodeKind::kLambda:
    case NodeKind::kIfExp:
    case NodeKind::kDict:
    case NodeKind::kListComp:
    case NodeKind::kCompare:
    case NodeKind::kCall:
    case NodeKind::kConstant:
    case NodeKind::kSlice:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  return &e;
}

}  // namespace

bool IsBitwiseOrLevel(const Expr& e) {
  switch (e.kind) {
    case NodeKind::kCompare:
    case NodeKind::kBoolOp:
    case NodeKind::kIfExp:
    case NodeKind::kLambda:
    case NodeKind::kStarred:
    case NodeKind::kList:
    case NodeKind::kTuple:
      return false;
    case NodeKind::kUnaryOp:
      return As<UnaryOp>(e).op != UnaryOpKind::kNot;
    case NodeKind::kConstant: {
      auto k = As<Constant>(e).value.kind;
      return k != ConstantValue::Kind::kNone && k != ConstantValue::Kind::kBool;
    }
    case NodeKind::kBinOp:
    case NodeKind::kDict:
    case NodeKind::kListComp:
    case NodeKind::kCall:
    case NodeKind::kAttribute:
    case NodeKind::kSubscript:
    case NodeKind::kName:
    case NodeKind::kSlice:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  return true;
}

std::string ExprDescription(const Expr& expr) {
  switch (expr.kind) {
    case NodeKind::kAttribute:
      return "attribute";
    case NodeKind::kSubscript:
      return "subscript";
    case NodeKind::kStarred:
      return "starred";
    case NodeKind::kName:
      return "name";
    case NodeKind::kList:
      return "list";
    case NodeKind::kTuple:
      return "tuple";
    case NodeKind::kLambda:
      return "lambda";
    case NodeKind::kCall:
      return "function call";
    case NodeKind::kBoolOp:
    case NodeKind::kBinOp:
    case NodeKind::kUnaryOp:
      return "expression";
    case NodeKind::kListComp:
      return As<ListComp>(expr).generator ? "generator expression" : "list comprehension";
    case NodeKind::kDict:
      return "dict literal";
    case NodeKind::kCompare:
      return "comparison";
    case NodeKind::kIfExp:
      return "conditional expression";
    case NodeKind::kSlice:
      return "slice";
    case NodeKind::kConstant:
      switch (As<Constant>(expr).value.kind) {
        case ConstantValue::Kind::kNone:
          return "None";
        case ConstantValue::Kind::kBool:
          return As<Constant>(expr).value.boolean ? "True" : "False";
        case ConstantValue::Kind::kEllipsis:
          return "ellipsis";
        case ConstantValue::Kind::kInt:
        case ConstantValue::Kind::kFloat:
        case ConstantValue::Kind::kComplex:
        case ConstantValue::Kind::kStr:
        case ConstantValue::Kind::kBytes:
          break;
      }
      return "literal";
    case NodeKind::kUnsupportedExpr: {
      const std::string& name = As<UnsupportedExpr>(expr).class_name;
      if (name == "GeneratorExp") return "generator expression";
      if (name == "Yield" || name == "YieldFrom") return "yield expression";
      if (name == "Await") return "await expression";
      if (name == "SetComp") return "set comprehension";
      if (name == "DictComp") return "dict comprehension";
      if (name == "Set") return "set display";
      if (name == "JoinedStr") return "f-string expression";
      if (name == "NamedExpr") return "named expression";
      return name;
    }
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
    break;
  }
  return std::string(NodeKindName(expr.kind));
}

ExprPtr Parser::ParseTargetList(TargetKind kind) {
  SourcePos begin = Peek().span.begin;
  auto parse_item = [this] { return AtOp("*") ? ParseStarredBitOr() : ParseBitOr(); };
  ExprPtr first = parse_item();
  ExprPtr result;
  if (!AtOp(",")) {
    result = std::move(first);
  } else {
    auto tuple = std::make_unique<Tuple>();
    tuple->elts.push_back(std::move(first));
    while (AcceptOp(",")) {
      if (!AtExpressionStart() && !AtOp("*")) break;
      tuple->elts.push_back(parse_item());
    }
    tuple->span = {begin, LastEnd()};
    result = std::move(tuple);
  }
  ToTarget(*result, kind, false);
  return result;
}

bool Parser::IsParenthesized(const Expr& e) {
  std::string_view text = source_.text();
  size_t begin = source_.LineStart(e.span.begin.line) + e.span.begin.col;
  size_t end = source_.LineStart(e.span.end.line) + e.span.end.col;
  while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return begin > 0 && text[begin - 1] == '(' && end < text.size() && text[end] == ')';
}

void Parser::ToTarget(Expr& target, TargetKind kind, bool maybe_meant_equality) {
  const Expr* invalid = FindInvalidTarget(target, kind);
  if (invalid != nullptr) {
    std::string what = ExprDescription(*invalid);
    if (kind == TargetKind::kDel) ErrorAt(invalid->span.begin, "cannot delete " + what);
    if (maybe_meant_equality && (IsBitwiseOrLevel(target) || IsParenthesized(target))) {
      ErrorAt(target.span.begin,
              fmt::format("cannot assign to {} here. Maybe you meant '==' instead of '='?",
                          ExprDescription(target)));
    }
    ErrorAt(invalid->span.begin, "cannot assign to " + what);
  }
  SetContext(target, kind == TargetKind::kDel ? ExprContext::kDel : ExprContext::kStore);
}

void Parser::SetContext(Expr& expr, ExprContext ctx) {
  switch (expr.kind) {
    case NodeKind::kName:
      As<Name>(expr).ctx = ctx;
      return;
    case NodeKind::kAttribute:
      As<Attribute>(expr).ctx = ctx;
      return;
    case NodeKind::kSubscript:
      As<Subscript>(expr).ctx = ctx;
      return;
    case NodeKind::kStarred:
      As<Starred>(expr).ctx = ctx;
      SetContext(*As<Starred>(expr).value, ctx);
      return;
    case NodeKind::kList:
      As<List>(expr).ctx = ctx;
      for (ExprPtr& elt : As<List>(expr).elts) SetContext(*elt, ctx);
      return;
    case NodeKind::kTuple:
      As<Tuple>(expr).ctx = ctx;
      for (ExprPtr& elt : As<Tuple>(expr).elts) SetContext(*elt, ctx);
      return;
    case NodeKind::kBoolOp:
    case NodeKind::kBinOp:
    case NodeKind::kUnaryOp:
    case NodeKind::kLambda:
    case NodeKind::kIfExp:
    case NodeKind::kDict:
    case NodeKind::kListComp:
    case NodeKind::kCompare:
    case NodeKind::kCall:
    case NodeKind::kConstant:
    case NodeKind::kSlice:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      return;
  }
}

}  // namespace tdc::lang
