// Token access, error reporting and the entry points of the parser.
#include <fmt/format.h>

#include "reference/lang/coding_declaration.h"
#include "reference/lang/compile_errors.h"
#include "reference/lang/parser.h"
#include "reference/lang/parser_internal.h"
#include "reference/lang/subset.h"

namespace tdc::lang {
namespace {

// Deeper nesting than this is refused before it can exhaust the C++ stack (CPython's
// own limits differ: see SEMANTICS.md, "Limits").
constexpr int kMaxNesting = 1000;

}  // namespace

Parser::Parser(const SourceText& source, const std::string& filename)
    : source_(source), filename_(filename), tokens_(Tokenize(source, filename)) {}

void Parser::RaiseTokenizerError(const Token& token) { throw SyntaxErrorAt{token.error, true}; }

const Token& Parser::Next() {
  const Token& token = Peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  // CPython's node ends skip NEWLINE / INDENT / DEDENT (the last non-whitespace token).
  if (token.kind != TokenKind::kNewline && token.kind != TokenKind::kIndent &&
      token.kind != TokenKind::kDedent && token.kind != TokenKind::kEndMarker) {
    last_end_ = token.span.end;
  }
  return token;
}

void Parser::Reset(size_t mark) { pos_ = mark; }

bool Parser::AcceptOp(std::string_view op) {
  if (!AtOp(op)) return false;
  Next();
  return true;
}

const Token& Parser::ExpectOp(std::string_view op) {
  if (!AtOp(op)) Fail();
  return Next();
}

const Token& Parser::ExpectForcedOp(std::string_view op) {
  if (!AtOp(op)) ErrorAt(Peek().span.begin, fmt::format("expected '{}'", op));
  return Next();
}

const Token& Parser::ExpectName() {
  const Token& token = Peek();
  if (token.kind != TokenKind::kName || IsKeyword(token.text)) Fail();
  return Next();
}

void Parser::ErrorAt(SourcePos pos, const std::string& message, DiagnosticKind kind) {
  Diagnostic d;
  d.kind = kind;
  d.file = filename_;
  d.line = pos.line;
  d.column = source_.CharColumn(pos.line, pos.col);
  d.message = message;
  throw SyntaxErrorAt{d, false};
}

void Parser::IndentationErrorAt(SourcePos pos, const std::string& message) {
  ErrorAt(pos, message);
}

void Parser::EnterNesting() {
  if (++depth_ > kMaxNesting) {
    // Valid Python up to CPython's own limits, so a refusal (DESIGN D13), not a syntax
    // error: see SEMANTICS.md, "Limits".
    ErrorAt(Peek().span.begin,
            fmt::format("too many nested expressions (the tdconform parser's limit is {})",
                        kMaxNesting),
            DiagnosticKind::kUnsupported);
  }
}

std::unique_ptr<Module> Parser::ParseModule() {
  auto module = std::make_unique<Module>();
  while (Peek().kind != TokenKind::kEndMarker) ParseStatement(module->body);
  return module;
}

Diagnostic Parser::DiagnoseFailure() {
  const Token& last = tokens_[furthest_];
  Diagnostic d;
  d.file = filename_;
  d.line = last.span.begin.line;
  d.column = source_.CharColumn(last.span.begin.line, last.span.begin.col);
  if (last.kind == TokenKind::kIndent || last.kind == TokenKind::kDedent) {
    // CPython reports these at the end of the indentation, counted without the +1.
    d.column -= 1;
    d.message = last.kind == TokenKind::kIndent ? "unexpected indent" : "unexpected unindent";
    return d;
  }
  d.message = "invalid syntax";
  return PreferLaterTokenizerError(d);
}

Diagnostic Parser::PreferLaterTokenizerError(const Diagnostic& parser_error) {
  const Token& final = tokens_.back();
  if (final.kind == TokenKind::kTokenizerError) return final.error;
  // An unclosed bracket wins when it was opened on a line before the last token the
  // parser fetched (not before the error's own line).
  int fetched_line = tokens_[furthest_].span.begin.line;
  if (final.kind == TokenKind::kEofInBrackets && fetched_line > final.error.line) {
    return final.error;
  }
  return parser_error;
}

ParseResult Parse(std::string_view source, const std::string& filename) {
  ParseResult result;
  if (std::optional<Diagnostic> refusal = RefuseNonUtf8Coding(source, filename)) {
    result.error = std::move(refusal);
    return result;
  }
  SourceText text(source);
  Parser parser(text, filename);
  try {
    result.module = parser.ParseModule();
  } catch (const ParseFailure&) {
    result.error = parser.DiagnoseFailure();
  } catch (const SyntaxErrorAt& e) {
    result.error = e.from_tokenizer ? e.diagnostic : parser.PreferLaterTokenizerError(e.diagnostic);
  }
  return result;
}

ParseResult ParseSubset(std::string_view source, const std::string& filename) {
  ParseResult result = Parse(source, filename);
  if (result.module == nullptr) return result;
  if (const Node* unsupported = FirstUnsupported(*result.module)) {
    SourceText text(source);
    Diagnostic d;
    d.kind = DiagnosticKind::kUnsupported;
    d.file = filename;
    d.line = unsupported->span.begin.line;
    d.column = text.CharColumn(d.line, unsupported->span.begin.col);
    d.message = fmt::format("unsupported construct '{}' (not in the tdconform subset)",
                            ClassName(*unsupported));
    result.module.reset();
    result.error = d;
    return result;
  }
  // A program in the subset that CPython's compiler still refuses (`return` outside a
  // function, a nonlocal name with no binding, ...) is invalid Python (DESIGN D13).
  if (std::optional<Diagnostic> error = FirstCompileError(*result.module, filename)) {
    result.module.reset();
    result.error = std::move(error);
  }
  return result;
}

}  // namespace tdc::lang
