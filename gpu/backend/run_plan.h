// Runs a compiled graph (plan.h) on a device: inputs copied to contiguous device buffers,
// one kernel launch per elementwise step, an opaque node's operands copied back for the host
// to run it (host->run_node) and its results copied to the device, the outputs copied into
// tensors the host allocates. Every device buffer is freed, whatever fails.
#ifndef TDCONFORM_GPU_BACKEND_RUN_PLAN_H_
#define TDCONFORM_GPU_BACKEND_RUN_PLAN_H_

#include <string>

#include "conformance/abi/tdconform_backend.h"
#include "gpu/backend/device.h"
#include "gpu/backend/plan.h"

namespace tdc::gpu {

// OK, or the status with why (`why`): ERROR for what went wrong on the device or the host,
// the host's status for an opaque node it refused, NOT_SUPPORTED for an opaque node's result
// that is no float32 tensor of rank 8 or less.
tdc_status RunPlan(const Plan& plan, Device& device, const tdc_host_api& host,
                   const tdc_tensor* inputs, size_t num_inputs, tdc_tensor* outputs,
                   size_t num_outputs, std::string& why);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_RUN_PLAN_H_
