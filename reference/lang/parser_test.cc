// Parser behaviour on small programs. Dumps are compared against text that CPython 3.11's
// `ast.dump(..., include_attributes=True)` prints for the same source; diagnostics against
// the SyntaxError CPython raises. (The corpus-wide byte comparison with CPython is
// testing/cpython_ast_test.py.)
#include "reference/lang/parser.h"

#include <gtest/gtest.h>

#include "reference/lang/ast_dump.h"

namespace tdc::lang {
namespace {

std::string Dump(const char* source) {
  ParseResult r = Parse(source, "t.py");
  if (!r.module) return "error: " + FormatDiagnostic(*r.error);
  return DumpAst(*r.module);
}

std::string Error(const char* source) {
  ParseResult r = ParseSubset(source, "t.py");
  if (r.module) return "no error";
  return FormatDiagnosticWithoutFile(*r.error);
}

TEST(ParserTest, AssignmentTargetsGetStoreContext) {
  EXPECT_EQ(Dump("a, *b = c\n"),
            "Module(body=[Assign(targets=[Tuple(elts=[Name(id='a', ctx=Store(), lineno=1, "
            "col_offset=0, end_lineno=1, end_col_offset=1), Starred(value=Name(id='b', "
            "ctx=Store(), lineno=1, col_offset=4, end_lineno=1, end_col_offset=5), ctx=Store(), "
            "lineno=1, col_offset=3, end_lineno=1, end_col_offset=5)], ctx=Store(), lineno=1, "
            "col_offset=0, end_lineno=1, end_col_offset=5)], value=Name(id='c', ctx=Load(), "
            "lineno=1, col_offset=8, end_lineno=1, end_col_offset=9), lineno=1, col_offset=0, "
            "end_lineno=1, end_col_offset=9)], type_ignores=[])");
}

TEST(ParserTest, DecoratedFunctionStartsAtDef) {
  EXPECT_EQ(Dump("@d\ndef f(): pass\n"),
            "Module(body=[FunctionDef(name='f', args=arguments(posonlyargs=[], args=[], "
            "kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Pass(lineno=2, col_offset=9, "
            "end_lineno=2, end_col_offset=13)], decorator_list=[Name(id='d', ctx=Load(), "
            "lineno=1, col_offset=1, end_lineno=1, end_col_offset=2)], lineno=2, col_offset=0, "
            "end_lineno=2, end_col_offset=13)], type_ignores=[])");
}

TEST(ParserTest, PowerBindsTighterThanUnaryMinusOnTheLeft) {
  EXPECT_EQ(Dump("-2**-3\n"),
            "Module(body=[Expr(value=UnaryOp(op=USub(), operand=BinOp(left=Constant(value=2, "
            "lineno=1, col_offset=1, end_lineno=1, end_col_offset=2), op=Pow(), "
            "right=UnaryOp(op=USub(), operand=Constant(value=3, lineno=1, col_offset=5, "
            "end_lineno=1, end_col_offset=6), lineno=1, col_offset=4, end_lineno=1, "
            "end_col_offset=6), lineno=1, col_offset=1, end_lineno=1, end_col_offset=6), "
            "lineno=1, col_offset=0, end_lineno=1, end_col_offset=6), lineno=1, col_offset=0, "
            "end_lineno=1, end_col_offset=6)], type_ignores=[])");
}

TEST(ParserTest, ImplicitConcatenationAndNumberForms) {
  EXPECT_EQ(Dump("('a' \"b\"\n 'c', 0x10, 1e16, 2j)\n"),
            "Module(body=[Expr(value=Tuple(elts=[Constant(value='abc', lineno=1, col_offset=1, "
            "end_lineno=2, end_col_offset=4), Constant(value=16, lineno=2, col_offset=6, "
            "end_lineno=2, end_col_offset=10), Constant(value=1e+16, lineno=2, col_offset=12, "
            "end_lineno=2, end_col_offset=16), Constant(value=2j, lineno=2, col_offset=18, "
            "end_lineno=2, end_col_offset=20)], ctx=Load(), lineno=1, col_offset=0, "
            "end_lineno=2, end_col_offset=21), lineno=1, col_offset=0, end_lineno=2, "
            "end_col_offset=21)], type_ignores=[])");
}

TEST(ParserTest, EmptyParenthesesAfterWithAreOneTupleItem) {
  // CPython: `with ():` is not the parenthesized item list (which needs an item) but
  // one item whose expression is the empty tuple.
  ParseResult r = Parse("with ():\n    pass\n", "t.py");
  ASSERT_NE(r.module, nullptr);
  const auto& with = As<With>(*r.module->body[0]);
  ASSERT_EQ(with.items.size(), 1u);
  EXPECT_EQ(with.items[0]->context_expr->kind, NodeKind::kTuple);
}

TEST(ParserTest, SyntaxErrorsMatchCPython) {
  EXPECT_EQ(Error("def f(x)\n    return x\n"), "1:9: error: expected ':'");
  EXPECT_EQ(Error("x = 1\n    y = 2\n"), "2:4: error: unexpected indent");
  EXPECT_EQ(Error("f() = 1\n"),
            "1:1: error: cannot assign to function call here. Maybe you meant '==' instead of "
            "'='?");
  EXPECT_EQ(Error("(a, f()) = 1\n"), "1:5: error: cannot assign to function call");
  EXPECT_EQ(Error("x = 1 2\n"), "1:7: error: invalid syntax");
  EXPECT_EQ(Error("f(a b)\n"), "1:3: error: invalid syntax. Perhaps you forgot a comma?");
  EXPECT_EQ(Error("def f():\nreturn 1\n"),
            "2:1: error: expected an indented block after function definition on line 1");
  EXPECT_EQ(Error("x = 1 if y\n"), "1:5: error: expected 'else' after 'if' expression");
  EXPECT_EQ(Error("f(a=1, b, c=2)\n"), "1:14: error: positional argument follows keyword argument");
  EXPECT_EQ(Error("x = 1 2\ny = 'abc\n"),
            "2:5: error: unterminated string literal (detected at line 2)");
  EXPECT_EQ(Error("y = (1\nz = 2\n"), "1:5: error: '(' was never closed");
  EXPECT_EQ(Error("x = 1 2\ny = (\n"), "1:7: error: invalid syntax");
  EXPECT_EQ(Error("try:\n  pass\nx = 1\n"), "3:1: error: expected 'except' or 'finally' block");
  EXPECT_EQ(Error("def f(a=1, b): pass\n"),
            "1:12: error: non-default argument follows default argument");
}

TEST(ParserTest, UnsupportedConstructsAreNamed) {
  EXPECT_EQ(Error("class A:\n  pass\n"), "no error");
  EXPECT_EQ(Error("async def f():\n  pass\n"),
            "1:1: error: unsupported construct 'AsyncFunctionDef' (not in the tdconform subset)");
  EXPECT_EQ(Error("match x:\n  case 1:\n    pass\n"),
            "1:1: error: unsupported construct 'Match' (not in the tdconform subset)");
  EXPECT_EQ(Error("match = 1\nmatch(x)\n"), "no error");
  EXPECT_EQ(Error("x = [i for i in (j for j in y)]\n"), "no error");  // a GeneratorExp
  EXPECT_EQ(Error("x = [i for i in {j for j in y}]\n"),
            "1:17: error: unsupported construct 'SetComp' (not in the tdconform subset)");
  EXPECT_EQ(Error("f(x for x in y, 1)\n"),
            "1:3: error: Generator expression must be parenthesized");
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string minus(5000, '-');
  ParseResult r = Parse(minus + "x\n", "t.py");
  EXPECT_EQ(r.module, nullptr);
  ASSERT_TRUE(r.error.has_value());
  std::string lambdas;
  for (int i = 0; i < 3000; ++i) lambdas += "lambda: ";
  EXPECT_TRUE(Parse(lambdas + "1\n", "t.py").error.has_value());
}

}  // namespace
}  // namespace tdc::lang
