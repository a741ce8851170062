// Simple statements: expression statements, assignments, imports and the keyword
// statements that fit on one line (CPython's simple_stmt).
#include <fmt/format.h>

#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

// Augmented-assignment operators and the BinaryOp each stands for.
struct AugOp {
  std::string_view spelling;
  BinaryOp op;
};
constexpr AugOp kAugOps[] = {
    {"+=", BinaryOp::kAdd},      {"-=", BinaryOp::kSub},     {"*=", BinaryOp::kMult},
    {"@=", BinaryOp::kMatMult},  {"/=", BinaryOp::kDiv},     {"%=", BinaryOp::kMod},
    {"&=", BinaryOp::kBitAnd},   {"|=", BinaryOp::kBitOr},   {"^=", BinaryOp::kBitXor},
    {"<<=", BinaryOp::kLShift},  {">>=", BinaryOp::kRShift}, {"**=", BinaryOp::kPow},
    {"//=", BinaryOp::kFloorDiv}};

bool IsCompoundStart(const Token& t) {
  if (t.IsOp("@")) return true;
  if (t.kind != TokenKind::kName) return false;
  for (std::string_view kw : {"def", "if", "class", "with", "for", "try", "while", "async"}) {
    if (t.text == kw) return true;
  }
  return false;
}

}  // namespace

void Parser::ParseStatement(StmtList& out) {
  const Token& t = Peek();
  if (IsCompoundStart(t)) {
    out.push_back(ParseCompound());
    return;
  }
  if (t.IsName("match")) {
    if (StmtPtr match = TryParseMatch()) {
      out.push_back(std::move(match));
      return;
    }
  }
  ParseSimpleStatements(out);
}

void Parser::ParseSimpleStatements(StmtList& out) {
  for (;;) {
    out.push_back(ParseSimpleStatement());
    if (!AcceptOp(";")) break;
    if (Peek().kind == TokenKind::kNewline) break;
  }
  if (Peek().kind != TokenKind::kNewline) {
    CheckLegacyStatement(*out.back());
    Fail();
  }
  Next();
}

void Parser::CheckLegacyStatement(const Stmt& stmt) {
  // invalid_legacy_expression: `print x` / `exec x`, Python 2's statements.
  if (stmt.kind != NodeKind::kExprStmt) return;
  const Expr& value = *As<ExprStmt>(stmt).value;
  if (value.kind != NodeKind::kName) return;
  const std::string& name = As<Name>(value).id;
  if (name != "print" && name != "exec") return;
  if (!AtExpressionStart() && !AtOp("*")) return;
  size_t mark = Mark();
  try {
    ParseStarExpressions();
  } catch (const ParseFailure&) {
    Reset(mark);
    return;
  }
  ErrorAt(value.span.begin,
          fmt::format("Missing parentheses in call to '{0}'. Did you mean {0}(...)?", name));
}

StmtPtr Parser::ParseSimpleStatement() {
  const Token& t = Peek();
  SourcePos start = t.span.begin;
  if (t.kind == TokenKind::kName) {
    if (t.text == "pass" || t.text == "break" || t.text == "continue") {
      std::string_view word = t.text;
      Next();
      if (word == "pass") return MakeNode<Pass>(start, LastEnd());
      if (word == "break") return MakeNode<Break>(start, LastEnd());
      return MakeNode<Continue>(start, LastEnd());
    }
    if (t.text == "return") {
      Next();
      auto node = std::make_unique<Return>();
      if (AtExpressionStart() || AtOp("*")) node->value = ParseStarExpressions();
      node->span = {start, LastEnd()};
      return node;
    }
    if (t.text == "import") return ParseImport();
    if (t.text == "from") return ParseFromImport();
    if (t.text == "raise") {
      Next();
      auto node = std::make_unique<Raise>();
      if (AtExpressionStart()) {
        node->exc = ParseExpression();
        if (AtName("from")) {
          Next();
          node->cause = ParseExpression();
        }
      }
      node->span = {start, LastEnd()};
      return node;
    }
    if (t.text == "global" || t.text == "nonlocal") {
      bool global = t.text == "global";
      Next();
      std::vector<std::string> names{std::string(ExpectName().text)};
      while (AcceptOp(",")) names.emplace_back(ExpectName().text);
      if (global) {
        auto node = MakeNode<Global>(start, LastEnd());
        node->names = std::move(names);
        return node;
      }
      auto node = MakeNode<Nonlocal>(start, LastEnd());
      node->names = std::move(names);
      return node;
    }
    if (t.text == "del") {
      Next();
      auto node = std::make_unique<Delete>();
      do {
        if (Peek().kind == TokenKind::kNewline || AtOp(";")) break;
        // A starred target is parsed only to report "cannot delete starred".
        ExprPtr target = AtOp("*") ? ParseStarredBitOr() : ParseBitOr();
        ToTarget(*target, TargetKind::kDel, false);
        node->targets.push_back(std::move(target));
      } while (AcceptOp(","));
      if (node->targets.empty()) Fail();
      node->span = {start, LastEnd()};
      return node;
    }
    if (t.text == "assert") {
      Next();
      auto node = std::make_unique<Assert>();
      node->test = ParseExpression();
      if (AcceptOp(",")) node->msg = ParseExpression();
      node->span = {start, LastEnd()};
      return node;
    }
    if (t.text == "yield") {
      auto node = std::make_unique<ExprStmt>();
      node->value = ParseYieldExpr();
      node->span = {start, LastEnd()};
      return node;
    }
  }
  return ParseExpressionStatement();
}

