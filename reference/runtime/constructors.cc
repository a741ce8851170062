#include "reference/runtime/constructors.h"

#include <cmath>

#include "reference/runtime/dispatch.h"
#include "reference/runtime/promotion.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

// The dtype torch infers for Python scalars: the "highest" of bool < int < float,
// with float meaning the default dtype.
DType InferDType(const std::vector<Scalar>& values) {
  DType dtype = DType::kBool;
  for (const Scalar& v : values) {
    dtype = PromoteTypes(dtype, IsFloating(v.dtype) ? DType::kFloat32 : v.dtype);
  }
  return dtype;
}

void Fill(const Tensor& t, const Scalar& value) {
  for (int64_t off : t.ElementOffsets()) t.Store(off, value);
}

}  // namespace

Tensor MakeTensor(const Shape& shape, const std::vector<Scalar>& flat, std::optional<DType> dtype) {
  DType d = dtype.value_or(flat.empty() ? DType::kFloat32 : InferDType(flat));
  return TensorFromValues(d, shape, flat);
}

Tensor Arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype) {
  DType d = dtype.value_or(InferDType({start, end, step, Scalar::Int(0)}) == DType::kFloat32
                               ? DType::kFloat32
                               : DType::kInt64);
  // An integral dtype casts the bounds and step to int64 before sizing.
  bool integral = !IsFloating(d);
  auto as = [&](const Scalar& s) {
    return integral ? static_cast<double>(s.AsInt()) : s.AsDouble();
  };
  double xstart = as(start), xend = as(end), xstep = as(step);
  // A zero step is a RuntimeError; a step that only becomes zero when cast to the
  // integral dtype is caught by a later check that raises ValueError.
  if (step.AsDouble() == 0) throw TorchError("RuntimeError", "step must be nonzero");
  if (xstep == 0) throw TorchError("ValueError", "step must be nonzero");
  if ((xstep > 0 && xend < xstart) || (xstep < 0 && xend > xstart)) {
    throw TorchError("RuntimeError", "upper bound and lower bound inconsistent with step sign");
  }
  // torch sizes the result in double: ceil((end - start) / step).
  int64_t size = static_cast<int64_t>(std::ceil((xend - xstart) / xstep));
  if (size < 0) size = 0;
  Tensor t = EmptyTensor(d, {size});
  VisitDType(d, [&](auto tag) {
    using T = decltype(tag);
    // The accumulate type is double for floats, int64 for integers.
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    Acc s = integral ? Acc(start.AsInt()) : ScalarAs<Acc>(start);
    Acc st = integral ? Acc(step.AsInt()) : ScalarAs<Acc>(step);
    int64_t i = 0;
    if constexpr (std::is_floating_point_v<T>) {
      // torch's CPU kernel (RangeFactoriesKernel.cpp arange_kernel through Loops.h
      // vectorized_loop, one chunk with one thread) fills blocks of two vectors of
      // W = 32 bytes / sizeof(T) lanes (the default capability's generic Vectorized<T>):
      // each vector's base = T(start + step * idx) is formed once and lane k is
      // T(double(base) + k * step) (vec_base.h Vectorized<T>::arange). The tail of fewer
      // than 2W elements is start + step * idx per element.
      constexpr int64_t kW = 32 / static_cast<int64_t>(sizeof(T));
      for (; i <= size - 2 * kW; i += 2 * kW) {
        for (int64_t idx = i; idx < i + 2 * kW; idx += kW) {
          T base = static_cast<T>(s + st * static_cast<double>(idx));
          for (int64_t k = 0; k < kW; ++k) {
            double v = static_cast<double>(base) + static_cast<double>(k) * st;
            t.Store(idx + k, MakeScalar<T>(static_cast<T>(v), d));
          }
        }
      }
    }
    for (; i < size; ++i) t.Store(i, MakeScalar<T>(static_cast<T>(s + st * Acc(i)), d));
    return 0;
  });
  return t;
}

Tensor Linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  if (steps < 0) throw TorchError("RuntimeError", "number of steps must be non-negative");
  DType d = dtype.value_or(DType::kFloat32);
  Tensor t = EmptyTensor(d, {steps});
  if (steps == 0) return t;
  VisitDType(d, [&](auto tag) {
    using T = decltype(tag);
    // torch computes in the element type (double for integers), the first half from
    // start and the second half back from end, so both endpoints are exact.
    using Step = std::conditional_t<std::is_floating_point_v<T>, T, double>;
    // Bounds are cast to the element type first (an int64 linspace truncates them).
    Step a = static_cast<Step>(ScalarAs<T>(start)), b = static_cast<Step>(ScalarAs<T>(end));
    if (steps == 1) {
      t.Store(0, MakeScalar<T>(static_cast<T>(a), d));
      return 0;
    }
    Step step = (b - a) / static_cast<Step>(steps - 1);
    int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      Step v = i < halfway ? a + step * static_cast<Step>(i)
                           : b - step * static_cast<Step>(steps - i - 1);
      t.Store(i, MakeScalar<T>(static_cast<T>(v), d));
    }
    return 0;
  });
  return t;
}

Tensor Full(const Shape& shape, const Scalar& value, std::optional<DType> dtype) {
  Tensor t = EmptyTensor(dtype.value_or(InferDType({value})), shape);
  Fill(t, value);
  return t;
}

Tensor Ones(const Shape& shape, DType dtype) { return Full(shape, Scalar::Int(1), dtype); }
Tensor Zeros(const Shape& shape, DType dtype) {
  // at::zeros checks the sizes itself, before empty_generic's own check.
  for (int64_t s : shape) {
    if (s < 0) throw TorchError("RuntimeError", "zeros: Dimension size must be non-negative.");
  }
  return Full(shape, Scalar::Int(0), dtype);
}

Tensor EmptyLikeOf(const Tensor& t, std::optional<DType> dtype) {
  return EmptyLike(t, dtype.value_or(t.dtype));
}

Tensor OnesLike(const Tensor& t, std::optional<DType> dtype) {
  Tensor out = EmptyLikeOf(t, dtype);
  Fill(out, Scalar::Int(1));
  return out;
}

Tensor ZerosLike(const Tensor& t, std::optional<DType> dtype) {
  Tensor out = EmptyLikeOf(t, dtype);
  Fill(out, Scalar::Int(0));
  return out;
}

}  // namespace tdc::runtime
