// What the compile-time checks do where no error fixture can show it: the error fixtures
// (fixtures/errors/compile_*) hold CPython's own diagnostics, checked by lang.error_cross_check.
#include "reference/lang/compile_errors.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/lang/parser.h"

namespace tdc::lang {
namespace {

// Nested finally bodies are compiled twice each (the normal and the exceptional path), as
// CPython compiles them: 2^22 of them here. Past a million statements the reference refuses.
TEST(CompileErrors, ExponentiallyManyFinallyBodiesAreRefused) {
  std::string program;
  for (int depth = 0; depth < 22; ++depth) {
    const std::string indent(4 * 2 * depth, ' ');
    program += indent + "try:\n" + indent + "    pass\n" + indent + "finally:\n";
  }
  program += std::string(4 * 2 * 22, ' ') + "pass\n";
  ParseResult result = ParseSubset(program, "p.py");
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, DiagnosticKind::kUnsupported);
  EXPECT_NE(FormatDiagnostic(*result.error)
                .find("whose finally bodies CPython would compile more than a million "
                      "statements for is not modeled"),
            std::string::npos)
      << FormatDiagnostic(*result.error);
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
