// The CUDA backend's reduction kernel: a tensor (contiguous) reduced over a set of its dims,
// one output element per thread, each summing its elements in one fixed order
// (deterministic: no atomics, no tree whose shape depends on the launch). Float sums
// accumulate in double and round once; amax propagates a NaN, as torch.amax does. Run on the device
// (cuda_device.cu) or the host (host_device.cc), like elementwise.h.
#ifndef TDCONFORM_GPU_BACKEND_REDUCTION_H_
#define TDCONFORM_GPU_BACKEND_REDUCTION_H_

#include <cstdint>
#include <type_traits>

#include "gpu/backend/elements.h"
#include "gpu/backend/elementwise.h"
#include "gpu/backend/host_device.h"

namespace tdc::gpu {

enum class ReduceOp {
#define TDC_CUDA_REDUCTION(name, Kind, function, method, overloads) Kind,
#include "gpu/backend/cuda_ops.def"
};

struct ReduceLaunch {
  ReduceOp op = ReduceOp::kSum;
  DType in_dtype = DType::kFloat32, out_dtype = DType::kFloat32;
  int rank = 0;
  int64_t shape[kMaxRank] = {};  // the input's
  bool reduced[kMaxRank] = {};   // per input dim
  const void* in = nullptr;      // contiguous
  void* out = nullptr;           // the kept dims' elements, row-major
  int64_t out_numel = 0;
  int64_t count = 0;  // elements reduced into each output element (the reduced dims' product)
};

// The input's offsets for output element `linear`: the kept dims' part (`base`), and the
// reduced element `r`'s.
struct ReducedOffsets {
  int64_t strides[kMaxRank] = {};
  int64_t base = 0;
  TDC_HOST_DEVICE ReducedOffsets(const ReduceLaunch& launch, int64_t linear) {
    int64_t stride = 1;
    for (int d = launch.rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= launch.shape[d] > 0 ? launch.shape[d] : 1;
    }
    for (int64_t d = launch.rank - 1, rest = linear; d >= 0; --d) {
      if (launch.reduced[d]) continue;
      base += rest % launch.shape[d] * strides[d];
      rest /= launch.shape[d];
    }
  }
  TDC_HOST_DEVICE int64_t Of(const ReduceLaunch& launch, int64_t r) const {
    int64_t offset = base;
    for (int64_t d = launch.rank - 1, rest = r; d >= 0; --d) {
      if (!launch.reduced[d]) continue;
      offset += rest % launch.shape[d] * strides[d];
      rest /= launch.shape[d];
    }
    return offset;
  }
};

// sum and mean accumulate in Acc (double for float dtypes; int64, wrapping, for integral
// ones, as torch sums bool and int64 into int64); amax keeps the input's dtype.
template <typename T, typename Acc>
TDC_HOST_DEVICE inline void ReduceIn(const ReduceLaunch& launch, int64_t linear) {
  const ReducedOffsets at(launch, linear);
  Acc sum = 0;
  T max = T{};
  bool nan = false;
  for (int64_t r = 0; r < launch.count; ++r) {
    const T x = Load<T>(launch.in, launch.in_dtype, at.Of(launch, r));
    if constexpr (std::is_floating_point_v<Acc>) {
      sum += x;
    } else {
      sum = static_cast<Acc>(static_cast<uint64_t>(sum) + static_cast<uint64_t>(x));
    }
    nan = nan || x != x;
    max = r == 0 || x > max ? x : max;
  }
  switch (launch.op) {
    case ReduceOp::kSum:
      Store(launch.out, launch.out_dtype, linear, sum);
      return;
    case ReduceOp::kMean:  // 0/0 for nothing reduced: NaN, as torch.mean gives
      if constexpr (std::is_floating_point_v<Acc>)
        Store(launch.out, launch.out_dtype, linear, sum / static_cast<Acc>(launch.count));
      return;
    case ReduceOp::kAmax:  // a NaN wins, as in torch.amax
    case ReduceOp::kMax:
      if constexpr (std::is_floating_point_v<T>) {
        if (nan) max = static_cast<T>(NAN);
      }
      Store(launch.out, launch.out_dtype, linear, max);
      return;
  }
}

// Output element `linear` of the launch.
TDC_HOST_DEVICE inline void ComputeReduced(const ReduceLaunch& launch, int64_t linear) {
  switch (launch.in_dtype) {
    case DType::kBool:
      return ReduceIn<bool, int64_t>(launch, linear);
    case DType::kInt64:
      return ReduceIn<int64_t, int64_t>(launch, linear);
    case DType::kFloat32:
      return ReduceIn<float, double>(launch, linear);
    case DType::kFloat64:
      return ReduceIn<double, double>(launch, linear);
  }
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_REDUCTION_H_
