// The CUDA backend's side of the ABI (conformance/abi/tdconform_backend.h): it compiles
// graphs of cuda_ops.def's ops on float32, float64, int64 and bool tensors at both levels
// (plan.h) into steps that run on the device (run_plan.h, device.h):
// inputs copied to device memory, one kernel launch per node, the outputs copied back into
// the host's tensors. Opaque nodes (a custom op, an allowed function) run on the host through
// host->run_node, their operands copied back for it. Anything else is NOT_SUPPORTED, before
// it runs. Where the machine has no CUDA device, create() says so (NOT_SUPPORTED): every
// case is then NOT_SUPPORTED with that reason.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

#include "conformance/abi/tdconform_backend.h"
#include "gpu/backend/device.h"
#include "gpu/backend/plan.h"
#include "gpu/backend/run_plan.h"

struct tdc_compiled {
  tdc::gpu::Plan plan;
};

struct tdc_backend {
  const tdc_host_api* host = nullptr;
  std::unique_ptr<tdc::gpu::Device> device;
  size_t live = 0;
};

namespace tdc::gpu {

namespace {

void Say(char* message, size_t size, const std::string& text) {
  if (message != nullptr && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

// ---- the table ------------------------------------------------------------------------------

void GetInfo(tdc_backend_info* out) {
  out->name = BackendName();
  out->version = "0.1";
  out->vendor = "tdconform";
  // A 1.0 host's struct has no environment.
  if (out->struct_size >= offsetof(tdc_backend_info, environment) + sizeof out->environment)
    out->environment = DeviceEnvironment();
}

void GetCapabilities(tdc_capabilities* out) {
  const Targets& targets = AllTargets();
  out->graph_levels = (1u << TDC_GRAPH_LEVEL_DYNAMO) | (1u << TDC_GRAPH_LEVEL_ATEN);
  out->dtypes = uint64_t{1} << TDC_DTYPE_FLOAT32 | uint64_t{1} << TDC_DTYPE_FLOAT64 |
                uint64_t{1} << TDC_DTYPE_INT64 | uint64_t{1} << TDC_DTYPE_BOOL;
  out->devices = 1u << TDC_DEVICE_CPU;  // it takes and gives host tensors; computes on the GPU
  out->features = 0;
  out->num_ops = targets.pointers.size();
  out->ops = targets.pointers.data();
}

tdc_status Create(const tdc_host_api* host, tdc_backend** out, char* message, size_t size) {
  if (host == nullptr || out == nullptr || host->alloc_tensor == nullptr ||
      host->run_node == nullptr) {
    Say(message, size, "the host table lacks alloc_tensor or run_node");
    return TDC_STATUS_ERROR;
  }
  auto device = OpenDevice();
  if (auto* missing = std::get_if<std::string>(&device)) {
    Say(message, size, *missing);
    return TDC_STATUS_NOT_SUPPORTED;
  }
  *out = new tdc_backend{host, std::get<std::unique_ptr<Device>>(std::move(device)), 0};
  return TDC_STATUS_OK;
}

void Destroy(tdc_backend* backend) { delete backend; }

tdc_status CanCompile(tdc_backend*, const tdc_graph* graph, char* message, size_t size) {
  auto plan = PlanGraph(graph);
  if (auto* why = std::get_if<std::string>(&plan)) {
    Say(message, size, *why);
    return TDC_STATUS_NOT_SUPPORTED;
  }
  return TDC_STATUS_OK;
}

tdc_status Compile(tdc_backend* backend, const tdc_graph* graph, int32_t device, tdc_compiled** out,
                   char* message, size_t size) {
  if (device != TDC_DEVICE_CPU) {
    Say(message, size, "it takes host tensors (TDC_DEVICE_CPU) and copies them to the GPU");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  auto plan = PlanGraph(graph);
  if (auto* why = std::get_if<std::string>(&plan)) {
    Say(message, size, *why);
    return TDC_STATUS_NOT_SUPPORTED;
  }
  *out = new tdc_compiled{std::get<Plan>(std::move(plan))};
  ++backend->live;
  return TDC_STATUS_OK;
}

tdc_status RunCompiled(tdc_backend* backend, tdc_compiled* compiled, const tdc_tensor* inputs,
                       size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
                       size_t size) {
  std::string why;
  const tdc_status status = RunPlan(compiled->plan, *backend->device, *backend->host, inputs,
                                    num_inputs, outputs, num_outputs, why);
  if (status != TDC_STATUS_OK) Say(message, size, why);
  return status;
}

void Release(tdc_backend* backend, tdc_compiled* compiled) {
  delete compiled;
  --backend->live;
}

size_t LiveHandles(const tdc_backend* backend) { return backend->live; }

constexpr tdc_backend_api kApi = {
    sizeof(tdc_backend_api),
    TDC_ABI_VERSION_MAJOR,
    TDC_ABI_VERSION_MINOR,
    GetInfo,
    GetCapabilities,
    Create,
    Destroy,
    CanCompile,
    Compile,
    RunCompiled,
    Release,
    LiveHandles,
};

}  // namespace

}  // namespace tdc::gpu

extern "C" TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major,
                                                                         uint16_t) {
  return host_abi_major == TDC_ABI_VERSION_MAJOR ? &tdc::gpu::kApi : nullptr;
}
