// The subset check reports the first unsupported node in CPython's ast.walk order.
#include "reference/lang/subset.h"

#include <gtest/gtest.h>

#include "reference/lang/parser.h"

namespace tdc::lang {
namespace {

std::string FirstUnsupportedAt(const char* source) {
  ParseResult r = Parse(source, "t.py");
  if (!r.module) return "syntax error";
  const Node* node = FirstUnsupported(*r.module);
  if (node == nullptr) return "none";
  return std::string(ClassName(*node)) + "@" + std::to_string(node->span.begin.line) + ":" +
         std::to_string(node->span.begin.col);
}

TEST(SubsetTest, BreadthFirstShallowerNodeWins) {
  // The annotation (depth 3: Module > FunctionDef > If > AnnAssign) is deeper than the
  // NamedExpr (Module > Expr > NamedExpr), which ast.walk reaches first although it comes
  // later in the file; at equal depth the earlier statement's subtree wins.
  EXPECT_EQ(FirstUnsupportedAt("def f():\n    if x:\n        z: int = 1\n(y := 1)\n"),
            "NamedExpr@4:1");
  EXPECT_EQ(FirstUnsupportedAt("def f():\n    z: int = 1\n(y := 1)\n"), "AnnAssign@2:4");
}

TEST(SubsetTest, DecoratorsComeAfterTheBodyInFieldOrder) {
  // FunctionDef fields: name, args, body, decorator_list: the body's statements are
  // queued before the decorator expressions.
  EXPECT_EQ(FirstUnsupportedAt("@{1}\ndef f():\n    x: int = 1\n"), "AnnAssign@3:4");
}

TEST(SubsetTest, SupportedProgramHasNone) {
  EXPECT_EQ(FirstUnsupportedAt("import torch\n@torch.compile(backend=backend)\ndef f(x):\n"
                               "    return [t * 2 for t in (x, x)]\nout = f(torch.ones(2))\n"),
            "none");
}

TEST(SubsetTest, AsyncAndYieldAreUnsupported) {
  EXPECT_EQ(FirstUnsupportedAt("async def f():\n    pass\n"), "AsyncFunctionDef@1:0");
  EXPECT_EQ(FirstUnsupportedAt("def g():\n    yield 1\n"), "Yield@2:4");
  EXPECT_EQ(FirstUnsupportedAt("s = f'{x}'\n"), "JoinedStr@1:4");
}

}  // namespace
}  // namespace tdc::lang
