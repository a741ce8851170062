// Compound statements: def, if, while, for, with, try, and the ones outside the subset
// (class, async, match), which are parsed for their syntax errors and then marked.
#include <fmt/format.h>

#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

StmtPtr MakeUnsupported(std::string_view class_name, SourcePos begin, SourcePos end) {
  auto node = MakeNode<UnsupportedStmt>(begin, end);
  node->class_name = std::string(class_name);
  return node;
}

}  // namespace

void Parser::ExpectColon(bool forced) {
  if (forced) {
    ExpectForcedOp(":");
    return;
  }
  // CPython's invalid_*_stmt rules: a header that ends the line without ':'.
  if (!AtOp(":") && Peek().kind == TokenKind::kNewline) {
    ErrorAt(Peek().span.begin, "expected ':'");
  }
  ExpectOp(":");
}

StmtList Parser::ParseBlock(const std::string& what, int header_line, bool forced_colon) {
  ExpectColon(forced_colon);
  StmtList body;
  if (Peek().kind != TokenKind::kNewline) {
    ParseSimpleStatements(body);
    return body;
  }
  Next();
  if (Peek().kind != TokenKind::kIndent) {
    IndentationErrorAt(Peek().span.begin, fmt::format("expected an indented block after {} on "
                                                      "line {}",
                                                      what, header_line));
  }
  Next();
  while (Peek().kind != TokenKind::kDedent) ParseStatement(body);
  Next();
  return body;
}

StmtPtr Parser::ParseCompound() {
  const Token& t = Peek();
  SourcePos start = t.span.begin;
  if (t.IsOp("@")) {
    ExprList decorators;
    while (AcceptOp("@")) {
      decorators.push_back(ParseNamedExpression());
      if (Peek().kind != TokenKind::kNewline) Fail();
      Next();
    }
    SourcePos def_start = Peek().span.begin;
    if (AtName("def")) return ParseFunctionDef(std::move(decorators), def_start);
    if (AtName("class")) return ParseClass(std::move(decorators), def_start);
    if (AtName("async") && Peek(1).IsName("def")) return ParseAsync();
    Fail();
  }
  if (t.text == "def") return ParseFunctionDef({}, start);
  if (t.text == "if") return ParseIf(start, "if");
  if (t.text == "while") return ParseWhile();
  if (t.text == "for") return ParseFor(start);
  if (t.text == "with") return ParseWith(start);
  if (t.text == "try") return ParseTry();
  if (t.text == "class") return ParseClass({}, start);
  return ParseAsync();
}

