// What the compile-time checks do where no error fixture can show it: the error fixtures
// (fixtures/errors/compile_*) hold CPython's own diagnostics, checked by lang.error_cross_check.
#include "reference/lang/compile_errors.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/lang/parser.h"

namespace tdc::lang {
namespace {

std::string Loops(int count, int indent) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    out += std::string(4 * (indent + i), ' ') + "for x" + std::to_string(i) + " in y:\n";
  }
  return out + std::string(4 * (indent + count), ' ') + "pass\n";
}

// A finally body is compiled twice, the second time one block deeper; CPython 3.11 raises
// "too many statically nested blocks" there for 20 loops (probed), at a place the reference
// does not follow, so it refuses the program instead.
TEST(CompileErrors, FinallyBodyNearTheBlockLimitIsRefused) {
  ParseResult deep = ParseSubset("try:\n    pass\nfinally:\n" + Loops(20, 1), "p.py");
  ASSERT_TRUE(deep.error);
  EXPECT_EQ(deep.error->kind, DiagnosticKind::kUnsupported);
  EXPECT_EQ(FormatDiagnostic(*deep.error),
            "p.py:1:1: error: a try statement's blocks near CPython's limit of 20 statically "
            "nested blocks are not modeled");
  // 19 loops compile there (probed), and the reference runs them.
  EXPECT_FALSE(ParseSubset("try:\n    pass\nfinally:\n" + Loops(19, 1), "p.py").error);
}

TEST(CompileErrors, AProgramThatCompilesHasNone) {
  ParseResult ok = ParseSubset(
      "def f(a, *b, c=1, **d):\n    global g\n    g = a\n    def h():\n        nonlocal c\n"
      "        c = 2\n    for x in b:\n        try:\n            break\n        finally:\n"
      "            continue\n    else:\n        return [y for *y, in d]\n",
      "p.py");
  EXPECT_FALSE(ok.error) << (ok.error ? FormatDiagnostic(*ok.error) : "");
}

}  // namespace
}  // namespace tdc::lang
