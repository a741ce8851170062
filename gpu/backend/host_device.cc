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
  std::variant<void*, std::string> Allocate(int64_t bytes) override {
    // Aligned for any element (operator new's alignment), as cudaMalloc's buffers are.
    void* buffer = ::operator new(static_cast<size_t>(bytes > 0 ? bytes : 1), std::nothrow);
    if (buffer == nullptr) return std::string("out of host memory");
    return buffer;
  }
  void Free(void* buffer) override { ::operator delete(buffer); }
  std::string CopyToDevice(void* device, const void* host, int64_t bytes) override {
    if (bytes > 0) std::memcpy(device, host, static_cast<size_t>(bytes));
    return {};
  }
  std::string CopyToHost(void* host, const void* device, int64_t bytes) override {
    return CopyToDevice(host, device, bytes);
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
