#include "reference/runtime/interp/step_budget.h"

#include <fmt/format.h>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

constexpr int64_t kNoBudget = -1;

thread_local int64_t limit = kNoBudget;
thread_local int64_t taken = 0;

}  // namespace

ScopedStepBudget::ScopedStepBudget(int64_t new_limit) : saved_limit_(limit), saved_taken_(taken) {
  limit = new_limit;
  taken = 0;
}

ScopedStepBudget::~ScopedStepBudget() {
  limit = saved_limit_;
  taken = saved_taken_;
}

void TakeStep() {
  CheckMemoryBudget();
  if (limit == kNoBudget || ++taken <= limit) return;
  RefuseNotModeled(fmt::format(
      "the program ran more than {} steps (the step budget, tdref --max-steps)", limit));
}

}  // namespace tdc::runtime
