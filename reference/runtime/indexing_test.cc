// Tensor indexing (indexing.h, advanced_index.h): sizes, strides, storage offsets, values
// and errors, each expected value printed by torch 2.13.0 for x = torch.arange(24).reshape(2, 3, 4)
// (`list(r.shape), list(r.stride()), r.storage_offset(), r.flatten().tolist()`).
#include "reference/runtime/indexing.h"

#include <gtest/gtest.h>

#include <limits>

#include "reference/runtime/constructors.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

using Kind = TensorIndex::Kind;

Tensor X() { return View(Arange(Scalar::Int(0), Scalar::Int(24), Scalar::Int(1)), {2, 3, 4}); }

TensorIndex Int(int64_t i) {
  TensorIndex t;
  t.kind = Kind::kInteger;
  t.integer = i;
  return t;
}
TensorIndex Slice(int64_t start, int64_t stop, int64_t step = 1) {
  TensorIndex t;
  t.kind = Kind::kSlice;
  t.start = start;
  t.stop = stop;
  t.step = step;
  return t;
}
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
TensorIndex All() { return Slice(0, kMax); }
TensorIndex Of(Kind kind) {
  TensorIndex t;
  t.kind = kind;
  return t;
}
TensorIndex Of(Tensor tensor) {
  TensorIndex t;
  t.kind = Kind::kTensor;
  t.tensor = std::move(tensor);
  return t;
}
Tensor Longs(std::vector<int64_t> v, Shape shape) {
  std::vector<Scalar> s;
  for (int64_t i : v) s.push_back(Scalar::Int(i));
  return TensorFromValues(DType::kInt64, shape, s);
}
Tensor Bools(std::vector<bool> v, Shape shape) {
  std::vector<Scalar> s;
  for (bool b : v) s.push_back(Scalar::Bool(b));
  return TensorFromValues(DType::kBool, shape, s);
}
std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> out;
  for (const Scalar& s : t.Values()) out.push_back(s.AsInt());
  return out;
}

void ExpectTensor(const Indexed& r, Shape sizes, Shape strides, int64_t offset,
                  std::vector<int64_t> values) {
  EXPECT_EQ(r.result.sizes, sizes);
  EXPECT_EQ(r.result.strides, strides);
  EXPECT_EQ(r.result.storage_offset, offset);
  EXPECT_EQ(Ints(r.result), values);
}

void ExpectError(const std::vector<TensorIndex>& items, bool tuple, const std::string& type,
                 const std::string& message) {
  try {
    ApplyIndex(X(), items, tuple);
    ADD_FAILURE() << "expected " << type;
  } catch (const TorchError& e) {
    EXPECT_EQ(e.type(), type);
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(IndexingTest, BasicItemsAreViews) {
  Tensor x = X();
  // x[-1, ::2, None, ...]
  Indexed r =
      ApplyIndex(x, {Int(-1), Slice(0, kMax, 2), Of(Kind::kNone), Of(Kind::kEllipsis)}, true);
  ExpectTensor(r, {2, 1, 4}, {8, 4, 1}, 12, {12, 13, 14, 15, 20, 21, 22, 23});
  EXPECT_TRUE(r.result.SharesStorageWith(x));
  EXPECT_FALSE(r.advanced);
  // x[..., 1]
  ExpectTensor(ApplyIndex(x, {Of(Kind::kEllipsis), Int(1)}, true), {2, 3}, {12, 4}, 1,
               {1, 5, 9, 13, 17, 21});
  // x[:, -2:100:2]
  ExpectTensor(ApplyIndex(x, {All(), Slice(-2, 100, 2)}, true), {2, 1, 4}, {12, 8, 1}, 4,
               {4, 5, 6, 7, 16, 17, 18, 19});
}

TEST(IndexingTest, StepsAreTheOpsAotAutogradRecords) {
  // x[:, 1:3]: the whole-dim slice inside a tuple is no op; x[:] alone is a slice; x[:, :] an
  // alias.
  Indexed r = ApplyIndex(X(), {All(), Slice(1, 3)}, true);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].kind, IndexingStep::Kind::kSlice);
  EXPECT_EQ(r.steps[0].dim, 1);
  EXPECT_EQ(ApplyIndex(X(), {All()}, false).steps[0].kind, IndexingStep::Kind::kSlice);
  r = ApplyIndex(X(), {All(), All()}, true);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].kind, IndexingStep::Kind::kAlias);
  // x[None, i]: unsqueeze(0), then index(.., [None, i]).
  r = ApplyIndex(X(), {Of(Kind::kNone), Of(Longs({1, 0}, {2}))}, true);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[1].kind, IndexingStep::Kind::kIndex);
  EXPECT_EQ(r.steps[1].from_item, (std::vector<int64_t>{-1, 1}));
}

