// The recursive-descent parser's state; shared by the parser_*.cc files only.
//
// Node positions follow CPython's EXTRA: a node spans from the first token of the rule
// that built it to the last token it consumed, so `(a) + b` starts at the parenthesis
// while the parenthesized `a` keeps its own position.
//
// Errors follow CPython's two-level scheme. A rule that simply does not match throws
// ParseFailure; the error is then "invalid syntax" (or an indentation / unclosed-bracket
// error) at the furthest token the parser looked at, as CPython reports its generic
// errors. Where CPython's grammar has an `invalid_*` rule or a forced token, the parser
// throws SyntaxErrorAt with that rule's message and location. Tokenizer errors are
// thrown when the parser first looks at the token where the tokenizer stopped.
#ifndef TDCONFORM_REFERENCE_LANG_PARSER_INTERNAL_H_
#define TDCONFORM_REFERENCE_LANG_PARSER_INTERNAL_H_

#include <algorithm>
#include <string>
#include <vector>

#include "reference/lang/ast.h"
#include "reference/lang/lexer.h"
#include "reference/lang/source_text.h"
#include "reference/lang/token.h"

namespace tdc::lang {

struct ParseFailure {};

struct SyntaxErrorAt {
  Diagnostic diagnostic;
  bool from_tokenizer = false;
};

// Which kind of target a target list is (CPython's TARGETS_TYPE), for error messages.
enum class TargetKind { kStar, kFor, kDel };

class Parser {
 public:
  Parser(const SourceText& source, const std::string& filename);

  std::unique_ptr<Module> ParseModule();  // Throws ParseFailure / SyntaxErrorAt.
  Diagnostic DiagnoseFailure();           // After a ParseFailure: CPython's generic error.
  // CPython re-tokenizes the rest of the file after a parser error; a tokenizer error
  // found there (or an unclosed bracket opened before the error line) replaces it.
  Diagnostic PreferLaterTokenizerError(const Diagnostic& parser_error);

  // ---- Tokens (parser_core.cc) ----
  // Inline: the parser fetches a token hundreds of times per statement (issue 30).
  const Token& Peek(int ahead = 0) {
    size_t index = std::min(pos_ + ahead, tokens_.size() - 1);
    furthest_ = std::max(furthest_, index);
    const Token& token = tokens_[index];
    if (token.kind == TokenKind::kTokenizerError || token.kind == TokenKind::kEofInBrackets)
        [[unlikely]] {
      RaiseTokenizerError(token);
    }
    return token;
  }
  const Token& Next();
  bool AtOp(std::string_view op) { return Peek().IsOp(op); }
  bool AtName(std::string_view name) { return Peek().IsName(name); }
  bool AcceptOp(std::string_view op);
  const Token& ExpectOp(std::string_view op);        // ParseFailure if absent.
  const Token& ExpectForcedOp(std::string_view op);  // CPython's `&&'op'`: "expected 'op'".
  const Token& ExpectName();                         // A NAME that is not a keyword.
  // End of the last consumed token other than NEWLINE / INDENT / DEDENT: where a node
  // built now ends.
  SourcePos LastEnd() const { return last_end_; }
  [[noreturn]] void Fail() { throw ParseFailure{}; }
  [[noreturn]] void ErrorAt(SourcePos pos, const std::string& message,
                            DiagnosticKind kind = DiagnosticKind::kSyntaxError);
  [[noreturn]] void IndentationErrorAt(SourcePos pos, const std::string& message);
  size_t Mark() const { return pos_; }
  void Reset(size_t mark);
  void EnterNesting();  // Guards the C++ stack against pathological nesting.
  void LeaveNesting() { --depth_; }

  // ---- Statements (parser_stmt.cc, parser_compound.cc) ----
  void ParseStatement(StmtList& out);
  void ParseSimpleStatements(StmtList& out);
  void CheckLegacyStatement(const Stmt& stmt);
  StmtPtr ParseSimpleStatement();
  StmtPtr ParseExpressionStatement();
  StmtPtr ParseImport();
  StmtPtr ParseFromImport();
  StmtPtr ParseCompound();
  StmtPtr ParseFunctionDef(ExprList decorators, SourcePos start);
  StmtPtr ParseIf(SourcePos start, const char* keyword);
  StmtPtr ParseWhile();
  StmtPtr ParseFor(SourcePos start);
  StmtPtr ParseWith(SourcePos start);
  StmtPtr ParseTry();
  StmtPtr ParseClass(ExprList decorators, SourcePos start);
  StmtPtr ParseAsync();
  StmtPtr TryParseMatch();
  // `':' block` after a compound statement header; `what` names the statement for the
  // "expected an indented block after ..." message.
  StmtList ParseBlock(const std::string& what, int header_line, bool forced_colon);
  void ExpectColon(bool forced);

