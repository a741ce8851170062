#include "gpu/parity/ulp.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

namespace tdc::gpu {

namespace {

// The values of a float format in order, as integers: the sign-magnitude bit pattern
// folded so that consecutive representable values are consecutive integers and both
// zeros are 0.
template <typename Bits>
int64_t Ordered(Bits bits, int width) {
  const Bits sign = Bits{1} << (width - 1);
  const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) != 0 ? -magnitude : magnitude;
}

uint64_t Distance(int64_t a, int64_t b) {
  return a > b ? static_cast<uint64_t>(a) - static_cast<uint64_t>(b)
               : static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
}

}  // namespace

std::variant<uint64_t, std::string> UlpDistance(double a, double b, graph::DType dtype) {
  using graph::DType;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : kNotComparable;
  const graph::ElementKind kind = graph::DTypeElementKind(dtype);
  if (kind == graph::ElementKind::kInt || kind == graph::ElementKind::kBool) {
    // A double holds every integer up to 2**53 exactly; past that the distance would be a guess.
    constexpr double kExact = 0x1p53;
    if (std::trunc(a) != a || std::trunc(b) != b || std::fabs(a) > kExact ||
        std::fabs(b) > kExact) {
      return fmt::format("{} or {} is not an integer held exactly", a, b);
    }
    return static_cast<uint64_t>(std::fabs(a - b));
  }
  if (dtype == DType::kFloat64) {
    return Distance(Ordered(std::bit_cast<uint64_t>(a), 64),
                    Ordered(std::bit_cast<uint64_t>(b), 64));
  }
  if (dtype == DType::kFloat32 || dtype == DType::kBFloat16) {
    if (AsFloat32(a) != a || AsFloat32(b) != b) {
      return fmt::format("{} or {} is not a float32 value", a, b);
    }
    const auto fa = static_cast<float>(a), fb = static_cast<float>(b);
    uint64_t d = Distance(Ordered(std::bit_cast<uint32_t>(fa), 32),
                          Ordered(std::bit_cast<uint32_t>(fb), 32));
    // bfloat16 is float32's upper half: one of its steps is 2**16 of float32's.
    if (dtype == DType::kBFloat16) {
      if (((std::bit_cast<uint32_t>(fa) | std::bit_cast<uint32_t>(fb)) & 0xffffU) != 0) {
        return fmt::format("{} or {} is not a bfloat16 value", a, b);
      }
      d >>= 16;
    }
    return d;
  }
  return fmt::format("ULP distance in {} is not modeled", graph::DTypeName(dtype));
}

}  // namespace tdc::gpu
