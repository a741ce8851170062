#include "reference/runtime/interp/compiler_contract.h"

#include <utility>

namespace tdc::runtime {

std::optional<Stance> StanceNamed(std::string_view name) {
  // Sized by stances.def itself, so a row added there needs no count changed here.
  static constexpr std::pair<Stance, std::string_view> kNames[] = {
#define TDC_STANCE(id, text) {Stance::id, text},
#include "reference/runtime/interp/stances.def"
#undef TDC_STANCE
  };
  for (const auto& [stance, text] : kNames) {
    if (text == name) return stance;
  }
  return std::nullopt;
}

}  // namespace tdc::runtime
