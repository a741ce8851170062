// Unit tests of the tensor core's contracts that the recorded cases do not isolate.
#include "reference/runtime/tensor.h"

#include <gtest/gtest.h>

#include "reference/runtime/constructors.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

TEST(TensorTest, SizeOneDimsMayHaveAnyStride) {
  // torch: torch.empty(2, 1, 3).as_strided((2, 1, 3), (3, 99, 1)).is_contiguous() is True.
  Tensor t = Zeros({2, 1, 3});
  t.strides = {3, 99, 1};
  EXPECT_TRUE(t.IsContiguous());
  t.strides = {1, 1, 2};
  EXPECT_FALSE(t.IsContiguous());
}

TEST(TensorTest, EmptyTensorIsContiguousWhateverItsStrides) {
  Tensor t = Zeros({0, 3});
  t.strides = {5, 7};
  EXPECT_TRUE(t.IsContiguous());
}

TEST(TensorTest, ViewsShareStorageAndWritesShowThrough) {
  Tensor base = Arange(Scalar::Int(0), Scalar::Int(6), Scalar::Int(1));
  Tensor v = Transpose(View(base, {2, 3}), 0, 1);
  EXPECT_TRUE(v.SharesStorageWith(base));
  v.Store(v.storage_offset + 1 * v.strides[0] + 0 * v.strides[1], Scalar::Int(42));
  EXPECT_EQ(base.Load(1).i, 42);  // element [1, 0] of the transpose is base[1]
}

TEST(TensorTest, CloneAndReshapeCopyOnlyWhenNeeded) {
  Tensor base = Ones({2, 3});
  EXPECT_TRUE(Reshape(base, {6}).SharesStorageWith(base));
  EXPECT_FALSE(Reshape(Transpose(base, 0, 1), {6}).SharesStorageWith(base));
  EXPECT_FALSE(Clone(base).SharesStorageWith(base));
  EXPECT_TRUE(Contiguous(base).SharesStorageWith(base));
}

TEST(TensorTest, ItemNeedsExactlyOneElement) {
  EXPECT_EQ(Item(Full({1, 1}, Scalar::Int(7))).i, 7);
  try {
    Item(Ones({2}));
    ADD_FAILURE() << "expected RuntimeError";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.type(), "RuntimeError");
    EXPECT_STREQ(e.what(), "a Tensor with 2 elements cannot be converted to Scalar");
  }
}

TEST(TensorTest, WrapDimTreatsZeroDimAsOneDim) {
  EXPECT_EQ(WrapDim(-1, 0), 0);
  EXPECT_EQ(WrapDim(-2, 3), 1);
  EXPECT_THROW(WrapDim(3, 3), TorchError);
}

}  // namespace
}  // namespace tdc::runtime
