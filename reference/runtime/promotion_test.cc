// torch.result_type over every pair of operand kinds, recorded from torch 2.13.0 by
// `ci/oracle op-values` (testdata/result_type.json).
#include "reference/runtime/promotion.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reference/graph/test_files.h"

namespace tdc::runtime {
namespace {

using nlohmann::json;

Operand OperandOfRow(const json& row) {
  std::string kind = row[0], name = row[1];
  if (kind == "scalar") {
    DType d = name == "bool" ? DType::kBool : name == "int" ? DType::kInt64 : DType::kFloat64;
    return {OperandKind::kPythonScalar, d};
  }
  return {kind == "tensor" ? OperandKind::kTensor : OperandKind::kZeroDimTensor,
          graph::ParseDType(name).value()};
}

TEST(PromotionTest, ResultTypeTableMatchesTorch) {
  json doc = json::parse(
      graph::testing::ReadSourceFile("reference/runtime/testdata/result_type.json").value_or("{}"));
  ASSERT_TRUE(doc.contains("result_type")) << "run ci/oracle op-values";
  const json& table = doc["result_type"];
  ASSERT_EQ(table.size(), 11u * 11u);
  for (const json& row : table) {
    ASSERT_FALSE(row.contains("error")) << "torch 2.13.0 accepts every pair: " << row.dump();
    DType got = ResultType({OperandOfRow(row["a"]), OperandOfRow(row["b"])});
    EXPECT_EQ(graph::DTypeName(got), row["result"].get<std::string>()) << row.dump();
  }
}

TEST(PromotionTest, BroadcastErrorNamesTheDimension) {
  try {
    BroadcastShapes({2, 3}, {2, 2});
    FAIL() << "shapes [2, 3] and [2, 2] do not broadcast";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.type(), "RuntimeError");
    EXPECT_STREQ(e.what(),
                 "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
                 "dimension 1");
  }
  EXPECT_EQ(BroadcastShapes({4, 1}, {3}), (Shape{4, 3}));
  EXPECT_EQ(BroadcastShapes({}, {2, 0}), (Shape{2, 0}));
}

}  // namespace
}  // namespace tdc::runtime
