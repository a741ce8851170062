// The dtypes the CUDA backend computes (the ABI's float32, float64, int64 and bool), and
// element access in device memory: a value read from any of them as the compute type, and
// stored as any of them. Shared by the kernels on the device and the host (host_device.h).
#ifndef TDCONFORM_GPU_BACKEND_ELEMENTS_H_
#define TDCONFORM_GPU_BACKEND_ELEMENTS_H_

#include <cstdint>

#include "conformance/abi/tdconform_backend.h"
#include "gpu/backend/host_device.h"

namespace tdc::gpu {

enum class DType : int32_t {
  kBool = TDC_DTYPE_BOOL,  // one byte, 0 or 1
  kInt64 = TDC_DTYPE_INT64,
  kFloat32 = TDC_DTYPE_FLOAT32,
  kFloat64 = TDC_DTYPE_FLOAT64,
};

// Whether `dtype` (a tdc_dtype) is one of DType's.
TDC_HOST_DEVICE constexpr bool IsComputed(int32_t dtype) {
  return dtype == TDC_DTYPE_BOOL || dtype == TDC_DTYPE_INT64 || dtype == TDC_DTYPE_FLOAT32 ||
         dtype == TDC_DTYPE_FLOAT64;
}

TDC_HOST_DEVICE constexpr int64_t ElementSize(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return 1;
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
      return 8;
  }
  return 8;
}

TDC_HOST_DEVICE constexpr bool IsFloating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64;
}

// Element `offset` of `data` (of `dtype`) as a T, converted as C++ converts (as torch does).
template <typename T>
TDC_HOST_DEVICE inline T Load(const void* data, DType dtype, int64_t offset) {
  switch (dtype) {
    case DType::kBool:
      return static_cast<T>(static_cast<const uint8_t*>(data)[offset] != 0);
    case DType::kInt64:
      return static_cast<T>(static_cast<const int64_t*>(data)[offset]);
    case DType::kFloat32:
      return static_cast<T>(static_cast<const float*>(data)[offset]);
    case DType::kFloat64:
      return static_cast<T>(static_cast<const double*>(data)[offset]);
  }
  return T{};
}

template <typename T>
TDC_HOST_DEVICE inline void Store(void* data, DType dtype, int64_t offset, T value) {
  switch (dtype) {
    case DType::kBool:
      static_cast<uint8_t*>(data)[offset] = static_cast<bool>(value) ? 1 : 0;
      return;
    case DType::kInt64:
      static_cast<int64_t*>(data)[offset] = static_cast<int64_t>(value);
      return;
    case DType::kFloat32:
      static_cast<float*>(data)[offset] = static_cast<float>(value);
      return;
    case DType::kFloat64:
      static_cast<double*>(data)[offset] = static_cast<double>(value);
      return;
  }
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_ELEMENTS_H_