StmtPtr Parser::ParseExpressionStatement() {
  SourcePos start = Peek().span.begin;
  ExprPtr first = ParseStarExpressions();
  auto value_expr = [this]() {
    return AtName("yield") ? ParseYieldExpr() : ParseStarExpressions();
  };
  if (AtOp("=")) {
    ExprList chain;
    chain.push_back(std::move(first));
    while (AcceptOp("=")) chain.push_back(value_expr());
    auto node = std::make_unique<Assign>();
    node->value = std::move(chain.back());
    chain.pop_back();
    for (size_t i = 0; i < chain.size(); ++i) {
      // Only `target = value` (one target) gets CPython's "Maybe you meant '=='" hint.
      ToTarget(*chain[i], TargetKind::kStar, chain.size() == 1);
    }
    node->targets = std::move(chain);
    node->span = {start, LastEnd()};
    return node;
  }
  for (const AugOp& aug : kAugOps) {
    if (!AtOp(aug.spelling)) continue;
    NodeKind k = first->kind;
    if (k != NodeKind::kName && k != NodeKind::kAttribute && k != NodeKind::kSubscript) {
      ErrorAt(first->span.begin, fmt::format("'{}' is an illegal expression for augmented "
                                             "assignment",
                                             ExprDescription(*first)));
    }
    Next();
    auto node = std::make_unique<AugAssign>();
    SetContext(*first, ExprContext::kStore);
    node->target = std::move(first);
    node->op = aug.op;
    node->value = value_expr();
    node->span = {start, LastEnd()};
    return node;
  }
  if (AtOp(":")) {
    // Annotated assignment (`x: int = 1`): outside the subset.
    Next();
    ParseExpression();
    if (AcceptOp("=")) value_expr();
    auto node = MakeNode<UnsupportedStmt>(start, LastEnd());
    node->class_name = "AnnAssign";
    return node;
  }
  auto node = std::make_unique<ExprStmt>();
  node->value = std::move(first);
  node->span = {start, LastEnd()};
  return node;
}

namespace {

// dotted_name: NAME ('.' NAME)*
std::string ParseDottedName(Parser& p) {
  std::string name(p.ExpectName().text);
  while (p.AcceptOp(".")) fmt::format_to(std::back_inserter(name), ".{}", p.ExpectName().text);
  return name;
}

}  // namespace

StmtPtr Parser::ParseImport() {
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<Import>();
  do {
    SourcePos alias_start = Peek().span.begin;
    auto alias = std::make_unique<Alias>();
    alias->name = ParseDottedName(*this);
    if (AtName("as")) {
      Next();
      alias->asname = ExpectName().text;
    }
    alias->span = {alias_start, LastEnd()};
    node->names.push_back(std::move(alias));
  } while (AcceptOp(","));
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseFromImport() {
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<ImportFrom>();
  for (;;) {
    if (AcceptOp(".")) {
      node->level += 1;
    } else if (AcceptOp("...")) {
      node->level += 3;
    } else {
      break;
    }
  }
  if (!AtName("import")) node->module = ParseDottedName(*this);
  if (!AtName("import")) Fail();
  Next();
  if (AtOp("*")) {
    const Token& star = Next();
    auto alias = MakeNode<Alias>(star.span.begin, star.span.end);
    alias->name = "*";
    node->names.push_back(std::move(alias));
  } else {
    bool parenthesized = AcceptOp("(");
    for (;;) {
      const Token& name = ExpectName();
      auto alias = MakeNode<Alias>(name.span.begin, name.span.end);
      alias->name = name.text;
      if (AtName("as")) {
        Next();
        alias->asname = ExpectName().text;
        alias->span.end = LastEnd();
      }
      node->names.push_back(std::move(alias));
      if (!AtOp(",")) break;
      Next();
      if (parenthesized && AtOp(")")) break;
      if (!parenthesized && Peek().kind == TokenKind::kNewline) {
        ErrorAt(Peek().span.begin, "trailing comma not allowed without surrounding parentheses");
      }
    }
    if (parenthesized) ExpectOp(")");
  }
  node->span = {start, LastEnd()};
  return node;
}

}  // namespace tdc::lang