StmtPtr Parser::ParseFunctionDef(ExprList decorators, SourcePos start) {
  Next();  // def
  auto node = std::make_unique<FunctionDef>();
  node->name = ExpectName().text;
  ExpectForcedOp("(");
  node->args = ParseParameters(/*is_lambda=*/false, ")");
  ExpectOp(")");
  if (AcceptOp("->")) node->returns = ParseExpression();
  node->body = ParseBlock("function definition", start.line, /*forced_colon=*/true);
  node->decorator_list = std::move(decorators);
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseIf(SourcePos start, const char* keyword) {
  Next();  // if / elif
  auto node = std::make_unique<If>();
  node->test = ParseNamedExpression();
  node->body = ParseBlock(fmt::format("'{}' statement", keyword), start.line, false);
  if (AtName("elif")) {
    NestingGuard guard(*this);  // each `elif` is an If inside the previous one's orelse
    node->orelse.push_back(ParseIf(Peek().span.begin, "elif"));
  } else if (AtName("else")) {
    int line = Next().span.begin.line;
    node->orelse = ParseBlock("'else' statement", line, true);
  }
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseWhile() {
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<While>();
  node->test = ParseNamedExpression();
  node->body = ParseBlock("'while' statement", start.line, false);
  if (AtName("else")) {
    int line = Next().span.begin.line;
    node->orelse = ParseBlock("'else' statement", line, true);
  }
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseFor(SourcePos start) {
  Next();  // for
  auto node = std::make_unique<For>();
  node->target = ParseTargetList(TargetKind::kFor);
  if (!AtName("in")) Fail();
  Next();
  node->iter = ParseStarExpressions();
  node->body = ParseBlock("'for' statement", start.line, false);
  if (AtName("else")) {
    int line = Next().span.begin.line;
    node->orelse = ParseBlock("'else' statement", line, true);
  }
  node->span = {start, LastEnd()};
  return node;
}

namespace {

// with_item: expression ['as' star_target]
std::unique_ptr<WithItem> ParseWithItem(Parser& p) {
  auto item = std::make_unique<WithItem>();
  item->context_expr = p.ParseExpression();
  if (p.AtName("as")) {
    p.Next();
    ExprPtr target = p.AtOp("*") ? p.ParseTargetList(TargetKind::kStar) : p.ParseBitOr();
    p.ToTarget(*target, TargetKind::kStar, false);
    item->optional_vars = std::move(target);
  }
  return item;
}

}  // namespace

StmtPtr Parser::ParseWith(SourcePos start) {
  Next();  // with
  auto node = std::make_unique<With>();
  if (AtOp("(")) {
    // CPython first tries `with (item, item, ...):`; `with (a, b):` and `with (a) as b:`
    // are ordinary expressions and fall through to the second form.
    size_t mark = Mark();
    try {
      Next();
      do {
        if (AtOp(")") && !node->items.empty()) break;  // `with ():` is an empty tuple.
        node->items.push_back(ParseWithItem(*this));
      } while (AcceptOp(","));
      ExpectOp(")");
      if (!AtOp(":")) Fail();
    } catch (const ParseFailure&) {
      node->items.clear();
      Reset(mark);
    } catch (const SyntaxErrorAt& e) {
      if (e.from_tokenizer) throw;
      node->items.clear();
      Reset(mark);
    }
  }
  if (node->items.empty()) {
    do {
      node->items.push_back(ParseWithItem(*this));
    } while (AcceptOp(","));
  }
  node->body = ParseBlock("'with' statement", start.line, false);
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseTry() {
  SourcePos start = Next().span.begin;
  auto node = std::make_unique<Try>();
  node->body = ParseBlock("'try' statement", start.line, true);
  bool star = false;
  while (AtName("except")) {
    SourcePos handler_start = Next().span.begin;
    if (AcceptOp("*")) star = true;
    auto handler = std::make_unique<ExceptHandler>();
    if (!AtOp(":")) {
      handler->type = ParseExpression();
      if (AtName("as")) {
        Next();
        handler->name = ExpectName().text;
      }
    }
    handler->body =
        ParseBlock(star ? "'except*' statement" : "'except' statement", handler_start.line, false);
    handler->span = {handler_start, LastEnd()};
    node->handlers.push_back(std::move(handler));
  }
  if (!node->handlers.empty() && AtName("else")) {
    int line = Next().span.begin.line;
    node->orelse = ParseBlock("'else' statement", line, true);
  }
  if (AtName("finally")) {
    int line = Next().span.begin.line;
    node->finalbody = ParseBlock("'finally' statement", line, true);
  }
  if (node->handlers.empty() && node->finalbody.empty()) {
    ErrorAt(Peek().span.begin, "expected 'except' or 'finally' block");
  }
  node->span = {start, LastEnd()};
  if (star) return MakeUnsupported("TryStar", start, node->span.end);
  return node;
}

StmtPtr Parser::ParseClass(ExprList decorators, SourcePos start) {
  Next();  // class
  auto node = std::make_unique<ClassDef>();
  node->name = ExpectName().text;
  // The bases are call arguments: parsed as a call and taken apart.
  if (AtOp("(")) {
    ExprPtr call = FinishCall(MakeNode<Name>(start, start), start);
    auto& parsed = static_cast<Call&>(*call);
    node->bases = std::move(parsed.args);
    node->keywords = std::move(parsed.keywords);
  }
  node->body = ParseBlock("class definition", start.line, false);
  node->decorator_list = std::move(decorators);
  node->span = {start, LastEnd()};
  return node;
}

StmtPtr Parser::ParseAsync() {
  SourcePos start = Next().span.begin;  // async
  StmtPtr inner;
  std::string_view name;
  if (AtName("def")) {
    inner = ParseFunctionDef({}, start);
    name = "AsyncFunctionDef";
  } else if (AtName("for")) {
    inner = ParseFor(start);
    name = "AsyncFor";
  } else if (AtName("with")) {
    inner = ParseWith(start);
    name = "AsyncWith";
  } else {
    Fail();
  }
  return MakeUnsupported(name, start, inner->span.end);
}

StmtPtr Parser::TryParseMatch() {
  // match_stmt: "match" subject_expr ':' NEWLINE INDENT case_block+ DEDENT. `match` is a
  // soft keyword: when this does not fit, the line is an ordinary statement.
  size_t mark = Mark();
  SourcePos start = Peek().span.begin;
  try {
    Next();
    ParseStarNamedExpression();
    while (AcceptOp(",")) {
      if (AtOp(":")) break;
      ParseStarNamedExpression();
    }
    ExpectOp(":");
    if (Peek().kind != TokenKind::kNewline || Peek(1).kind != TokenKind::kIndent) Fail();
  } catch (const ParseFailure&) {
    Reset(mark);
    return nullptr;
  } catch (const SyntaxErrorAt& e) {
    if (e.from_tokenizer) throw;
    Reset(mark);
    return nullptr;
  }
  // The case blocks use pattern syntax, which the subset does not parse: skip them.
  Next();  // NEWLINE
  int depth = 0;
  do {
    const Token& t = Next();
    if (t.kind == TokenKind::kIndent) ++depth;
    if (t.kind == TokenKind::kDedent) --depth;
    if (t.kind == TokenKind::kEndMarker) Fail();
  } while (depth > 0);
  return MakeUnsupported("Match", start, LastEnd());
}

}  // namespace tdc::lang
