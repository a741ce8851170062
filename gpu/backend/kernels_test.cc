// The kernels' code (elementwise.h, reduction.h) on hand-worked examples, run on the host as
// the emulated backend runs it: the device runs the same functions.
#include <gtest/gtest.h>

#include <cmath>
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
  launch.a.data = column.data();
  launch.a.strides[0] = 1;  // its dim 1 is stretched: stride 0
  launch.b.data = row.data();
  launch.b.strides[1] = 1;  // it has no dim 0: stride 0
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
  launch.a.number = 2;  // 2 ** x
  launch.b.data = x.data();
  launch.b.strides[0] = 1;
  launch.out = out.data();
  for (int64_t i = 0; i < 2; ++i) ComputeElement(launch, i);
  EXPECT_EQ(out, (std::vector<float>{16, 512}));
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

TEST(KernelsTest, AmaxPropagatesNanAndAnEmptyMeanIsNan) {
  std::vector<float> out;
  Reduction(ReduceOp::kAmax, {1, NAN, 3}, {3}, {true}, out);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_TRUE(std::isnan(out[0]));
  Reduction(ReduceOp::kMean, {}, {2, 0}, {false, true}, out);  // torch.mean over a 0-size dim
  ASSERT_EQ(out.size(), 2U);
  EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
  Reduction(ReduceOp::kSum, {}, {2, 0}, {false, true}, out);
  EXPECT_EQ(out, (std::vector<float>{0, 0}));
}

}  // namespace
}  // namespace tdc::gpu
