// The tolerance policies on hand-worked outputs (issue 31): each example's arithmetic is in
// its comment, from the rules torch 2.13.0 states (torch.testing's tolerances,
// torch._dynamo.utils.same).
#include "gpu/parity/policy.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tdc::gpu {
namespace {

Policy Parsed(std::string_view text) {
  auto p = ParsePolicy(text);
  EXPECT_TRUE(std::holds_alternative<Policy>(p)) << std::get<std::string>(p);
  return std::holds_alternative<Policy>(p) ? std::get<Policy>(p) : Policy{};
}

std::string ParseError(std::string_view text) {
  auto p = ParsePolicy(text);
  return std::holds_alternative<std::string>(p) ? std::get<std::string>(p) : "";
}

Judgement Judged(std::string_view policy, const ComparedOutput& o) {
  auto j = Judge(Parsed(policy), o);
  EXPECT_TRUE(std::holds_alternative<Judgement>(j)) << std::get<std::string>(j);
  return std::holds_alternative<Judgement>(j) ? std::get<Judgement>(j) : Judgement{};
}

bool Passes(std::string_view policy, graph::DType dtype, std::vector<double> actual,
            std::vector<double> expected) {
  const auto n = static_cast<int64_t>(expected.size());
  return Judged(policy, {dtype, {n}, std::move(actual), std::move(expected), std::nullopt}).passed;
}

TEST(PolicyTest, NamesParseAndPrintBack) {
  for (const char* name : {"torch-default", "dynamo-same", "cosine", "ulp 4"}) {
    EXPECT_EQ(PolicyName(Parsed(name)), name);
  }
  EXPECT_EQ(Parsed("ulp:2").max_ulp, 2U);
  EXPECT_EQ(ParseError("ulp"),
            "tolerance policy 'ulp' needs a count of ULPs, 0 to "
            "18446744073709551614 ('ulp 4'), not ''");
  EXPECT_EQ(ParseError("ulp -1"),
            "tolerance policy 'ulp' needs a count of ULPs, 0 to "
            "18446744073709551614 ('ulp 4'), not '-1'");
  EXPECT_EQ(ParseError("cosine 3"), "tolerance policy 'cosine' takes no argument");
  EXPECT_EQ(ParseError("bogus"),
            "unknown tolerance policy 'bogus': one of torch-default, dynamo-same, cosine, ulp N");
}

TEST(PolicyTest, TorchDefaultIsAssertClosesToleranceForTheDtype) {
  // float32: rtol 1.3e-6, atol 1e-5. 1 against 1 + 2**-23: 1.19e-7 <= 1e-5 + 1.3e-6.
  EXPECT_TRUE(Passes("torch-default", graph::DType::kFloat32, {1.0 + 0x1p-23}, {1}));
  // float32(1.0001) = 1.00010001659393311 against 1: 1e-4 > 1.13e-5.
  EXPECT_FALSE(Passes("torch-default", graph::DType::kFloat32, {1.00010001659393311}, {1}));
  // float32(100.0001) = 100.0000991821289 against 100: 9.92e-5 <= 1e-5 + 1.3e-4.
  EXPECT_TRUE(Passes("torch-default", graph::DType::kFloat32, {100.0000991821289}, {100}));
  // float64: rtol = atol = 1e-7, so 2e-7 at 1: 1e-7 passes, 3e-7 does not.
  EXPECT_TRUE(Passes("torch-default", graph::DType::kFloat64, {1 + 1e-7}, {1}));
  EXPECT_FALSE(Passes("torch-default", graph::DType::kFloat64, {1 + 3e-7}, {1}));
  // Integers and bools are exact.
  EXPECT_TRUE(Passes("torch-default", graph::DType::kInt64, {3}, {3}));
  EXPECT_FALSE(Passes("torch-default", graph::DType::kInt64, {4}, {3}));
}

TEST(PolicyTest, NansMeetNansAndInfinitiesTheirOwnSign) {
  for (const char* policy : {"torch-default", "dynamo-same", "ulp 0"}) {
    EXPECT_TRUE(Passes(policy, graph::DType::kFloat32, {NAN, INFINITY}, {NAN, INFINITY})) << policy;
    EXPECT_FALSE(Passes(policy, graph::DType::kFloat32, {1, INFINITY}, {NAN, INFINITY})) << policy;
    EXPECT_FALSE(Passes(policy, graph::DType::kFloat32, {NAN, -INFINITY}, {NAN, INFINITY}))
        << policy;
  }
}

// float32 values: 1.0002f = 1.00020003318786621, 1.0005f = 1.00049996376037598,
// 1.0007f = 1.00069999694824219, 1.0008f = 1.00080001354217529.
constexpr double k10002 = 1.00020003318786621, k10005 = 1.00049996376037598,
                 k10007 = 1.00069999694824219, k10008 = 1.00080001354217529;

TEST(PolicyTest, DynamoSameFallsBackToRmseAgainstFloat64) {
  // Not allclose: 1.0005 against 1.0002 is 3e-4 apart, more than 1e-4 + 1e-4 * 1.0002.
  // RMSE against [1, 2, 3, 4]: the reference's 2.0003e-4 / 2 = 1.00017e-4, the backend's
  // 4.99964e-4 / 2 = 2.49982e-4; under 1000 elements the multiplier is 3: 2.4998e-4 <=
  // 3 * 1.00017e-4 + 1e-5 = 3.1005e-4. With 1.0007: 3.49998e-4 > 3.1005e-4.
  ComparedOutput o{graph::DType::kFloat32,
                   {4},
                   {k10005, 2, 3, 4},
                   {k10002, 2, 3, 4},
                   std::vector<double>{1, 2, 3, 4}};
  Judgement j = Judged("dynamo-same", o);
  EXPECT_TRUE(j.passed) << j.detail;
  EXPECT_EQ(j.detail,
            "RMSE against float64 0.000249982 <= 3 x the reference's 0.000100017 + 1e-05");
  o.actual[0] = k10007;
  EXPECT_FALSE(Judged("dynamo-same", o).passed);
  // Without a float64 evaluation a float32 output that is not allclose fails.
  o.fp64.reset();
  EXPECT_FALSE(Judged("dynamo-same", o).passed);
}

TEST(PolicyTest, DynamoSameMultiplierIsTwoFromAThousandElements) {
  // 1000 elements of 1, the first 1.0002 (reference) and 1.0008 (backend): RMSEs
  // 2.0003e-4 / sqrt(1000) = 6.3256e-6 and 8.0001e-4 / sqrt(1000) = 2.5299e-5. The bound
  // with multiplier 2 is 2.2651e-5 (fails); with 3, for 999 elements, 6.3288e-6 * 3 + 1e-5 =
  // 2.8986e-5 against 2.5312e-5 (passes); a 4-d output ending in 1 x 1 takes 3 as well.
  std::vector<double> ones(1000, 1.0);
  ComparedOutput o{graph::DType::kFloat32, {1000}, ones, ones, ones};
  o.actual[0] = k10008;
  o.expected[0] = k10002;
  EXPECT_FALSE(Judged("dynamo-same", o).passed);
  o.shape = {10, 100, 1, 1};
  EXPECT_TRUE(Judged("dynamo-same", o).passed);
  o.shape = {999};
  o.actual.pop_back(), o.expected.pop_back(), o.fp64->pop_back();
  EXPECT_TRUE(Judged("dynamo-same", o).passed);
}

TEST(PolicyTest, DynamoSamePassesABackendWithoutTheReferencesNan) {
  // The reference has a NaN that neither float64 nor the backend has, and the backend is
  // within same()'s loose 4e-2 of float64.
  // 1 + 2**-7 is 0.0078 from 1; 1.125 is 0.125 from it, more than 4e-2 + 4e-2 * 1.
  ComparedOutput o{
      graph::DType::kFloat32, {2}, {1.0078125, 2}, {NAN, 2}, std::vector<double>{1, 2}};
  EXPECT_TRUE(Judged("dynamo-same", o).passed);
  o.actual[0] = 1.125;
  EXPECT_FALSE(Judged("dynamo-same", o).passed);
}

TEST(PolicyTest, CosineSimilarityAtLeast099) {
  // [1, 0] and [1, 1]: 1 / sqrt(2) = 0.7071. [1, 0] and [1, 0.1] (float32(0.1) =
  // 0.100000001490116119): 1 / sqrt(1.01) = 0.99504.
  EXPECT_FALSE(Passes("cosine", graph::DType::kFloat32, {1, 1}, {1, 0}));
  Judgement j = Judged(
      "cosine", {graph::DType::kFloat32, {2}, {1, 0.100000001490116119}, {1, 0}, std::nullopt});
  EXPECT_TRUE(j.passed);
  EXPECT_EQ(j.detail, "cosine similarity 0.995037 >= 0.99");
  // Zeros against zeros: allclose decides before the similarity (0 / eps) would.
  EXPECT_TRUE(Passes("cosine", graph::DType::kFloat32, {0, 0}, {0, 0}));
}

TEST(PolicyTest, UlpCountsTheWorstElement) {
  const double one_up = 1.0 + 0x1p-23;
  EXPECT_FALSE(Passes("ulp 0", graph::DType::kFloat32, {one_up, 2}, {1, 2}));
  EXPECT_TRUE(Passes("ulp 1", graph::DType::kFloat32, {one_up, 2}, {1, 2}));
  Judgement j = Judged("ulp 3", {graph::DType::kFloat32, {1}, {1}, {NAN}, std::nullopt});
  EXPECT_EQ(j.detail, "max ULP distance a NaN against a number > 3");
  auto refused = Judge(Parsed("ulp 3"), {graph::DType::kFloat16, {1}, {1}, {1}, std::nullopt});
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_EQ(std::get<std::string>(refused), "ULP distance in float16 is not modeled");
}

TEST(PolicyTest, ComplexOutputsAreRefused) {
  auto refused =
      Judge(Parsed("torch-default"), {graph::DType::kComplex64, {1}, {1}, {1}, std::nullopt});
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_EQ(std::get<std::string>(refused),
            "complex64 outputs are not compared element by element here");
}

}  // namespace
}  // namespace tdc::gpu
