#include "reference/base/diagnostic.h"

#include <gtest/gtest.h>

namespace tdc {
namespace {

TEST(DiagnosticTest, FormatsFileLineColumnAndMessage) {
  Diagnostic d{DiagnosticKind::kSyntaxError, "fixtures/errors/x.py", 3, 14, "expected ':'"};
  EXPECT_EQ(FormatDiagnostic(d), "fixtures/errors/x.py:3:14: error: expected ':'");
  EXPECT_EQ(FormatDiagnosticWithoutFile(d), "3:14: error: expected ':'");
}

}  // namespace
}  // namespace tdc
