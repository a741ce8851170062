#include "reference/compare/tolerance.h"

#include <cmath>

namespace tdc::compare {

using graph::DType;
using graph::Tolerance;

ToleranceTable::ToleranceTable(const graph::Header& header) : overrides_(header.tolerance) {}

Tolerance ToleranceTable::Default(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return {.rtol = 1.3e-6, .atol = 1e-5};
    case DType::kFloat64:
      return {.rtol = 1e-7, .atol = 1e-7};
    case DType::kFloat16:
      return {.rtol = 1e-3, .atol = 1e-5};
    case DType::kBFloat16:
      return {.rtol = 1.6e-2, .atol = 1e-5};
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kInt64:
    case DType::kBool:
      return {.rtol = 0, .atol = 0};
  }
  return {.rtol = 0, .atol = 0};
}

Tolerance ToleranceTable::For(DType dtype) const {
  for (const auto& [overridden, tolerance] : overrides_) {
    if (overridden == dtype) return tolerance;
  }
  return Default(dtype);
}

bool WithinTolerance(double expected, double actual, Tolerance tolerance) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return expected == actual;
  return std::fabs(actual - expected) <= tolerance.atol + tolerance.rtol * std::fabs(expected);
}

}  // namespace tdc::compare
