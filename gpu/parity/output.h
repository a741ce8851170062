// One compared output of a graph (issue 31): what the backend computed, what the reference
// computed in the same dtype (eager), and the same graph evaluated in float64 on the CPU.
// Values travel as doubles: a float32 element is exactly representable in one.
#ifndef TDCONFORM_GPU_PARITY_OUTPUT_H_
#define TDCONFORM_GPU_PARITY_OUTPUT_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "reference/graph/vocabulary.h"

namespace tdc::gpu {

struct ComparedOutput {
  graph::DType dtype = graph::DType::kFloat32;  // not complex: values are real doubles
  std::vector<int64_t> shape;
  std::vector<double> actual;               // the backend's
  std::vector<double> expected;             // the reference's, same dtype
  std::optional<std::vector<double>> fp64;  // the graph in float64, when evaluated
};

// x rounded to float32 as torch's .to(torch.float32) rounds it (to nearest, overflowing to
// an infinity), without the undefined behaviour of casting a double outside float's range.
inline double AsFloat32(double x) {
  constexpr double kOverflow = 0x1.ffffffp127;  // float's largest value plus half a step
  if (std::fabs(x) >= kOverflow && !std::isinf(x)) {
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  }
  return static_cast<float>(x);
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_PARITY_OUTPUT_H_
