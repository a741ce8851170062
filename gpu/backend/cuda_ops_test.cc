// The CUDA backend's op table (cuda_ops.def) checked against the reference's: every op it
// claims is an op of reference/runtime/ops.def, reached by the same function, method and
// Python operator, each ATen overload it claims is one torch 2.13.0 offers for that op
// (aten_overloads.def), and each is what its kernel computes: a pointwise op or a reduction
// (views and copies are any op that moves elements: the copy kernel runs them all); and its
// type promotion is the reference's.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/backend/promotion.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/promotion.h"

namespace {

struct CudaRow {
  std::string_view name, function, method, python_operator, overloads;
  tdc::runtime::OpTrait trait;  // what its kernel computes; kNone: not checked (views and
                                // copies move elements, matmul is matmul)
};
constexpr CudaRow kCudaOps[] = {
#define TDC_CUDA_ELEMENTWISE(name, Kind, arity, function, method, python_operator, overloads) \
  {#name, function, method, python_operator, overloads, tdc::runtime::kPointwise},
#define TDC_CUDA_REDUCTION(name, Kind, function, method, overloads) \
  {#name, function, method, "", overloads, tdc::runtime::kReduction},
#define TDC_CUDA_VIEW(name, Kind, function, method, overloads) \
  {#name, function, method, "", overloads, tdc::runtime::kNone},
#define TDC_CUDA_MATMUL(name, function, method, python_operator, overloads) \
  {#name, function, method, python_operator, overloads, tdc::runtime::kNone},
#include "gpu/backend/cuda_ops.def"
};

struct AtenRow {
  std::string_view op, overloads;
};
constexpr AtenRow kAtenOverloads[] = {
#define TDC_ATEN_OVERLOADS(op, overloads) {#op, overloads},
#include "reference/runtime/aten_overloads.def"
#undef TDC_ATEN_OVERLOADS
};

struct AliasRow {
  std::string_view target, name;
};
constexpr AliasRow kCudaAliases[] = {
#define TDC_CUDA_ALIAS(target, name) {target, #name},
#include "gpu/backend/cuda_ops.def"
};

// The reference interpreter's aliases: a Dynamo-level target's row, an ATen op's row.
std::map<std::string, std::string, std::less<>> ReferenceAliases() {
  std::map<std::string, std::string, std::less<>> aliases;
#define TDC_FUNCTION_ALIAS(target, row) aliases.emplace(target, row);
#define TDC_ATEN_ALIAS(aten_op, row) aliases.emplace(std::string("aten.") + aten_op, row);
#include "reference/backends/target_aliases.def"
  return aliases;
}

std::set<std::string> Words(std::string_view text) {
  std::set<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) words.insert(word);
  return words;
}

TEST(CudaOpsTest, EveryRowIsTheReferencesOp) {
  for (const CudaRow& row : kCudaOps) {
    SCOPED_TRACE(std::string(row.name));
    const tdc::runtime::OpInfo* op = tdc::runtime::FindOp(row.name);
    ASSERT_NE(op, nullptr) << "not an op of ops.def";
    EXPECT_EQ(row.function, op->function);
    EXPECT_EQ(row.method, op->method);
    EXPECT_EQ(row.python_operator, op->python_operator);
    if (row.trait != tdc::runtime::kNone) {
      EXPECT_TRUE(op->Has(row.trait));
    }
  }
}

TEST(CudaOpsTest, EveryAtenOverloadIsOneTorchOffers) {
  for (const CudaRow& row : kCudaOps) {
    SCOPED_TRACE(std::string(row.name));
    std::set<std::string> offered;
    for (const AtenRow& aten : kAtenOverloads) {
      if (aten.op == row.name) offered = Words(aten.overloads);
    }
    // The one whose first argument is a number (aten_overloads.def lists only the others),
    // which the reference's lowering of `2 ** x` emits (reference/aot/lower_pointwise.cc).
    if (row.name == "pow") offered.insert("Scalar");
    ASSERT_FALSE(Words(row.overloads).empty());
    for (const std::string& overload : Words(row.overloads)) {
      EXPECT_TRUE(offered.contains(overload)) << "aten." << row.name << "." << overload;
    }
  }
}

TEST(CudaOpsTest, EveryAliasIsOneOfTheReferencesAndReachesARow) {
  const auto reference = ReferenceAliases();
  ASSERT_GT(std::size(kCudaAliases), 0U);
  for (const AliasRow& alias : kCudaAliases) {
    SCOPED_TRACE(std::string(alias.target));
    std::string_view target = alias.target;
    // aten.<op>.<overload>: the reference aliases the op, whatever the overload.
    if (target.starts_with("aten.")) target = target.substr(0, target.rfind('.'));
    const auto found = reference.find(target);
    ASSERT_NE(found, reference.end()) << "not one of target_aliases.def's";
    EXPECT_EQ(found->second, alias.name);
    bool is_row = false;
    for (const CudaRow& row : kCudaOps) is_row = is_row || row.name == alias.name;
    EXPECT_TRUE(is_row) << alias.name << " is not a row of cuda_ops.def";
  }
}

// Every pair and triple of operands of every tier and dtype: the backend's torch.result_type
// is the reference's (reference/runtime/promotion.h).
TEST(CudaOpsTest, ResultTypeIsTheReferences) {
  using tdc::gpu::PromotionOperand;
  using Tier = PromotionOperand::Tier;
  const tdc::gpu::DType tensor_dtypes[] = {tdc::gpu::DType::kBool, tdc::gpu::DType::kInt64,
                                           tdc::gpu::DType::kFloat32, tdc::gpu::DType::kFloat64};
  std::vector<PromotionOperand> all;
  for (Tier tier : {Tier::kTensor, Tier::kZeroDim}) {
    for (auto dtype : tensor_dtypes) all.push_back({tier, dtype});
  }
  for (auto dtype : {tdc::gpu::DType::kBool, tdc::gpu::DType::kInt64, tdc::gpu::DType::kFloat64})
    all.push_back({Tier::kNumber, dtype});
  auto reference = [](const std::vector<PromotionOperand>& operands) {
    std::vector<tdc::runtime::Operand> converted;
    for (const PromotionOperand& o : operands) {
      const auto kind = o.tier == Tier::kTensor    ? tdc::runtime::OperandKind::kTensor
                        : o.tier == Tier::kZeroDim ? tdc::runtime::OperandKind::kZeroDimTensor
                                                   : tdc::runtime::OperandKind::kPythonScalar;
      converted.push_back({kind, static_cast<tdc::graph::DType>(o.dtype)});
    }
    return static_cast<int32_t>(tdc::runtime::ResultType(converted));
  };
  int checked = 0;
  for (const auto& a : all) {
    for (const auto& b : all) {
      EXPECT_EQ(static_cast<int32_t>(tdc::gpu::ResultType({a, b})), reference({a, b}));
      for (const auto& c : all) {
        EXPECT_EQ(static_cast<int32_t>(tdc::gpu::ResultType({a, b, c})), reference({a, b, c}));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 11 * 11 * 11);
}

}  // namespace
