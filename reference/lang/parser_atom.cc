// Atoms and primaries: names, literals, displays, comprehensions, calls, subscripts.
#include <fmt/format.h>

#include "reference/lang/literals.h"
#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

ExprPtr MakeUnsupportedExpr(std::string_view class_name, SourcePos begin, SourcePos end) {
  auto node = MakeNode<UnsupportedExpr>(begin, end);
  node->class_name = std::string(class_name);
  return node;
}

ExprPtr MakeConstant(ConstantValue value, SourcePos begin, SourcePos end) {
  auto node = MakeNode<Constant>(begin, end);
  node->value = std::move(value);
  return node;
}

}  // namespace

void Parser::CheckForgottenComma(const Expr& previous) {
  // invalid_expression: !(NAME STRING | SOFT_KEYWORD) a=disjunction b=expression, raised
  // only inside brackets (every caller is).
  NodeKind k = previous.kind;
  if (k == NodeKind::kIfExp || k == NodeKind::kLambda || k == NodeKind::kStarred) return;
  if (k == NodeKind::kUnsupportedExpr) return;
  if (!AtExpressionStart()) return;
  if (k == NodeKind::kName) {
    const std::string& id = As<Name>(previous).id;
    if (Peek().kind == TokenKind::kString || id == "match" || id == "case" || id == "_") return;
    if (id == "print" || id == "exec") return;  // _PyPegen_check_legacy_stmt
  }
  size_t mark = Mark();
  try {
    ParseExpression();
  } catch (const ParseFailure&) {
    Reset(mark);
    return;
  }
  ErrorAt(previous.span.begin, "invalid syntax. Perhaps you forgot a comma?");
}

ExprPtr Parser::ParseAtom() {
  const Token& t = Peek();
  SourcePos begin = t.span.begin;
  SourcePos end = t.span.end;
  switch (t.kind) {
    case TokenKind::kName: {
      ConstantValue v;
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        v.kind = t.text == "None" ? ConstantValue::Kind::kNone : ConstantValue::Kind::kBool;
        v.boolean = t.text == "True";
        Next();
        return MakeConstant(std::move(v), begin, end);
      }
      if (IsKeyword(t.text)) Fail();
      auto node = MakeNode<Name>(begin, end);
      node->id = t.text;
      Next();
      return node;
    }
    case TokenKind::kNumber: {
      ConstantValue v = NumberValue(t.text);
      Next();
      return MakeConstant(std::move(v), begin, end);
    }
    case TokenKind::kString:
      return ParseStrings();
    case TokenKind::kOp:
      if (t.text == "(") return ParseParenthesized();
      if (t.text == "[") return ParseListDisplay();
      if (t.text == "{") return ParseBraceDisplay();
      if (t.text == "...") {
        Next();
        ConstantValue v;
        v.kind = ConstantValue::Kind::kEllipsis;
        return MakeConstant(std::move(v), begin, end);
      }
      Fail();
    case TokenKind::kNewline:
    case TokenKind::kIndent:
    case TokenKind::kDedent:
    case TokenKind::kEndMarker:
    case TokenKind::kErrorChar:
    case TokenKind::kEofInBrackets:
    case TokenKind::kTokenizerError:
      break;
  }
  Fail();
}

ExprPtr Parser::ParseStrings() {
  SourcePos begin = Peek().span.begin;
  bool any_fstring = false;
  bool u_prefix = false;
  std::optional<bool> is_bytes;
  bool mixed = false;
  std::string value;
  bool first = true;
  StringError error;
  while (Peek().kind == TokenKind::kString) {
    const Token& t = Next();
    std::optional<StringPiece> piece = DecodeString(t.text, error);
    if (!piece && error.at_token) ErrorAt(t.span.begin, error.message);
    if (!piece) break;
    if (first) u_prefix = piece->has_u_prefix;
    first = false;
    if (is_bytes.has_value() && *is_bytes != piece->is_bytes) mixed = true;
    is_bytes = piece->is_bytes;
    any_fstring = any_fstring || piece->is_fstring;
    value += piece->value;
  }
  SourcePos end = LastEnd();
  // CPython decodes the literals after reading all of them: its errors point at the
  // token that follows.
  if (!error.message.empty()) {
    while (Peek().kind == TokenKind::kString) Next();
    ErrorAt(Peek().span.begin, error.message);
  }
  if (mixed) ErrorAt(Peek().span.begin, "cannot mix bytes and nonbytes literals");
  if (any_fstring) return MakeUnsupportedExpr("JoinedStr", begin, end);
  ConstantValue v;
  v.kind = *is_bytes ? ConstantValue::Kind::kBytes : ConstantValue::Kind::kStr;
  v.text = std::move(value);
  auto node = MakeNode<Constant>(begin, end);
  node->value = std::move(v);
  if (u_prefix) node->kind_u = "u";
  return node;
}