  // ---- Expressions (parser_expr.cc, parser_atom.cc) ----
  ExprPtr ParseStarExpressions();      // star_expressions: an unparenthesized tuple.
  ExprPtr ParseStarExpression();       // star_expression
  ExprPtr ParseStarNamedExpression();  // star_named_expression
  ExprPtr ParseStarredBitOr();         // '*' bitwise_or (at the '*')
  ExprPtr ParseNamedExpression();      // named_expression
  ExprPtr ParseExpression();           // expression
  ExprPtr ParseDisjunction();
  ExprPtr ParseConjunction();
  ExprPtr ParseInversion();
  ExprPtr ParseComparison();
  ExprPtr ParseBitOr();
  ExprPtr ParseBinaryLevel(int level);
  ExprPtr ParseFactor();
  ExprPtr ParsePower();
  ExprPtr ParsePrimary();
  ExprPtr ParseAtom();
  ExprPtr ParseStrings();
  ExprPtr ParseParenthesized();
  ExprPtr ParseListDisplay();
  ExprPtr ParseBraceDisplay();
  ExprPtr ParseLambda();
  ExprPtr ParseYieldExpr();
  ExprPtr ParseSlices();
  ExprPtr ParseSlice();
  // `(args)` after `func`; `start` is where the primary began (CPython's node positions
  // start at the rule's first token, a parenthesis included).
  ExprPtr FinishCall(ExprPtr func, SourcePos start);
  std::vector<std::unique_ptr<Comprehension>> ParseComprehensionClauses();
  // `elt for ...` after `(` at `begin`: a generator expression (its clauses parsed; the caller
  // ends its span after the closing parenthesis).
  ExprPtr MakeGeneratorExp(ExprPtr elt, SourcePos begin);
  bool AtExpressionStart();
  // Inside brackets, `a b` is "invalid syntax. Perhaps you forgot a comma?".
  void CheckForgottenComma(const Expr& previous);

  // ---- Parameters (parser_params.cc) ----
  std::unique_ptr<Arguments> ParseParameters(bool is_lambda, std::string_view closer);

  // ---- Targets (targets.cc) ----
  ExprPtr ParseTargetList(TargetKind kind);  // star_targets at the bitwise_or level.
  void ToTarget(Expr& target, TargetKind kind, bool maybe_meant_equality);
  void SetContext(Expr& expr, ExprContext ctx);
  // Whether the source has `(` right before `e` and `)` right after it.
  bool IsParenthesized(const Expr& e);

  const SourceText& source() const { return source_; }

 private:
  const SourceText& source_;
  std::string filename_;
  // Fetching the token where the tokenizer failed raises its error, as does fetching the
  // end of the file inside brackets (CPython's ERRORTOKEN with E_EOF).
  [[noreturn]] static void RaiseTokenizerError(const Token& token);
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t furthest_ = 0;  // CPython's p->fill - 1: the last token the parser fetched.
  SourcePos last_end_;
  int depth_ = 0;
};

// RAII for Parser::EnterNesting / LeaveNesting.
class NestingGuard {
 public:
  explicit NestingGuard(Parser& p) : p_(p) { p_.EnterNesting(); }
  ~NestingGuard() { p_.LeaveNesting(); }

 private:
  Parser& p_;
};

// RAII for a loop that wraps what it has built in one more node per round (`a.b.c`,
// `a + b + c`, `f()()`): each round puts the first operand one level deeper in the tree,
// so it counts as one level of nesting until the loop ends. The parser itself only loops
// there, but every later walk of the tree (the subset check, scopes, the interpreter, the
// destructors) recurses once per level.
class ChainGuard {
 public:
  explicit ChainGuard(Parser& p) : p_(p) {}
  ~ChainGuard() {
    for (; rounds_ > 0; --rounds_) p_.LeaveNesting();
  }
  void Grow() {
    ++rounds_;  // EnterNesting counts the level before it checks it.
    p_.EnterNesting();
  }

 private:
  Parser& p_;
  int rounds_ = 0;
};

template <typename T>
std::unique_ptr<T> MakeNode(SourcePos begin, SourcePos end) {
  auto node = std::make_unique<T>();
  node->span = {begin, end};
  return node;
}

// CPython's name of an expression in error messages ("function call", "literal", ...).
std::string ExprDescription(const Expr& expr);

// Whether `e` can be the `bitwise_or` of CPython's invalid_named_expression rule (which
// excludes comparisons, `not`, and list / tuple / True / False / None).
bool IsBitwiseOrLevel(const Expr& e);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_PARSER_INTERNAL_H_
