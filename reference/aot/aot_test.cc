// The aot layer's table and its refusals; the lowerings themselves are checked against
// torch by the probe family (fixtures/probes/, compile ctests).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "reference/aot/aot_lowering.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/runtime/op_table.h"

namespace tdc::aot {
namespace {

// The ops of ops.def Dynamo never puts in a graph (lowerings.def's header says why).
bool NeverInAGraph(std::string_view op) {
  return op == "nonzero" || op == "item" || op == "tolist" || op == "size" || op == "dim" ||
         op == "numel";
}

TEST(LoweringsTest, EveryOpOfTheTableThatReachesAGraphHasALoweringAndNoOtherRowExists) {
  std::vector<std::string_view> lowered = {
#define TDC_LOWERING(op, function) #op,
#include "reference/aot/lowerings.def"
#undef TDC_LOWERING
  };
  for (std::string_view op : lowered) EXPECT_NE(runtime::FindOp(op), nullptr) << op;
  for (const runtime::OpInfo& op : runtime::AllOps()) {
    bool has = std::find(lowered.begin(), lowered.end(), op.name) != lowered.end();
    EXPECT_NE(has, NeverInAGraph(op.name)) << op.name;
  }
}

graph::CompiledOutcome Compile(const std::string& source) {
  dynamo::CompileRunOptions options;
  options.aten = &AotLowering();
  auto result = dynamo::RunCompiled(source, "aot_test.py", options);
  EXPECT_TRUE(std::holds_alternative<graph::CompiledOutcome>(result))
      << std::get<std::string>(result);
  return std::get<graph::CompiledOutcome>(std::move(result));
}

TEST(AotTest, AnAllowedBodyReadingAGlobalTensorIsRefusedWhereItReadsIt) {
  // torch 2.13.0's fake-tensor run of the body raises TorchRuntimeError there: not modeled.
  graph::CompiledOutcome out = Compile(R"(import torch

w = torch.linspace(1.0, 2.0, 4)


def body(x):
    return x * w


torch._dynamo.allow_in_graph(body)


def fn(x):
    return body(x) + 1


out = torch.compile(fn, backend=backend)(torch.linspace(0.5, 2.0, 4))
)");
  ASSERT_TRUE(out.unsupported);
  EXPECT_TRUE(out.unsupported->reason.starts_with(
      "an allow_in_graph function reading a tensor that is not its input"))
      << out.unsupported->reason;
  EXPECT_TRUE(out.unsupported->where.starts_with("aot_test.py:7:")) << out.unsupported->where;
}

TEST(AotTest, AnOpWithoutAnAtenLoweringRefusesTheFrameInsteadOfANullGraph) {
  // fft with n has no lowering here; torch's ATen graph pads the input first.
  graph::CompiledOutcome out = Compile(R"(import torch


def fn(x):
    return torch.fft.fft(x, n=8)


out = torch.compile(fn, backend=backend)(torch.linspace(0.5, 2.0, 4))
)");
  ASSERT_TRUE(out.unsupported);
  EXPECT_EQ(out.unsupported->reason, "the ATen graph of torch.fft.fft with n is not modeled");
  EXPECT_TRUE(out.invocations.empty());
}

TEST(AotTest, WithoutTheAotLayerInvocationsCarryNoAtenGraph) {
  auto result = dynamo::RunCompiled(R"(import torch


def fn(x):
    return torch.sin(x)


out = torch.compile(fn, backend=backend)(torch.linspace(0.5, 2.0, 4))
)",
                                    "aot_test.py", {});
  ASSERT_TRUE(std::holds_alternative<graph::CompiledOutcome>(result));
  const auto& out = std::get<graph::CompiledOutcome>(result);
  ASSERT_EQ(out.invocations.size(), 1u);
  EXPECT_FALSE(out.invocations[0].aten_graph.has_value());
}

}  // namespace
}  // namespace tdc::aot
