// The host standing in for a CUDA device: the kernels' own code (elementwise.h, reduction.h,
// matmul.h)
// run in a loop over host memory. Only tests load this library: it says in its name and its
// environment that no device computed anything.
#include <cstring>
#include <new>

#include "gpu/backend/device.h"

namespace tdc::gpu {

namespace {

class HostDevice final : public Device {
 public:
  std::variant<float*, std::string> Allocate(int64_t count) override {
    auto* buffer = new (std::nothrow) float[count > 0 ? count : 1];
    if (buffer == nullptr) return std::string("out of host memory");
    return buffer;
  }
  void Free(float* buffer) override { delete[] buffer; }
  std::string CopyToDevice(float* device, const float* host, int64_t count) override {
    if (count > 0) std::memcpy(device, host, static_cast<size_t>(count) * sizeof(float));
    return {};
  }
  std::string CopyToHost(float* host, const float* device, int64_t count) override {
    return CopyToDevice(host, device, count);
  }
  std::string Run(const ElementLaunch& launch) override {
    for (int64_t i = 0; i < launch.numel; ++i) ComputeElement(launch, i);
    return {};
  }
  std::string Run(const ReduceLaunch& launch) override {
    for (int64_t i = 0; i < launch.out_numel; ++i) ComputeReduced(launch, i);
    return {};
  }
  std::string Run(const MatmulLaunch& launch) override {
    for (int64_t i = 0; i < launch.out_numel; ++i) ComputeProduct(launch, i);
    return {};
  }
};

}  // namespace

std::variant<std::unique_ptr<Device>, std::string> OpenDevice() {
  return std::make_unique<HostDevice>();
}

const char* BackendName() { return "cuda-emulated"; }

const char* DeviceEnvironment() {
  return "no device: the CUDA backend's kernel code run on the host (a test build)";
}

}  // namespace tdc::gpu