ExprPtr Parser::ParseParenthesized() {
  SourcePos begin = Next().span.begin;  // (
  if (AtOp(")")) {
    Next();
    return MakeNode<Tuple>(begin, LastEnd());
  }
  if (AtName("yield")) {
    ExprPtr inner = ParseYieldExpr();
    ExpectOp(")");
    return inner;
  }
  ExprPtr first = ParseStarNamedExpression();
  if (AtName("for") || (AtName("async") && Peek(1).IsName("for"))) {
    ExprPtr comp = MakeGeneratorExp(std::move(first), begin);
    ExpectOp(")");
    comp->span.end = LastEnd();
    return comp;
  }
  if (AtOp(")")) {
    if (first->kind == NodeKind::kStarred) {
      ErrorAt(first->span.begin, "cannot use starred expression here");
    }
    Next();
    return first;  // A parenthesized expression keeps its own position.
  }
  if (!AtOp(",")) {
    CheckForgottenComma(*first);
    Fail();
  }
  auto tuple = std::make_unique<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (AcceptOp(",")) {
    if (AtOp(")")) break;
    tuple->elts.push_back(ParseStarNamedExpression());
    if (!AtOp(",") && !AtOp(")")) CheckForgottenComma(*tuple->elts.back());
  }
  ExpectOp(")");
  tuple->span = {begin, LastEnd()};
  return tuple;
}

ExprPtr Parser::ParseListDisplay() {
  SourcePos begin = Next().span.begin;  // [
  auto list = std::make_unique<List>();
  if (!AtOp("]")) {
    ExprPtr first = ParseStarNamedExpression();
    if (AtName("for") || (AtName("async") && Peek(1).IsName("for"))) {
      auto comp = std::make_unique<ListComp>();
      comp->elt = std::move(first);
      comp->generators = ParseComprehensionClauses();
      ExpectOp("]");
      comp->span = {begin, LastEnd()};
      return comp;
    }
    list->elts.push_back(std::move(first));
    for (;;) {
      if (!AtOp(",") && !AtOp("]")) CheckForgottenComma(*list->elts.back());
      if (!AcceptOp(",") || AtOp("]")) break;
      list->elts.push_back(ParseStarNamedExpression());
    }
  }
  ExpectOp("]");
  list->span = {begin, LastEnd()};
  return list;
}

ExprPtr Parser::ParseBraceDisplay() {
  SourcePos begin = Next().span.begin;  // {
  auto dict = std::make_unique<Dict>();
  if (AcceptOp("}")) {
    dict->span = {begin, LastEnd()};
    return dict;
  }
  bool is_set = false;
  for (bool first = true;; first = false) {
    if (!is_set && AcceptOp("**")) {
      dict->keys.push_back(nullptr);
      dict->values.push_back(ParseBitOr());
    } else {
      ExprPtr key = is_set || first ? ParseStarNamedExpression() : ParseExpression();
      if (first && !AtOp(":")) is_set = true;
      if (!is_set) {
        ExpectOp(":");
        dict->keys.push_back(std::move(key));
        dict->values.push_back(ParseExpression());
      } else {
        dict->values.push_back(std::move(key));
      }
    }
    if (first && (AtName("for") || (AtName("async") && Peek(1).IsName("for")))) {
      ParseComprehensionClauses();
      ExpectOp("}");
      return MakeUnsupportedExpr(is_set ? "SetComp" : "DictComp", begin, LastEnd());
    }
    if (!AtOp(",") && !AtOp("}")) CheckForgottenComma(*dict->values.back());
    if (!AcceptOp(",") || AtOp("}")) break;
  }
  ExpectOp("}");
  if (is_set) return MakeUnsupportedExpr("Set", begin, LastEnd());
  dict->span = {begin, LastEnd()};
  return dict;
}

ExprPtr Parser::MakeGeneratorExp(ExprPtr elt, SourcePos begin) {
  auto comp = std::make_unique<ListComp>();
  comp->elt = std::move(elt);
  comp->generators = ParseComprehensionClauses();
  comp->generator = true;
  comp->span = {begin, LastEnd()};
  return comp;
}

std::vector<std::unique_ptr<Comprehension>> Parser::ParseComprehensionClauses() {
  std::vector<std::unique_ptr<Comprehension>> clauses;
  while (AtName("for") || (AtName("async") && Peek(1).IsName("for"))) {
    auto clause = std::make_unique<Comprehension>();
    if (AtName("async")) {
      Next();
      clause->is_async = 1;
    }
    Next();  // for
    clause->target = ParseTargetList(TargetKind::kFor);
    if (!AtName("in")) Fail();
    Next();
    clause->iter = ParseDisjunction();
    while (AtName("if")) {
      Next();
      clause->ifs.push_back(ParseDisjunction());
    }
    clauses.push_back(std::move(clause));
  }
  return clauses;
}

ExprPtr Parser::ParsePrimary() {
  SourcePos start = Peek().span.begin;
  ExprPtr expr = ParseAtom();
  ChainGuard chain(*this);
  for (;;) {
    if (AtOp(".") || AtOp("(") || AtOp("[")) chain.Grow();
    if (AtOp(".")) {
      Next();
      auto node = std::make_unique<Attribute>();
      node->span.begin = start;
      node->attr = ExpectName().text;
      node->value = std::move(expr);
      node->span.end = LastEnd();
      expr = std::move(node);
    } else if (AtOp("(")) {
      expr = FinishCall(std::move(expr), start);
    } else if (AtOp("[")) {
      Next();
      auto node = std::make_unique<Subscript>();
      node->span.begin = start;
      node->value = std::move(expr);
      node->slice = ParseSlices();
      ExpectOp("]");
      node->span.end = LastEnd();
      expr = std::move(node);
    } else {
      return expr;
    }
  }
}

