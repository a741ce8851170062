// Expressions from star_expressions down to power (CPython's operator precedence).
#include <fmt/format.h>

#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

struct BinaryLevelOp {
  int level;  // 0 binds loosest.
  std::string_view spelling;
  BinaryOp op;
};

// bitwise_or > bitwise_xor > bitwise_and > shift_expr > sum > term.
constexpr BinaryLevelOp kBinaryOps[] = {
    {0, "|", BinaryOp::kBitOr},     {1, "^", BinaryOp::kBitXor},  {2, "&", BinaryOp::kBitAnd},
    {3, "<<", BinaryOp::kLShift},   {3, ">>", BinaryOp::kRShift}, {4, "+", BinaryOp::kAdd},
    {4, "-", BinaryOp::kSub},       {5, "*", BinaryOp::kMult},    {5, "/", BinaryOp::kDiv},
    {5, "//", BinaryOp::kFloorDiv}, {5, "%", BinaryOp::kMod},     {5, "@", BinaryOp::kMatMult}};
constexpr int kFactorLevel = 6;

ExprPtr MakeUnsupportedExpr(std::string_view class_name, SourcePos begin, SourcePos end) {
  auto node = MakeNode<UnsupportedExpr>(begin, end);
  node->class_name = std::string(class_name);
  return node;
}

}  // namespace

bool Parser::AtExpressionStart() {
  const Token& t = Peek();
  switch (t.kind) {
    case TokenKind::kName:
      if (!IsKeyword(t.text)) return true;
      for (std::string_view kw : {"True", "False", "None", "not", "lambda", "await"}) {
        if (t.text == kw) return true;
      }
      return false;
    case TokenKind::kNumber:
    case TokenKind::kString:
      return true;
    case TokenKind::kOp:
      for (std::string_view op : {"(", "[", "{", "-", "+", "~", "..."}) {
        if (t.text == op) return true;
      }
      return false;
    case TokenKind::kNewline:
    case TokenKind::kIndent:
    case TokenKind::kDedent:
    case TokenKind::kEndMarker:
    case TokenKind::kErrorChar:
    case TokenKind::kEofInBrackets:
    case TokenKind::kTokenizerError:
      break;
  }
  return false;
}

ExprPtr Parser::ParseStarExpressions() {
  SourcePos start = Peek().span.begin;
  ExprPtr first = ParseStarExpression();
  if (!AtOp(",")) return first;
  auto tuple = std::make_unique<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (AcceptOp(",")) {
    if (!AtExpressionStart() && !AtOp("*")) break;
    tuple->elts.push_back(ParseStarExpression());
  }
  tuple->span = {start, LastEnd()};
  return tuple;
}

ExprPtr Parser::ParseStarredBitOr() {
  SourcePos start = Next().span.begin;  // *
  auto node = std::make_unique<Starred>();
  node->value = ParseBitOr();
  node->span = {start, LastEnd()};
  return node;
}

ExprPtr Parser::ParseStarExpression() {
  return AtOp("*") ? ParseStarredBitOr() : ParseExpression();
}

ExprPtr Parser::ParseStarNamedExpression() {
  return AtOp("*") ? ParseStarredBitOr() : ParseNamedExpression();
}

