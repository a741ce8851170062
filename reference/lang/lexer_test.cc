// Token streams and tokenizer errors; expected positions and messages are what CPython
// 3.11's tokenizer reports for the same text (checked with `ast.parse`).
#include "reference/lang/lexer.h"

#include <gtest/gtest.h>

#include <deque>

namespace tdc::lang {
namespace {

std::vector<Token> Lex(const char* text) {
  // A token's text views its source, so each source lives as long as the test binary (a
  // deque never moves what it holds).
  static std::deque<SourceText> sources;
  return Tokenize(sources.emplace_back(text), "t.py");
}

std::vector<TokenKind> Kinds(const std::vector<Token>& tokens) {
  std::vector<TokenKind> kinds;
  for (const Token& t : tokens) kinds.push_back(t.kind);
  return kinds;
}

using K = TokenKind;

TEST(LexerTest, IndentationBecomesIndentAndDedentTokens) {
  auto tokens = Lex("if x:\n    y\n\n  # comment\nz\n");
  EXPECT_EQ(Kinds(tokens),
            (std::vector<K>{K::kName, K::kName, K::kOp, K::kNewline, K::kIndent, K::kName,
                            K::kNewline, K::kDedent, K::kName, K::kNewline, K::kEndMarker}));
}

TEST(LexerTest, NewlinesInsideBracketsAreIgnored) {
  auto tokens = Lex("f(1,\n  2)\n");
  EXPECT_EQ(Kinds(tokens), (std::vector<K>{K::kName, K::kOp, K::kNumber, K::kOp, K::kNumber, K::kOp,
                                           K::kNewline, K::kEndMarker}));
  EXPECT_EQ(tokens[4].span.begin, (SourcePos{2, 2}));
}

TEST(LexerTest, MissingFinalNewlineIsAdded) {
  auto tokens = Lex("x");
  EXPECT_EQ(Kinds(tokens), (std::vector<K>{K::kName, K::kNewline, K::kEndMarker}));
}

TEST(LexerTest, LongestOperatorWins) {
  auto tokens = Lex("a **= b // c ... -> :=\n");
  EXPECT_EQ(tokens[1].text, "**=");
  EXPECT_EQ(tokens[3].text, "//");
  EXPECT_EQ(tokens[5].text, "...");
  EXPECT_EQ(tokens[6].text, "->");
  EXPECT_EQ(tokens[7].text, ":=");
}

TEST(LexerTest, StringsKeepPrefixAndSpanLines) {
  auto tokens = Lex("s = rb'x' + '''a\nb'''\n");
  EXPECT_EQ(tokens[2].text, "rb'x'");
  EXPECT_EQ(tokens[4].span.begin, (SourcePos{1, 12}));
  EXPECT_EQ(tokens[4].span.end, (SourcePos{2, 4}));
}

void ExpectError(const char* text, int line, int column, const std::string& message) {
  auto tokens = Lex(text);
  ASSERT_FALSE(tokens.empty());
  const Token& last = tokens.back();
  ASSERT_TRUE(last.kind == K::kTokenizerError || last.kind == K::kEofInBrackets) << text;
  EXPECT_EQ(last.error.line, line) << text;
  EXPECT_EQ(last.error.column, column) << text;
  EXPECT_EQ(last.error.message, message) << text;
}

TEST(LexerTest, ErrorsAtCPythonPositions) {
  ExpectError("x = 'abc\n", 1, 5, "unterminated string literal (detected at line 1)");
  ExpectError("x = \"\"\"abc\n\n", 1, 5,
              "unterminated triple-quoted string literal (detected at line 2)");
  ExpectError("x = 1)\n", 1, 6, "unmatched ')'");
  ExpectError("x = (1]\n", 1, 7, "closing parenthesis ']' does not match opening parenthesis '('");
  ExpectError("x = (1,\n2]\n", 2, 2,
              "closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  ExpectError("x = [1, 2\n", 1, 5, "'[' was never closed");
  ExpectError("if x:\n        a = 1\n    b = 2\n", 3, 10,
              "unindent does not match any outer indentation level");
  ExpectError("if x:\n\tpass\n        pass\n", 3, 1,
              "inconsistent use of tabs and spaces in indentation");
  ExpectError("x = 1 \\ 2\n", 1, 8, "unexpected character after line continuation character");
  ExpectError("x = 1_\n", 1, 6, "invalid decimal literal");
  ExpectError("x = 0x\n", 1, 6, "invalid hexadecimal literal");
  ExpectError("x = 0b2\n", 1, 7, "invalid digit '2' in binary literal");
  ExpectError("x = 09\n", 1, 5,
              "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
              "for octal integers");
}

TEST(LexerTest, NestingLimitIsCPythonsTwoHundredBrackets) {
  std::string deep(201, '(');
  auto tokens = Lex(deep.c_str());
  EXPECT_EQ(tokens.back().kind, K::kTokenizerError);
  EXPECT_EQ(tokens.back().error.message, "too many nested parentheses");
  EXPECT_EQ(tokens.back().error.column, 201);
  std::string ok = std::string(200, '(') + "1" + std::string(200, ')') + "\n";
  EXPECT_EQ(Lex(ok.c_str()).back().kind, K::kEndMarker);
}

TEST(LexerTest, KeywordsAreHard) {
  EXPECT_TRUE(IsKeyword("lambda"));
  EXPECT_TRUE(IsKeyword("None"));
  EXPECT_FALSE(IsKeyword("match"));  // A soft keyword.
  EXPECT_FALSE(IsKeyword("print"));
}

}  // namespace
}  // namespace tdc::lang
