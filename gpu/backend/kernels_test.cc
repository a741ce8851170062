// The kernels' code (elementwise.h, reduction.h) on hand-worked examples, run on the host as
// the emulated backend runs it: the device runs the same functions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu/backend/elementwise.h"
#include "gpu/backend/reduction.h"

namespace tdc::gpu {
namespace {

TEST(KernelsTest, BinaryOperandsBroadcastThroughZeroStrides) {
  // [[1], [2]] + [10, 20, 30]: a [2, 1] column and a [3] row make a [2, 3] output.
  std::vector<float> column = {1, 2}, row = {10, 20, 30}, out(6);
  ElementLaunch launch;
  launch.op = ElementOp::kAdd;
  launch.rank = 2;
  launch.shape[0] = 2;
  launch.shape[1] = 3;
  launch.numel = 6;
  launch.operands[0].data = column.data();
  launch.operands[0].strides[0] = 1;  // its dim 1 is stretched: stride 0
  launch.operands[1].data = row.data();
  launch.operands[1].strides[1] = 1;  // it has no dim 0: stride 0
  launch.out = out.data();
  for (int64_t i = 0; i < launch.numel; ++i) ComputeElement(launch, i);
  EXPECT_EQ(out, (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(KernelsTest, APythonNumberIsAnOperand) {
  std::vector<float> x = {4, 9}, out(2);
  ElementLaunch launch;
  launch.op = ElementOp::kPow;
  launch.rank = 1;
  launch.shape[0] = 2;
  launch.numel = 2;
  launch.operands[0].is_integer = true;  // 2 ** x
  launch.operands[0].integer = 2;
  launch.operands[1].data = x.data();
  launch.operands[1].strides[0] = 1;
  launch.out = out.data();
  for (int64_t i = 0; i < 2; ++i) ComputeElement(launch, i);
  EXPECT_EQ(out, (std::vector<float>{16, 512}));
}

TEST(KernelsTest, IntegersWrapAndPowerAsTorchDoes) {
  // int64: the sum past INT64_MAX wraps; (-2) ** -2 is 0 and (-1) ** -3 is -1 in integers.
  std::vector<int64_t> a = {INT64_MAX, -2, -1}, b = {1, -2, -3}, out(3);
  auto run = [&](ElementOp op) {
    ElementLaunch launch;
    launch.op = op;
    launch.compute = launch.out_dtype = DType::kInt64;
    launch.rank = 1;
    launch.shape[0] = 3;
    launch.numel = 3;
    launch.operands[0] = {a.data(), DType::kInt64, false, 0, 0, {1}};
    launch.operands[1] = {b.data(), DType::kInt64, false, 0, 0, {1}};
    launch.out = out.data();
    for (int64_t i = 0; i < 3; ++i) ComputeElement(launch, i);
    return out;
  };
  EXPECT_EQ(run(ElementOp::kAdd), (std::vector<int64_t>{INT64_MIN, -4, -4}));
  EXPECT_EQ(run(ElementOp::kPow)[1], 0);
  EXPECT_EQ(run(ElementOp::kPow)[2], -1);
}

TEST(KernelsTest, MixedDtypesComputeInTheComputeDtype) {
  // int64 [3, -2] > 2.5 compares in float32; bool [true, false] * int64 [3, 4] is int64.
  std::vector<int64_t> ints = {3, -2};
  std::vector<uint8_t> bools = {1, 0}, compared(2);
  ElementLaunch gt;
  gt.op = ElementOp::kGt;
  gt.compute = DType::kFloat32;
  gt.out_dtype = DType::kBool;
  gt.rank = 1;
  gt.shape[0] = 2;
  gt.numel = 2;
  gt.operands[0] = {ints.data(), DType::kInt64, false, 0, 0, {1}};
  gt.operands[1].real = 2.5;
  gt.out = compared.data();
  for (int64_t i = 0; i < 2; ++i) ComputeElement(gt, i);
  EXPECT_EQ(compared, (std::vector<uint8_t>{1, 0}));
  std::vector<int64_t> other = {3, 4}, product(2);
  ElementLaunch mul = gt;
  mul.op = ElementOp::kMul;
  mul.compute = mul.out_dtype = DType::kInt64;
  mul.operands[0] = {bools.data(), DType::kBool, false, 0, 0, {1}};
  mul.operands[1] = {other.data(), DType::kInt64, false, 0, 0, {1}};
  mul.out = product.data();
  for (int64_t i = 0; i < 2; ++i) ComputeElement(mul, i);
  EXPECT_EQ(product, (std::vector<int64_t>{3, 0}));
}

ReduceLaunch Reduction(ReduceOp op, const std::vector<float>& in, std::vector<int64_t> shape,
                       std::vector<bool> reduced, std::vector<float>& out) {
  ReduceLaunch launch;
  launch.op = op;
  launch.rank = static_cast<int>(shape.size());
  launch.count = 1;
  int64_t kept = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    launch.shape[d] = shape[d];
    launch.reduced[d] = reduced[d];
    (reduced[d] ? launch.count : kept) *= shape[d];
  }
  out.assign(static_cast<size_t>(kept), -1);
  launch.in_dtype = launch.out_dtype = DType::kFloat32;
  launch.in = in.data();
  launch.out = out.data();
  launch.out_numel = kept;
  for (int64_t i = 0; i < kept; ++i) ComputeReduced(launch, i);
  return launch;
}

TEST(KernelsTest, ReductionsOverChosenDims) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
  std::vector<float> out;
  Reduction(ReduceOp::kSum, x, {2, 3}, {false, true}, out);
  EXPECT_EQ(out, (std::vector<float>{6, 15}));
  Reduction(ReduceOp::kSum, x, {2, 3}, {true, false}, out);
  EXPECT_EQ(out, (std::vector<float>{5, 7, 9}));
  Reduction(ReduceOp::kMean, x, {2, 3}, {true, true}, out);
  EXPECT_EQ(out, (std::vector<float>{3.5f}));
  Reduction(ReduceOp::kAmax, x, {2, 3}, {true, false}, out);
  EXPECT_EQ(out, (std::vector<float>{4, 5, 6}));
}

TEST(KernelsTest, AmaxAndMaxPropagateNanAndAnEmptyMeanIsNan) {
  std::vector<float> out;
  for (ReduceOp op : {ReduceOp::kAmax, ReduceOp::kMax}) {
    Reduction(op, {1, NAN, 3}, {3}, {true}, out);
    ASSERT_EQ(out.size(), 1U);
    EXPECT_TRUE(std::isnan(out[0]));
    Reduction(op, {1, -4, 3, 2}, {4}, {true}, out);
    EXPECT_EQ(out, (std::vector<float>{3}));
  }
  Reduction(ReduceOp::kMean, {}, {2, 0}, {false, true}, out);  // torch.mean over a 0-size dim
  ASSERT_EQ(out.size(), 2U);
  EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
  Reduction(ReduceOp::kSum, {}, {2, 0}, {false, true}, out);
  EXPECT_EQ(out, (std::vector<float>{0, 0}));
}

}  // namespace
}  // namespace tdc::gpu
