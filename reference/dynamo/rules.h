// The rule switches (rules.def): every rule on by default; the switch-off tests turn one
// off and check that a fixture citing it then differs from its golden.
#ifndef TDCONFORM_REFERENCE_DYNAMO_RULES_H_
#define TDCONFORM_REFERENCE_DYNAMO_RULES_H_

#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tdc::dynamo {

enum class Rule {
#define TDC_RULE(e, label, ref) e,
#include "reference/dynamo/rules.def"
#undef TDC_RULE
  kCount
};

std::string_view RuleLabel(Rule rule);
// The rule named `label` ("frame-id" or "R-frame-id").
std::optional<Rule> FindRule(std::string_view label);

class RuleSet {
 public:
  bool on(Rule rule) const { return !off_[static_cast<size_t>(rule)]; }
  void Disable(Rule rule) { off_.set(static_cast<size_t>(rule)); }

 private:
  std::bitset<static_cast<size_t>(Rule::kCount)> off_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_RULES_H_
