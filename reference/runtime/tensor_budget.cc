#include "reference/runtime/tensor_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

int64_t CheckedNumel(const Shape& sizes) {
  int64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, s, &n);
  if (overflowed) throw TorchError("RuntimeError", "numel: integer multiplication overflow");
  return n;
}

void CheckNewStorage(const Shape& sizes, DType dtype) {
  for (int64_t s : sizes) {
    if (s < 0) {
      throw TorchError("RuntimeError", fmt::format("Trying to create tensor with negative "
                                                   "dimension {}: {}",
                                                   s, ShapeText(sizes)));
    }
  }
  // c10::computeStorageNbytesContiguous: the product in uint64, times the element size,
  // must stay within int64.
  uint64_t bytes = 1;
  bool overflowed = false;
  for (int64_t s : sizes)
    overflowed |= __builtin_mul_overflow(bytes, static_cast<uint64_t>(s), &bytes);
  overflowed |= __builtin_mul_overflow(bytes, static_cast<uint64_t>(ElementSize(dtype)), &bytes);
  overflowed |= bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (overflowed) {
    throw TorchError("RuntimeError",
                     "Storage size calculation overflowed with sizes=" + ShapeText(sizes));
  }
  // Then TensorImpl's contiguous restride: each stride the product of the sizes after it
  // (a 0 counted as 1), which an empty tensor's other sizes can overflow.
  int64_t stride = 1;
  for (size_t d = sizes.size(); d > 1; --d)
    overflowed |= __builtin_mul_overflow(stride, std::max<int64_t>(sizes[d - 1], 1), &stride);
  if (overflowed) throw TorchError("RuntimeError", "Stride calculation overflowed");
  CheckElementBudget(sizes);
}

void CheckElementBudget(const Shape& sizes) {
  // Called where no op is running (an out read after the program ended), so an
  // overflowing count is over the budget here, not an exception of the program's.
  int64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, s, &n);
  if (overflowed) {
    RefuseNotModeled(
        fmt::format("a tensor of sizes {}: more elements than int64 counts", ShapeText(sizes)));
  }
  if (n > kMaxTensorElements) {
    RefuseNotModeled(
        fmt::format("a tensor of {} elements (sizes {}): over the reference's budget "
                    "of {} elements per tensor (torch's outcome depends on the "
                    "machine's memory and time)",
                    n, ShapeText(sizes), kMaxTensorElements));
  }
}

}  // namespace tdc::runtime
