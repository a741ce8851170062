#include "reference/runtime/interp/compiler_contract.h"

#include <array>

namespace tdc::runtime {

std::optional<Stance> StanceNamed(std::string_view name) {
  static constexpr std::array<std::pair<Stance, std::string_view>, 6> kNames = {{
#define TDC_STANCE(id, text) {Stance::id, text},
#include "reference/runtime/interp/stances.def"
#undef TDC_STANCE
  }};
  for (const auto& [stance, text] : kNames) {
    if (text == name) return stance;
  }
  return std::nullopt;
}

}  // namespace tdc::runtime
