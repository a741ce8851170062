// The CUDA backend's host code (backend.cc: planning, operands, broadcasting, opaque nodes,
// outputs) through the executor, with the kernel code run on the host
// (libtdc_backend_cuda_emulated.so). The ASan build runs these; the release build also runs
// the whole suite on it (conformance.suite:cuda-emulated).
#include <gtest/gtest.h>

#include <string>

#include "conformance/executor/bundled_backends_testing.h"
#include "conformance/executor/executor.h"

namespace tdc::conformance {
namespace {

std::string VerdictOf(const std::string& id) {
  auto backend = testing::LoadBundled("cuda_emulated");
  if (!backend) return "not loaded";
  return FormatVerdict(RunCase(*backend, std::get<CaseSpec>(ResolveCase(id)), {30, true, {}}));
}

TEST(CudaBackendTest, ItsOpsPassAtBothLevels) {
  // add and its operator form by rank, layout (strided inputs) and operand kind (tensors,
  // Python floats and ints, broadcast); pow with a number as the base at the ATen level; the
  // reductions over every dim, one dim, a tuple of dims, with and without keepdim; views and
  // copies by rank, layout and negative dims; comparisons (bool results) with tensors and
  // numbers; matmul of 1-d and 2-d operands, batched with broadcast batch dims, the @
  // operator, at the ATen level as AOT autograd lowers it: dot, mv, mm, bmm, _unsafe_view
  // (TDC_CUDA_ALIAS).
  for (const char* op :
       {"add", "pow", "gelu", "sigmoid", "sum", "mean", "amax", "view", "transpose", "permute",
        "expand", "squeeze", "unsqueeze", "clone", "eq", "gt", "matmul"}) {
    for (const char* level : {"dynamo", "aten"}) {
      const std::string id =
          std::string("fixtures:probes:") + op + ":profile=torch-2.13:level=" + level;
      EXPECT_EQ(VerdictOf(id), "PASS") << id;
    }
  }
}

TEST(CudaBackendTest, WherePassesAtTheDynamoLevel) {
  // where with a bool condition and tensors or numbers (at the ATen level a number becomes
  // aten.scalar_tensor, which the backend does not compute).
  EXPECT_EQ(VerdictOf("fixtures:probes:where:profile=torch-2.13:level=dynamo"), "PASS");
}

TEST(CudaBackendTest, Float64GraphsPass) {
  for (const char* level : {"dynamo", "aten"}) {
    const std::string id =
        std::string("fixtures:guards:globals_read_by_the_trace:profile=torch-2.13:level=") + level;
    EXPECT_EQ(VerdictOf(id), "PASS") << id;
  }
}

TEST(CudaBackendTest, ARowsAliasesPass) {
  // torch.nn.functional.relu (TDC_CUDA_ALIAS) beside a custom op the host runs.
  EXPECT_EQ(VerdictOf("fixtures:custom_op:s15_disable_custom_op:profile=torch-2.13:level=dynamo"),
            "PASS");
}

TEST(CudaBackendTest, OpaqueNodesRunOnTheHost) {
  EXPECT_EQ(VerdictOf("fixtures:names:custom_op:profile=torch-2.13:level=dynamo"), "PASS");
  EXPECT_EQ(VerdictOf("fixtures:disable:s18_partial_disable:profile=torch-2.13:level=aten"),
            "PASS");
}

TEST(CudaBackendTest, WhatItDoesNotComputeIsNotSupportedBeforeItRuns) {
  auto backend = testing::LoadBundled("cuda_emulated");
  ASSERT_TRUE(backend);
  const Verdict v = RunCase(
      *backend,
      std::get<CaseSpec>(ResolveCase("fixtures:probes:max:profile=torch-2.13:level=dynamo")),
      {30, false, {}});
  // Graphs 0 to 7 are torch.max(a), every element; graph 8 is torch.max(a, 0), values and
  // indices.
  EXPECT_EQ(FormatVerdict(v),
            "NOT_SUPPORTED backend_compile/not_supported: graph 8/0 (dynamo level) can_compile: "
            "node 1: torch.max with these arguments (a dim: values and indices) are outside this "
            "backend");
}

}  // namespace
}  // namespace tdc::conformance
