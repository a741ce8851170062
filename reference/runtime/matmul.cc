#include "reference/runtime/matmul.h"

#include <string>

#include "reference/runtime/dispatch.h"
#include "reference/runtime/promotion.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

// Batched (..., n, k) @ (..., k, m) with both batch shapes already equal.
Tensor BatchedMatmul(const Tensor& a, const Tensor& b) {
  int64_t r = a.dim();
  int64_t n = a.sizes[r - 2], k = a.sizes[r - 1], m = b.sizes[r - 1];
  Shape shape(a.sizes.begin(), a.sizes.end() - 2);
  int64_t batch = 1;
  for (int64_t s : shape) batch *= s;
  shape.push_back(n);
  shape.push_back(m);
  Tensor ac = Contiguous(a), bc = Contiguous(b);
  Tensor out = EmptyTensor(a.dtype, shape);
  VisitDType(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    // Accumulate in the element type (float for float32), as the CPU kernels do.
    using Acc = std::conditional_t<std::is_same_v<T, bool>, bool, T>;
    for (int64_t p = 0; p < batch; ++p) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < m; ++j) {
          Acc acc{};
          for (int64_t q = 0; q < k; ++q) {
            Acc x = ScalarAs<Acc>(ac.Load(ac.storage_offset + p * n * k + i * k + q));
            Acc y = ScalarAs<Acc>(bc.Load(bc.storage_offset + p * k * m + q * m + j));
            if constexpr (std::is_same_v<Acc, bool>)
              acc = acc || (x && y);
            else
              acc += x * y;
          }
          out.Store(p * n * m + i * m + j, MakeScalar<T>(acc, a.dtype));
        }
      }
    }
    return 0;
  });
  return out;
}

}  // namespace

Tensor Matmul(const Tensor& a, const Tensor& b) {
  if (a.dim() == 0 || b.dim() == 0) {
    throw TorchError("RuntimeError",
                     "both arguments to matmul need to be at least 1D, but they are " +
                         std::to_string(a.dim()) + "D and " + std::to_string(b.dim()) + "D");
  }
  if (a.dtype != b.dtype) {
    throw TorchError("RuntimeError", "expected m1 and m2 to have the same dtype");
  }
  if (a.dim() == 1 && b.dim() == 1 && a.sizes[0] != b.sizes[0]) {
    throw TorchError("RuntimeError", "inconsistent tensor size, expected tensor [" +
                                         std::to_string(a.sizes[0]) + "] and src [" +
                                         std::to_string(b.sizes[0]) +
                                         "] to have the same number of elements, but got " +
                                         std::to_string(a.sizes[0]) + " and " +
                                         std::to_string(b.sizes[0]) + " elements respectively");
  }
  // A 1-D operand becomes a matrix (a row on the left, a column on the right) whose
  // added dim is removed from the result.
  Tensor x = a.dim() == 1 ? Unsqueeze(a, 0) : a;
  Tensor y = b.dim() == 1 ? Unsqueeze(b, 1) : b;
  int64_t k = x.sizes[x.dim() - 1];
  if (k != y.sizes[y.dim() - 2]) {
    if (a.dim() == 2 && b.dim() == 2) {
      throw TorchError("RuntimeError",
                       "mat1 and mat2 shapes cannot be multiplied (" + std::to_string(a.sizes[0]) +
                           "x" + std::to_string(a.sizes[1]) + " and " + std::to_string(b.sizes[0]) +
                           "x" + std::to_string(b.sizes[1]) + ")");
    }
    throw TorchError("RuntimeError", "size mismatch in matmul: inner dims " + std::to_string(k) +
                                         " and " + std::to_string(y.sizes[y.dim() - 2]));
  }
  Shape xb(x.sizes.begin(), x.sizes.end() - 2), yb(y.sizes.begin(), y.sizes.end() - 2);
  Shape batch = BroadcastShapes(xb, yb);
  Shape xs = batch, ys = batch;
  xs.insert(xs.end(), x.sizes.end() - 2, x.sizes.end());
  ys.insert(ys.end(), y.sizes.end() - 2, y.sizes.end());
  Tensor out = BatchedMatmul(Expand(x, xs), Expand(y, ys));
  if (a.dim() == 1) out = Squeeze(out, out.dim() - 2);
  if (b.dim() == 1) out = Squeeze(out, out.dim() - 1);
  return out;
}

}  // namespace tdc::runtime
