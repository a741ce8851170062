#include "reference/dynamo/rules.h"

#include <array>

namespace tdc::dynamo {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(Rule::kCount)> kLabels = {
#define TDC_RULE(e, label, ref) label,
#include "reference/dynamo/rules.def"
#undef TDC_RULE
};

}  // namespace

std::string_view RuleLabel(Rule rule) { return kLabels[static_cast<size_t>(rule)]; }

std::optional<Rule> FindRule(std::string_view label) {
  if (label.starts_with("R-")) label.remove_prefix(2);
  for (size_t i = 0; i < kLabels.size(); ++i) {
    if (kLabels[i] == label) return static_cast<Rule>(i);
  }
  return std::nullopt;
}

}  // namespace tdc::dynamo
