// Shapes of contiguous tensors as the CUDA backend's host code computes them: row-major
// strides (torch's: a size-0 or size-1 dim takes the next one's stride), element counts,
// dims wrapped as torch wraps them.
#ifndef TDCONFORM_GPU_BACKEND_SHAPES_H_
#define TDCONFORM_GPU_BACKEND_SHAPES_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tdc::gpu {

inline std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * std::max<int64_t>(shape[d], 1);
  return strides;
}

inline int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// `dim` wrapped into [0, rank) as torch wraps it (a 0-d tensor takes 0 and -1), or -1 when
// it is out of range.
inline int64_t Wrap(int64_t dim, int64_t rank) {
  const int64_t extent = std::max<int64_t>(rank, 1);
  if (dim < -extent || dim >= extent) return -1;
  return dim < 0 ? dim + extent : dim;
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_SHAPES_H_