ExprPtr Parser::ParseSlices() {
  SourcePos begin = Peek().span.begin;
  ExprPtr first = ParseSlice();
  if (!AtOp(",")) {
    if (!AtOp("]")) CheckForgottenComma(*first);
    // A starred item makes a tuple even alone (`a[*b]`: the grammar's second alternative).
    if (first->kind != NodeKind::kStarred) return first;
  }
  auto tuple = std::make_unique<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (AcceptOp(",")) {
    if (AtOp("]")) break;
    tuple->elts.push_back(ParseSlice());
  }
  tuple->span = {begin, LastEnd()};
  return tuple;
}

ExprPtr Parser::ParseSlice() {
  SourcePos begin = Peek().span.begin;
  if (AtOp("*")) return ParseStarNamedExpression();
  ExprPtr lower;
  if (!AtOp(":")) {
    lower = ParseNamedExpression();
    if (!AtOp(":")) return lower;
  }
  auto slice = std::make_unique<Slice>();
  slice->lower = std::move(lower);
  Next();  // :
  auto at_slice_end = [this] { return AtOp(":") || AtOp("]") || AtOp(","); };
  if (!at_slice_end()) slice->upper = ParseExpression();
  if (AcceptOp(":")) {
    if (!AtOp("]") && !AtOp(",")) slice->step = ParseExpression();
  }
  slice->span = {begin, LastEnd()};
  return slice;
}

ExprPtr Parser::FinishCall(ExprPtr func, SourcePos start) {
  SourcePos open = Next().span.begin;  // (
  auto call = std::make_unique<Call>();
  call->span.begin = start;
  call->func = std::move(func);
  bool seen_keyword = false;
  bool seen_double_star = false;
  // CPython reports a positional argument after keywords once all arguments are read,
  // at the token that ends them.
  const char* late_error = nullptr;
  while (!AtOp(")")) {
    SourcePos item_begin = Peek().span.begin;
    const Expr* last = nullptr;
    if (AtOp("*")) {
      Next();
      auto starred = std::make_unique<Starred>();
      starred->value = ParseExpression();
      starred->span = {item_begin, LastEnd()};
      if (seen_double_star) {
        ErrorAt(item_begin, "iterable argument unpacking follows keyword argument unpacking");
      }
      last = starred.get();
      call->args.push_back(std::move(starred));
    } else if (AtOp("**") ||
               (Peek().kind == TokenKind::kName && !IsKeyword(Peek().text) && Peek(1).IsOp("="))) {
      auto keyword = std::make_unique<Keyword>();
      if (AcceptOp("**")) {
        seen_double_star = true;
      } else {
        keyword->arg = Next().text;
        Next();  // =
        seen_keyword = true;
      }
      keyword->value = ParseExpression();
      keyword->span = {item_begin, LastEnd()};
      last = keyword->value.get();
      call->keywords.push_back(std::move(keyword));
    } else {
      // A positional argument is `NAME := value` or an expression; `expr = value` is the
      // invalid_kwarg error below, not invalid_named_expression.
      bool walrus = Peek().kind == TokenKind::kName && Peek(1).IsOp(":=");
      ExprPtr arg = walrus ? ParseNamedExpression() : ParseExpression();
      if (AtName("for") || (AtName("async") && Peek(1).IsName("for"))) {
        const SourcePos elt_begin = arg->span.begin;
        ExprPtr comp = MakeGeneratorExp(std::move(arg), open);
        bool sole = call->args.empty() && call->keywords.empty() && AtOp(")");
        if (!sole) ErrorAt(elt_begin, "Generator expression must be parenthesized");
        Next();
        comp->span.end = LastEnd();
        call->args.push_back(std::move(comp));
        call->span.end = LastEnd();
        return call;
      }
      if (AtOp("=")) {
        if (arg->kind == NodeKind::kConstant) {
          ErrorAt(arg->span.begin, fmt::format("cannot assign to {}", ExprDescription(*arg)));
        }
        ErrorAt(arg->span.begin, "expression cannot contain assignment, perhaps you meant \"==\"?");
      }
      if (late_error == nullptr && seen_double_star) {
        late_error = "positional argument follows keyword argument unpacking";
      } else if (late_error == nullptr && seen_keyword) {
        late_error = "positional argument follows keyword argument";
      }
      last = arg.get();
      call->args.push_back(std::move(arg));
    }
    if (AcceptOp(",")) continue;
    if (!AtOp(")")) {
      CheckForgottenComma(*last);
      Fail();
    }
  }
  if (late_error != nullptr) ErrorAt(Peek().span.begin, late_error);
  Next();  // )
  call->span.end = LastEnd();
  return call;
}

}  // namespace tdc::lang
