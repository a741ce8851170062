// The CUDA backend's reduction kernel: a float32 tensor (contiguous) reduced over a set of
// its dims, one output element per thread, each summing its elements in one fixed order
// (deterministic: no atomics, no tree whose shape depends on the launch). Sums accumulate in
// double and round once; amax propagates a NaN, as torch.amax does. Run on the device
// (cuda_device.cu) or the host (host_device.cc), like elementwise.h.
#ifndef TDCONFORM_GPU_BACKEND_REDUCTION_H_
#define TDCONFORM_GPU_BACKEND_REDUCTION_H_

#include <cstdint>

#include "gpu/backend/elementwise.h"
#include "gpu/backend/host_device.h"

namespace tdc::gpu {

enum class ReduceOp {
#define TDC_CUDA_REDUCTION(name, Kind, function, method, overloads) Kind,
#include "gpu/backend/cuda_ops.def"
};

struct ReduceLaunch {
  ReduceOp op = ReduceOp::kSum;
  int rank = 0;
  int64_t shape[kMaxRank] = {};  // the input's
  bool reduced[kMaxRank] = {};   // per input dim
  const float* in = nullptr;     // contiguous
  float* out = nullptr;          // the kept dims' elements, row-major
  int64_t out_numel = 0;
  int64_t count = 0;  // elements reduced into each output element (the reduced dims' product)
};

// Output element `linear` of the launch.
TDC_HOST_DEVICE inline void ComputeReduced(const ReduceLaunch& launch, int64_t linear) {
  int64_t strides[kMaxRank] = {};
  int64_t stride = 1;
  for (int d = launch.rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= launch.shape[d] > 0 ? launch.shape[d] : 1;
  }
  // The kept dims' index of `linear`, as an offset into the input.
  int64_t base = 0;
  for (int64_t d = launch.rank - 1, rest = linear; d >= 0; --d) {
    if (launch.reduced[d]) continue;
    base += rest % launch.shape[d] * strides[d];
    rest /= launch.shape[d];
  }
  double sum = 0;
  float max = -INFINITY;
  bool nan = false;
  for (int64_t r = 0; r < launch.count; ++r) {
    int64_t offset = base;
    for (int64_t d = launch.rank - 1, rest = r; d >= 0; --d) {
      if (!launch.reduced[d]) continue;
      offset += rest % launch.shape[d] * strides[d];
      rest /= launch.shape[d];
    }
    const float x = launch.in[offset];
    sum += x;
    nan = nan || x != x;
    max = x > max ? x : max;
  }
  switch (launch.op) {
    case ReduceOp::kSum:
      launch.out[linear] = static_cast<float>(sum);
      return;
    case ReduceOp::kMean:  // 0/0 for nothing reduced: NaN, as torch.mean gives
      launch.out[linear] = static_cast<float>(sum / static_cast<double>(launch.count));
      return;
    case ReduceOp::kAmax:
      launch.out[linear] = nan ? NAN : max;
      return;
  }
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_REDUCTION_H_