ExprPtr Parser::ParseNamedExpression() {
  SourcePos start = Peek().span.begin;
  if (Peek().kind == TokenKind::kName && !IsKeyword(Peek().text) && Peek(1).IsOp(":=")) {
    Next();
    Next();
    ParseExpression();
    return MakeUnsupportedExpr("NamedExpr", start, LastEnd());
  }
  ExprPtr expr = ParseExpression();
  if (AtOp(":=")) {
    ErrorAt(expr->span.begin,
            fmt::format("cannot use assignment expressions with {}", ExprDescription(*expr)));
  }
  if (AtOp("=")) {
    // CPython's invalid_named_expression: `x = 1` where a value is expected.
    size_t mark = Mark();
    Next();
    bool matched = false;
    try {
      ParseBitOr();
      matched = !AtOp("=") && !AtOp(":=");
    } catch (const ParseFailure&) {
    }
    Reset(mark);
    if (matched && expr->kind == NodeKind::kName) {
      ErrorAt(expr->span.begin, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    }
    if (matched && (IsBitwiseOrLevel(*expr) || IsParenthesized(*expr))) {
      ErrorAt(expr->span.begin,
              fmt::format("cannot assign to {} here. Maybe you meant '==' instead of '='?",
                          ExprDescription(*expr)));
    }
  }
  return expr;
}

ExprPtr Parser::ParseExpression() {
  NestingGuard guard(*this);
  if (AtName("lambda")) return ParseLambda();
  SourcePos start = Peek().span.begin;
  ExprPtr body = ParseDisjunction();
  if (!AtName("if")) return body;
  Next();
  ExprPtr test = ParseDisjunction();
  if (!AtName("else")) {
    if (AtOp(":")) Fail();
    ErrorAt(body->span.begin, "expected 'else' after 'if' expression");
  }
  Next();
  auto node = std::make_unique<IfExp>();
  node->span.begin = start;
  node->test = std::move(test);
  node->body = std::move(body);
  node->orelse = ParseExpression();
  node->span.end = LastEnd();
  return node;
}

namespace {

template <typename Next>
ExprPtr ParseBoolChain(Parser& p, std::string_view keyword, BoolOpKind op, Next next) {
  SourcePos start = p.Peek().span.begin;
  ExprPtr first = next();
  if (!p.AtName(keyword)) return first;
  auto node = std::make_unique<BoolOp>();
  node->op = op;
  node->span.begin = start;
  node->values.push_back(std::move(first));
  while (p.AtName(keyword)) {
    p.Next();
    node->values.push_back(next());
  }
  node->span.end = p.LastEnd();
  return node;
}

}  // namespace

ExprPtr Parser::ParseDisjunction() {
  return ParseBoolChain(*this, "or", BoolOpKind::kOr, [this] { return ParseConjunction(); });
}

ExprPtr Parser::ParseConjunction() {
  return ParseBoolChain(*this, "and", BoolOpKind::kAnd, [this] { return ParseInversion(); });
}

ExprPtr Parser::ParseInversion() {
  if (!AtName("not")) return ParseComparison();
  NestingGuard guard(*this);
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<UnaryOp>();
  node->op = UnaryOpKind::kNot;
  node->operand = ParseInversion();
  node->span = {start, LastEnd()};
  return node;
}

ExprPtr Parser::ParseComparison() {
  SourcePos start = Peek().span.begin;
  ExprPtr left = ParseBitOr();
  std::unique_ptr<Compare> node;
  for (;;) {
    std::optional<CompareOp> op;
    const Token& t = Peek();
    if (t.kind == TokenKind::kOp) {
      if (t.text == "==") op = CompareOp::kEq;
      if (t.text == "!=") op = CompareOp::kNotEq;
      if (t.text == "<") op = CompareOp::kLt;
      if (t.text == "<=") op = CompareOp::kLtE;
      if (t.text == ">") op = CompareOp::kGt;
      if (t.text == ">=") op = CompareOp::kGtE;
      if (op) Next();
    } else if (t.IsName("in")) {
      op = CompareOp::kIn;
      Next();
    } else if (t.IsName("not") && Peek(1).IsName("in")) {
      op = CompareOp::kNotIn;
      Next();
      Next();
    } else if (t.IsName("is")) {
      Next();
      op = CompareOp::kIs;
      if (AtName("not")) {
        Next();
        op = CompareOp::kIsNot;
      }
    }
    if (!op) break;
    if (!node) {
      node = std::make_unique<Compare>();
      node->span.begin = start;
      node->left = std::move(left);
    }
    node->ops.push_back(*op);
    node->comparators.push_back(ParseBitOr());
  }
  if (!node) return left;
  node->span.end = LastEnd();
  return node;
}

ExprPtr Parser::ParseBitOr() { return ParseBinaryLevel(0); }

ExprPtr Parser::ParseBinaryLevel(int level) {
  if (level == kFactorLevel) return ParseFactor();
  SourcePos start = Peek().span.begin;
  ExprPtr left = ParseBinaryLevel(level + 1);
  ChainGuard chain(*this);
  for (;;) {
    const Token& next = Peek();  // once: every operand passes through all six levels
    if (next.kind != TokenKind::kOp) return left;
    const BinaryLevelOp* match = nullptr;
    for (const BinaryLevelOp& candidate : kBinaryOps) {
      if (candidate.level == level && next.IsOp(candidate.spelling)) match = &candidate;
    }
    if (match == nullptr) return left;
    chain.Grow();
    Next();
    auto node = std::make_unique<BinOp>();
    node->span.begin = start;
    node->left = std::move(left);
    node->op = match->op;
    node->right = ParseBinaryLevel(level + 1);
    node->span.end = LastEnd();
    left = std::move(node);
  }
}

ExprPtr Parser::ParseFactor() {
  std::optional<UnaryOpKind> op;
  if (AtOp("+")) op = UnaryOpKind::kUAdd;
  if (AtOp("-")) op = UnaryOpKind::kUSub;
  if (AtOp("~")) op = UnaryOpKind::kInvert;
  if (!op) return ParsePower();
  NestingGuard guard(*this);
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<UnaryOp>();
  node->op = *op;
  node->operand = ParseFactor();
  node->span = {start, LastEnd()};
  return node;
}

ExprPtr Parser::ParsePower() {
  SourcePos start = Peek().span.begin;
  ExprPtr base;
  if (AtName("await")) {
    Next();
    ParsePrimary();
    base = MakeUnsupportedExpr("Await", start, LastEnd());
  } else {
    base = ParsePrimary();
  }
  if (!AtOp("**")) return base;
  NestingGuard guard(*this);  // `a ** b ** c` nests to the right, through ParseFactor.
  Next();
  auto node = std::make_unique<BinOp>();
  node->span.begin = start;
  node->left = std::move(base);
  node->op = BinaryOp::kPow;
  node->right = ParseFactor();
  node->span.end = LastEnd();
  return node;
}

ExprPtr Parser::ParseLambda() {
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<Lambda>();
  node->args = ParseParameters(/*is_lambda=*/true, ":");
  ExpectOp(":");
  node->body = ParseExpression();
  node->span = {start, LastEnd()};
  return node;
}

ExprPtr Parser::ParseYieldExpr() {
  SourcePos start = Next().span.begin;  // yield
  if (AtName("from")) {
    Next();
    ParseExpression();
    return MakeUnsupportedExpr("YieldFrom", start, LastEnd());
  }
  if (AtExpressionStart() || AtOp("*")) ParseStarExpressions();
  return MakeUnsupportedExpr("Yield", start, LastEnd());
}

}  // namespace tdc::lang
