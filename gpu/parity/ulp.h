// Distance in units in the last place (ULP) between two values of one dtype: how many
// representable values lie between them, plus one. -0.0 and +0.0 are 0 apart, as are two
// NaNs; a NaN and a number are kNotComparable apart.
#ifndef TDCONFORM_GPU_PARITY_ULP_H_
#define TDCONFORM_GPU_PARITY_ULP_H_

#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "gpu/parity/output.h"

namespace tdc::gpu {

inline constexpr uint64_t kNotComparable = std::numeric_limits<uint64_t>::max();

// The distance, or why there is none: a value that is not one of the dtype's, or a dtype
// whose representation is not modeled here (float16, complex).
std::variant<uint64_t, std::string> UlpDistance(double a, double b, graph::DType dtype);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_PARITY_ULP_H_
