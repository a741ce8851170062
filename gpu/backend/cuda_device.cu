// The machine's CUDA device: buffers from plain cudaMalloc, the kernels (elementwise.h,
// reduction.h, matmul.h) one thread per output element in a grid-stride loop, every launch
// synchronized before its result is read, so an error is this launch's.
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "gpu/backend/device.h"

namespace tdc::gpu {

namespace {

std::string Error(const char* call, cudaError_t error) {
  return std::string(call) + ": " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) +
         ")";
}

__global__ void ElementwiseKernel(ElementLaunch launch) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < launch.numel;
       i += stride) {
    ComputeElement(launch, i);
  }
}

__global__ void ReductionKernel(ReduceLaunch launch) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < launch.out_numel; i += stride) {
    ComputeReduced(launch, i);
  }
}

__global__ void MatmulKernel(MatmulLaunch launch) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < launch.out_numel; i += stride) {
    ComputeProduct(launch, i);
  }
}

// Launches `kernel` over `count` items, grid-stride, and waits for it.
template <typename Launch>
std::string LaunchAndWait(void (*kernel)(Launch), const Launch& launch, int64_t count) {
  if (count == 0) return {};
  constexpr int kThreads = 256;
  const int64_t blocks = std::min<int64_t>((count + kThreads - 1) / kThreads, 65535);
  kernel<<<static_cast<unsigned>(blocks), kThreads>>>(launch);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return Error("kernel launch", e);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    return Error("cudaDeviceSynchronize", e);
  return {};
}

class CudaDevice final : public Device {
 public:
  std::variant<void*, std::string> Allocate(int64_t bytes) override {
    void* buffer = nullptr;
    if (cudaError_t e = cudaMalloc(&buffer, static_cast<size_t>(std::max<int64_t>(bytes, 1)));
        e != cudaSuccess)
      return Error("cudaMalloc", e);
    return buffer;
  }
  void Free(void* buffer) override { cudaFree(buffer); }
  std::string CopyToDevice(void* device, const void* host, int64_t bytes) override {
    return Copy(device, host, bytes, cudaMemcpyHostToDevice);
  }
  std::string CopyToHost(void* host, const void* device, int64_t bytes) override {
    return Copy(host, device, bytes, cudaMemcpyDeviceToHost);
  }
  std::string Run(const ElementLaunch& launch) override {
    return LaunchAndWait(ElementwiseKernel, launch, launch.numel);
  }
  std::string Run(const ReduceLaunch& launch) override {
    return LaunchAndWait(ReductionKernel, launch, launch.out_numel);
  }
  std::string Run(const MatmulLaunch& launch) override {
    return LaunchAndWait(MatmulKernel, launch, launch.out_numel);
  }

 private:
  static std::string Copy(void* to, const void* from, int64_t bytes, cudaMemcpyKind kind) {
    if (bytes <= 0) return {};
    if (cudaError_t e = cudaMemcpy(to, from, static_cast<size_t>(bytes), kind); e != cudaSuccess)
      return Error("cudaMemcpy", e);
    return {};
  }
};

// Why there is no device 0, or empty; initializes CUDA in this process.
std::string MissingDevice() {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess)
    return "no CUDA device: " + Error("cudaGetDeviceCount", e);
  if (count == 0) return "no CUDA device: cudaGetDeviceCount found none";
  return {};
}

// What the report's header says of device 0, or why there is none; initializes CUDA in this
// process.
std::string EnvironmentHere() {
  if (std::string missing = MissingDevice(); !missing.empty()) return missing;
  int count = 0;
  cudaGetDeviceCount(&count);
  cudaDeviceProp prop{};
  int driver = 0, runtime = 0;
  cudaGetDeviceProperties(&prop, 0);
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  char text[512];
  std::snprintf(text, sizeof text,
                "%s (sm_%d%d, %d devices), driver API %d.%d, CUDA runtime %d.%d; TF32 off "
                "(float32 arithmetic, no tensor cores); deterministic (one thread per output "
                "element, no atomics)",
                prop.name, prop.major, prop.minor, count, driver / 1000, driver % 1000 / 10,
                runtime / 1000, runtime % 1000 / 10);
  return text;
}

// EnvironmentHere's text, computed in a child process: a process that has initialized CUDA
// cannot hand it to the processes it forks, and tdconform forks every case from the process
// that loaded the backend and asked for its info.
std::string EnvironmentFromChild() {
  int fds[2];
  if (pipe(fds) != 0) return "unknown (pipe failed)";
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return "unknown (fork failed)";
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string text = EnvironmentHere();
    ssize_t written = write(fds[1], text.data(), text.size());
    _exit(written == static_cast<ssize_t>(text.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
    return "unknown (the probe of the CUDA device failed)";
  return text;
}

}  // namespace

std::variant<std::unique_ptr<Device>, std::string> OpenDevice() {
  if (std::string missing = MissingDevice(); !missing.empty()) return missing;
  if (cudaError_t e = cudaSetDevice(0); e != cudaSuccess) return Error("cudaSetDevice", e);
  return std::make_unique<CudaDevice>();
}

const char* BackendName() { return "cuda"; }

const char* DeviceEnvironment() {
  static const std::string environment = EnvironmentFromChild();
  return environment.c_str();
}

}  // namespace tdc::gpu
