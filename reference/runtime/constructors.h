// Tensor factories with torch's default dtypes and torch's element formulas (arange
// and linspace values are bitwise equal to torch's CPU kernels for float32/float64).
#ifndef TDCONFORM_REFERENCE_RUNTIME_CONSTRUCTORS_H_
#define TDCONFORM_REFERENCE_RUNTIME_CONSTRUCTORS_H_

#include <optional>
#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// torch.tensor(data): data flattened in row-major order with its nested-list shape. With
// no dtype, torch infers bool, int64 or (any float) the default float32.
Tensor MakeTensor(const Shape& shape, const std::vector<Scalar>& flat,
                  std::optional<DType> dtype = std::nullopt);
// torch.arange(start, end, step): int64 when all three are integers, else float32.
Tensor Arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype = std::nullopt);
// torch.linspace(start, end, steps): float32 unless dtype is given.
Tensor Linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<DType> dtype = std::nullopt);
Tensor Full(const Shape& shape, const Scalar& value, std::optional<DType> dtype = std::nullopt);
Tensor Ones(const Shape& shape, DType dtype = DType::kFloat32);
Tensor Zeros(const Shape& shape, DType dtype = DType::kFloat32);
// *_like keep the input's layout (memory_format=preserve) and dtype unless given.
Tensor EmptyLikeOf(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor OnesLike(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor ZerosLike(const Tensor& t, std::optional<DType> dtype = std::nullopt);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_CONSTRUCTORS_H_
