#include "reference/runtime/memory_budget.h"

#include <fmt/format.h>

#include <utility>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

std::atomic<int64_t> max_memory_bytes{kDefaultMaxMemoryBytes};

thread_local std::shared_ptr<MemoryAccount> current;

}  // namespace

void SetMaxMemoryBytes(int64_t bytes) { max_memory_bytes = bytes; }
int64_t MaxMemoryBytes() { return max_memory_bytes; }

ScopedMemoryAccount::ScopedMemoryAccount() : saved_(std::move(current)) {
  current = std::make_shared<MemoryAccount>();
  current->limit = max_memory_bytes;
}

ScopedMemoryAccount::~ScopedMemoryAccount() { current = std::move(saved_); }

MemoryCharge::MemoryCharge(int64_t bytes) : account_(current), bytes_(bytes) {
  if (account_) account_->held += bytes_;
}

MemoryCharge::MemoryCharge(MemoryCharge&& other) noexcept
    : account_(std::move(other.account_)), bytes_(std::exchange(other.bytes_, 0)) {}

MemoryCharge& MemoryCharge::operator=(MemoryCharge other) noexcept {
  std::swap(account_, other.account_);
  std::swap(bytes_, other.bytes_);
  return *this;
}

MemoryCharge::~MemoryCharge() {
  if (account_) account_->held -= bytes_;
}

void CheckMemoryBudget() {
  if (!current || current->held <= current->limit) return;
  RefuseNotModeled(fmt::format(
      "the program holds {} bytes of tensors at once, over the memory budget of {} bytes "
      "(tdref --max-memory; torch's outcome depends on the machine's memory)",
      current->held.load(), current->limit));
}

}  // namespace tdc::runtime
