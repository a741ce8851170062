// A view or a copy (cuda_ops.def's TDC_CUDA_VIEW rows) as the elementwise kernel's copy
// runs it: the output's shape, and the strides each of its dims reads the (contiguous)
// input through, from the step's arguments.
#ifndef TDCONFORM_GPU_BACKEND_VIEWS_H_
#define TDCONFORM_GPU_BACKEND_VIEWS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/backend/plan.h"

namespace tdc::gpu {

// The shape and strides, or why the arguments do not fit the input (torch's error).
std::string ViewOf(const Step& s, const std::vector<int64_t>& in,
                   const std::vector<int64_t>& in_strides, std::vector<int64_t>& shape,
                   std::vector<int64_t>& strides);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_VIEWS_H_
