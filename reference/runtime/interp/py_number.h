// A Python number as the operators and comparisons read it (bool counts as int).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_NUMBER_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_NUMBER_H_

#include <cstdint>
#include <optional>

#include "reference/runtime/values.h"

namespace tdc::runtime {

struct Num {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
  double AsDouble() const { return is_float ? f : static_cast<double>(i); }
};

// The number `v` holds; nullopt for anything but a bool, int or float.
inline std::optional<Num> NumberOf(const Value& v) {
  if (const auto* b = DynCast<PyBool>(v)) return Num{false, b->value() ? 1 : 0, 0};
  if (const auto* i = DynCast<PyInt>(v)) return Num{false, i->value(), 0};
  if (const auto* f = DynCast<PyFloat>(v)) return Num{true, 0, f->value()};
  return std::nullopt;
}

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_NUMBER_H_
