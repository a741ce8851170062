// The CUDA backend's matrix product: out[batch, i, j] = sum over k of a[batch, i, k] *
// b[batch, k, j], one output element per thread, accumulated in the dtype in k order as the
// reference's CPU kernel does (the device may fuse each step into one FMA). The operands are
// read through strides, 0 on a broadcast batch dim. Run on the device (cuda_device.cu) or
// the host (host_device.cc), like elementwise.h.
#ifndef TDCONFORM_GPU_BACKEND_MATMUL_H_
#define TDCONFORM_GPU_BACKEND_MATMUL_H_

#include <cstdint>
#include <type_traits>

#include "gpu/backend/elements.h"
#include "gpu/backend/elementwise.h"
#include "gpu/backend/host_device.h"

namespace tdc::gpu {

struct MatmulLaunch {
  int batch_rank = 0;
  int64_t batch[kMaxRank] = {};  // the output's batch dims
  int64_t a_batch_strides[kMaxRank] = {}, b_batch_strides[kMaxRank] = {};
  int64_t n = 0, k = 0, m = 0;
  int64_t a_row = 0, a_col = 0, b_row = 0, b_col = 0;  // strides of a's [n, k] and b's [k, m]
  DType dtype = DType::kFloat32;                       // both operands' and the output's
  const void* a = nullptr;
  const void* b = nullptr;
  void* out = nullptr;  // [batch..., n, m], contiguous
  int64_t out_numel = 0;
};

template <typename T>
TDC_HOST_DEVICE inline void ProductIn(const MatmulLaunch& launch, int64_t linear) {
  const int64_t j = linear % launch.m, i = linear / launch.m % launch.n;
  int64_t a_offset = i * launch.a_row, b_offset = j * launch.b_col;
  for (int64_t d = launch.batch_rank - 1, rest = linear / (launch.m * launch.n); d >= 0; --d) {
    const int64_t index = rest % launch.batch[d];
    rest /= launch.batch[d];
    a_offset += index * launch.a_batch_strides[d];
    b_offset += index * launch.b_batch_strides[d];
  }
  const T* a = static_cast<const T*>(launch.a);
  const T* b = static_cast<const T*>(launch.b);
  T acc = 0;
  for (int64_t p = 0; p < launch.k; ++p) {
    const T x = a[a_offset + p * launch.a_col], y = b[b_offset + p * launch.b_row];
    if constexpr (std::is_floating_point_v<T>) {
      acc += x * y;
    } else {  // int64 wraps
      acc = static_cast<T>(static_cast<uint64_t>(acc) +
                           static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
    }
  }
  static_cast<T*>(launch.out)[linear] = acc;
}

// Output element `linear` of the launch (bool: never; torch has no bool matmul).
TDC_HOST_DEVICE inline void ComputeProduct(const MatmulLaunch& launch, int64_t linear) {
  switch (launch.dtype) {
    case DType::kInt64:
      return ProductIn<int64_t>(launch, linear);
    case DType::kFloat32:
      return ProductIn<float>(launch, linear);
    case DType::kFloat64:
      return ProductIn<double>(launch, linear);
    case DType::kBool:
      return;
  }
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_MATMUL_H_