TEST(IndexingTest, AdvancedIndexingCopiesInTensorIteratorLayout) {
  Tensor i = Longs({1, 0}, {2});
  // x[1:, i]
  Indexed r = ApplyIndex(X(), {Slice(1, kMax), Of(i)}, true);
  EXPECT_TRUE(r.advanced);
  EXPECT_FALSE(r.result.SharesStorageWith(X()));
  ExpectTensor(r, {1, 2, 4}, {8, 4, 1}, 0, {16, 17, 18, 19, 12, 13, 14, 15});
  // x.transpose(0, 2)[i]: the output follows the input's stride order.
  ExpectTensor(ApplyIndex(Transpose(X(), 0, 2), {Of(i)}, true), {2, 3, 2}, {6, 1, 3}, 0,
               {1, 13, 5, 17, 9, 21, 0, 12, 4, 16, 8, 20});
  // x[i, :, i]: indexed dims apart go to the front.
  ExpectTensor(ApplyIndex(X(), {Of(i), All(), Of(i)}, true), {2, 3}, {3, 1}, 0,
               {13, 17, 21, 0, 4, 8});
  // x[None, i, None]
  ExpectTensor(ApplyIndex(X(), {Of(Kind::kNone), Of(i), Of(Kind::kNone)}, true), {1, 2, 1, 3, 4},
               {24, 12, 12, 4, 1}, 0, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                       0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11});
}

TEST(IndexingTest, MasksSelectTrueElements) {
  std::vector<bool> m = {true, false, true, false, true, true};
  // x[m2, 1] with m2 of shape [2, 3]: the int indexes the dim after the mask's.
  ExpectTensor(ApplyIndex(X(), {Of(Bools(m, {2, 3})), Int(1)}, true), {4}, {1}, 0, {1, 9, 17, 21});
}

TEST(IndexingTest, ErrorsAreTorchs) {
  ExpectError({Int(5)}, false, "IndexError",
              "index 5 is out of bounds for dimension 0 with size 2");
  ExpectError({Int(0), Int(5)}, true, "IndexError",
              "index 5 is out of bounds for dimension 1 with size 3");
  ExpectError({Int(0), Int(0), Int(0), Int(0)}, true, "IndexError",
              "too many indices for tensor of dimension 3");
  ExpectError({Slice(0, kMax, -1)}, false, "ValueError", "step must be greater than zero");
  ExpectError({All(), Of(Longs({0, 5}, {2}))}, true, "IndexError",
              "index 5 is out of bounds for dimension 0 with size 3");
  ExpectError(
      {Of(Longs({0, 1}, {2})), Of(Longs({0, 1, 2}, {3}))}, true, "IndexError",
      "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]");
  ExpectError({Of(Bools({true, false, true}, {3}))}, true, "IndexError",
              "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor "
              "[2, 3, 4] at index 0");
  try {
    ApplyIndex(Full({}, Scalar::Int(1)), {Int(0)}, false);
    ADD_FAILURE() << "expected IndexError";
  } catch (const TorchError& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  }
}

}  // namespace
}  // namespace tdc::runtime
