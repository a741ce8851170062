// Where the CUDA backend's values live and its kernel runs: the machine's CUDA device
// (cuda_device.cu, libtdc_backend_cuda.so), or the host standing in for one
// (host_device.cc, libtdc_backend_cuda_emulated.so), which runs the same kernel code so that
// everything but the device itself is tested on a machine without one. Errors are values:
// an error text, empty on success.
#ifndef TDCONFORM_GPU_BACKEND_DEVICE_H_
#define TDCONFORM_GPU_BACKEND_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "gpu/backend/elementwise.h"
#include "gpu/backend/matmul.h"
#include "gpu/backend/reduction.h"

namespace tdc::gpu {

class Device {
 public:
  virtual ~Device() = default;
  // A buffer of `bytes` bytes in the device's memory (never null on success).
  virtual std::variant<void*, std::string> Allocate(int64_t bytes) = 0;
  virtual void Free(void* buffer) = 0;
  virtual std::string CopyToDevice(void* device, const void* host, int64_t bytes) = 0;
  virtual std::string CopyToHost(void* host, const void* device, int64_t bytes) = 0;
  // Runs the launch (its operands and output in the device's memory) to completion.
  virtual std::string Run(const ElementLaunch& launch) = 0;
  virtual std::string Run(const ReduceLaunch& launch) = 0;
  virtual std::string Run(const MatmulLaunch& launch) = 0;
};

// This machine's device, or why there is none ("no CUDA device: ...").
std::variant<std::unique_ptr<Device>, std::string> OpenDevice();

// The backend's name, and for the report's header (tdc_backend_info.environment) the device,
// its driver and runtime versions and the math settings its kernel uses; when there is no
// device, why.
const char* BackendName();
const char* DeviceEnvironment();

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_DEVICE_H_
