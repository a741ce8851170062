// The tolerance policy a case's outputs are held to (ExecutorOptions::tolerance,
// output_parity.h), on kAdd's program (fixtures/allow_in_graph/s02_allow_then_disallow.py:
// torch.arange(1.0, 7.0) plus small integers, so every value is an integer that float32 holds
// exactly, and float64 computes the same values): the broken backend ulp_drift returns each
// output element one float32 ULP up.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "conformance/executor/bundled_backends_testing.h"
#include "conformance/executor/executor.h"
#include "conformance/executor/output_parity.h"

namespace tdc::conformance {
namespace {

using testing::LoadBundled;

constexpr const char* kAdd =
    "fixtures:allow_in_graph:s02_allow_then_disallow:profile=torch-2.13:level=dynamo";

Verdict RunWith(const std::string& backend_name, const std::string& policy,
                std::vector<CaseRecord>* records = nullptr) {
  auto backend = LoadBundled(backend_name);
  if (!backend) return Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLoad, "load", "");
  ExecutorOptions options;
  options.timeout_seconds = 30;
  options.tolerance = std::get<gpu::Policy>(gpu::ParsePolicy(policy));
  return RunCase(*backend, std::get<CaseSpec>(ResolveCase(kAdd)), options, records);
}

TEST(ToleranceTest, OneUlpPassesTheDefaultAndUlpOneButNotUlpZero) {
  EXPECT_EQ(FormatVerdict(RunWith("broken_ulp_drift", "torch-default")), "PASS");
  EXPECT_EQ(FormatVerdict(RunWith("broken_ulp_drift", "ulp 1")), "PASS");
  const Verdict strict = RunWith("broken_ulp_drift", "ulp 0");
  EXPECT_EQ(FormatVerdict(strict).substr(0, 27), "FAIL compare/value_mismatch");
  EXPECT_NE(strict.message.find("output 0 (ulp 0): max ULP distance 1 > 0"), std::string::npos)
      << strict.message;
  // The template computes these sums exactly: nothing to forgive.
  EXPECT_EQ(FormatVerdict(RunWith("template", "ulp 0")), "PASS");
}

TEST(ToleranceTest, WrongValuesFailEveryPolicyButCosineWhichIsBlindToScale) {
  // broken_wrong_numerics multiplies every output of a graph with an add by 1.001.
  for (const char* policy : {"torch-default", "dynamo-same", "ulp 1000"}) {
    const Verdict v = RunWith("broken_wrong_numerics", policy);
    EXPECT_EQ(FormatVerdict(v).substr(0, 27), "FAIL compare/value_mismatch") << policy;
  }
  // A scaled output has cosine similarity 1 (same(cos_similarity=True) passes it too).
  EXPECT_EQ(FormatVerdict(RunWith("broken_wrong_numerics", "cosine")), "PASS");
}

TEST(ToleranceTest, EveryJudgedOutputIsRecordedWithItsErrors) {
  std::vector<CaseRecord> records;
  ASSERT_EQ(FormatVerdict(RunWith("broken_ulp_drift", "torch-default", &records)), "PASS");
  const nlohmann::ordered_json outputs = JudgedOutputs(records);
  // Four graphs (the allowed function inside one; then the prefix, the function's own
  // frame, the suffix), one float32 output each.
  ASSERT_EQ(outputs.size(), 4U) << outputs.dump(1);
  for (const auto& o : outputs) {
    SCOPED_TRACE(o.dump());
    EXPECT_EQ(o["output"], 0);
    EXPECT_EQ(o["dtype"], "float32");
    EXPECT_EQ(o["shape"], nlohmann::ordered_json::array({6}));
    EXPECT_EQ(o["passed"], true);
    EXPECT_EQ(o["max_ulp"], 1);
    EXPECT_EQ(o["p99_ulp"], 1);
    EXPECT_GT(o["max_abs_error"].get<double>(), 0);
    EXPECT_LT(o["max_rel_error"].get<double>(), 1.2e-7);  // one ULP of a value >= 1: 2**-23
  }
  // The first graph runs the program's own function on the host: not run again in float64.
  EXPECT_TRUE(outputs[0]["rmse_vs_fp64"].is_null());
  EXPECT_TRUE(outputs[0]["noise_floor_rmse"].is_null());
  // The later graphs' inputs are earlier graphs' drifted outputs: float32 rounds their sums,
  // so their noise floors need not be 0.
  for (size_t i = 1; i < outputs.size(); ++i) {
    EXPECT_TRUE(outputs[i]["noise_floor_rmse"].is_number()) << i;
    EXPECT_TRUE(outputs[i]["rmse_vs_fp64"].is_number()) << i;
  }
  // The prefix after the reset takes the program's x: [1..6] + 1 + 2 = [4..9], integers that
  // float32 computes as float64 does (noise floor 0), each drifted one ULP: 2**-21 for 4 to 7,
  // 2**-20 for 8 and 9.
  const double ulp4 = std::ldexp(1.0, -21), ulp8 = std::ldexp(1.0, -20);
  EXPECT_EQ(outputs[1]["noise_floor_rmse"], 0.0);
  EXPECT_DOUBLE_EQ(outputs[1]["rmse_vs_fp64"].get<double>(),
                   std::sqrt((4 * ulp4 * ulp4 + 2 * ulp8 * ulp8) / 6));
}

}  // namespace
}  // namespace tdc::conformance
