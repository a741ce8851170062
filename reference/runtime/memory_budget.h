// How many bytes of tensor storage one run may hold at once. Each tensor is already held to
// kMaxTensorElements (tensor_budget.h); a program that keeps making them (a list of a
// thousand large tensors) would still exhaust the machine, where torch's outcome depends on
// the machine's memory ("can't allocate memory" or not): past the budget the run is refused
// as not modeled (DESIGN D13), located at the statement that crossed it, never an abort.
//
// Every storage charges its bytes to the account of the run in progress on the thread that
// made it (none outside a run: the runtime's unit tests, the harness's own copies) and gives
// them back when freed. The check is at each step of the run (step_budget.h TakeStep), a
// statement boundary, so a refusal never unwinds through a backend's C frames.
#ifndef TDCONFORM_REFERENCE_RUNTIME_MEMORY_BUDGET_H_
#define TDCONFORM_REFERENCE_RUNTIME_MEMORY_BUDGET_H_

#include <atomic>
#include <cstdint>
#include <memory>

namespace tdc::runtime {

// Several times the largest fixture's needs, well inside the workplace's machines.
inline constexpr int64_t kDefaultMaxMemoryBytes = int64_t{1} << 30;

// The budget of the runs that start from now on, process-wide (tdref --max-memory).
void SetMaxMemoryBytes(int64_t bytes);
int64_t MaxMemoryBytes();

struct MemoryAccount {
  std::atomic<int64_t> held{0};
  int64_t limit = kDefaultMaxMemoryBytes;
};

// Opens a fresh account for the run on this thread (MaxMemoryBytes() its limit), until
// destroyed (the previous one, if any, is current again).
class ScopedMemoryAccount {
 public:
  ScopedMemoryAccount();
  ~ScopedMemoryAccount();
  ScopedMemoryAccount(const ScopedMemoryAccount&) = delete;
  ScopedMemoryAccount& operator=(const ScopedMemoryAccount&) = delete;

 private:
  std::shared_ptr<MemoryAccount> saved_;
};

// Bytes charged to the account current where the charge is made, given back when it is
// destroyed (whichever thread or run frees it). A copy charges the copy's own bytes again.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  explicit MemoryCharge(int64_t bytes);
  MemoryCharge(const MemoryCharge& other) : MemoryCharge(other.bytes_) {}
  MemoryCharge(MemoryCharge&& other) noexcept;
  MemoryCharge& operator=(MemoryCharge other) noexcept;
  ~MemoryCharge();

 private:
  std::shared_ptr<MemoryAccount> account_;
  int64_t bytes_ = 0;
};

// Refuses the run (NotModeled) when its account holds more than its limit.
void CheckMemoryBudget();

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_MEMORY_BUDGET_H_
