// Runs a generic lambda with a value of the C++ element type of a runtime dtype, so a
// kernel is written once and instantiated per dtype (float32 computes in float).
#ifndef TDCONFORM_REFERENCE_RUNTIME_DISPATCH_H_
#define TDCONFORM_REFERENCE_RUNTIME_DISPATCH_H_

#include <cstdint>
#include <type_traits>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

template <typename F>
auto VisitDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat32:
      return f(float{});
    case DType::kFloat64:
      return f(double{});
    case DType::kInt64:
      return f(int64_t{});
    case DType::kBool:
      return f(bool{});
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      break;
  }
  throw TorchError("RuntimeError", "dtype not supported by the reference runtime");
}

// An element converted to T as torch's static_cast from the element's own type does
// (int64 → float converts directly, never through double).
template <typename T>
T ScalarAs(const Scalar& s) {
  if (s.dtype == DType::kBool) return static_cast<T>(s.b);
  if (s.dtype == DType::kInt64) return static_cast<T>(s.i);
  if (s.dtype == DType::kFloat32) return static_cast<T>(static_cast<float>(s.f));
  return static_cast<T>(s.f);
}

template <typename T>
Scalar MakeScalar(T v, DType dtype) {
  if constexpr (std::is_same_v<T, bool>)
    return Scalar::Bool(v);
  else if constexpr (std::is_same_v<T, int64_t>)
    return Scalar::Int(v);
  else
    return Scalar::Float(static_cast<double>(v), dtype);
}

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_DISPATCH_H_
