// How many steps (statements executed, comprehension items produced) one run may take
// before the reference gives up on it. A program that does not end (`while True: pass`)
// or runs far longer than any fixture is refused as not modeled (DESIGN D13), located at
// the statement that exceeded the budget, instead of running until someone kills it:
// torch would go on running, so no answer of the reference could be right.
//
// The budget belongs to the run in progress on the thread (a run is one Process on one
// thread): RunProgram and RunCompiled install it for the run's duration. Outside a run
// (the runtime's unit tests, which interpret snippets directly) nothing is counted.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_STEP_BUDGET_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_STEP_BUDGET_H_

#include <cstdint>

#include "reference/runtime/memory_budget.h"

namespace tdc::runtime {

// Generous: the largest fixtures take thousands of steps; this is tens of seconds.
inline constexpr int64_t kDefaultMaxSteps = 50'000'000;

// Installs a budget of `limit` steps for the run on this thread, until destroyed (the
// previous one, if any, is restored).
class ScopedStepBudget {
 public:
  explicit ScopedStepBudget(int64_t limit);
  ~ScopedStepBudget();
  ScopedStepBudget(const ScopedStepBudget&) = delete;
  ScopedStepBudget& operator=(const ScopedStepBudget&) = delete;

 private:
  int64_t saved_limit_;
  int64_t saved_taken_;
  ScopedMemoryAccount memory_;  // the run's memory budget, checked at each step
};

// One step of the run: refuses it (NotModeled) once the installed budget is spent, or once
// the run holds more tensor bytes than its memory budget (memory_budget.h).
void TakeStep();

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_STEP_BUDGET_H_
