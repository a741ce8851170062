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

void DynamoCounters::Add(std::string_view category, std::string_view key, int64_t n) {
  Counter& counter = *Category(category);
  for (auto& [k, count] : counter) {
    if (k == key) {
      count += n;
      return;
    }
  }
  counter.emplace_back(std::string(key), n);
}

const std::shared_ptr<DynamoCounters::Counter>& DynamoCounters::Category(
    std::string_view category) {
  for (const auto& [name, counter] : categories) {
    if (name == category) return counter;
  }
  return categories.emplace_back(std::string(category), std::make_shared<Counter>()).second;
}

void DynamoCounters::MarkNotExact(std::string_view category, std::string why) {
  const std::shared_ptr<Counter>& counter = Category(category);
  if (!WhyNotExact(*counter)) not_exact_.emplace_back(counter, std::move(why));
}

std::optional<std::string> DynamoCounters::WhyNotExact(const Counter& counter) const {
  for (const auto& [c, why] : not_exact_) {
    if (c.get() == &counter) return why;
  }
  return std::nullopt;
}

DynamoCounters::Counter DynamoCounters::Counts(std::string_view category) const {
  for (const auto& [name, counter] : categories) {
    if (name == category) return *counter;
  }
  return {};
}

}  // namespace tdc::runtime
