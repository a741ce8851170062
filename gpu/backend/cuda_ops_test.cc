// The CUDA backend's op table (cuda_ops.def) checked against the reference's: every op it
// claims is an op of reference/runtime/ops.def, reached by the same function, method and
// Python operator, each ATen overload it claims is one torch 2.13.0 offers for that op
// (aten_overloads.def), and each is what its kernel computes: a pointwise op or a reduction
// (views and copies are any op that moves elements: the copy kernel runs them all).
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "reference/runtime/op_table.h"

namespace {

struct CudaRow {
  std::string_view name, function, method, python_operator, overloads;
  tdc::runtime::OpTrait trait;  // what its kernel computes; kNone: not checked (views and
                                // copies move elements, matmul is matmul)
};
constexpr CudaRow kCudaOps[] = {
#define TDC_CUDA_ELEMENTWISE(name, Kind, function, method, python_operator, overloads) \
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

}  // namespace
