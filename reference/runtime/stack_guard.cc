#include "reference/runtime/stack_guard.h"

#include <pthread.h>

#include <cstdint>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

// The lowest address of this thread's stack (it grows down), or 0 when unknown.
uintptr_t StackLowEnd() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* low = nullptr;
  size_t size = 0;
  int rc = pthread_attr_getstack(&attr, &low, &size);
  pthread_attr_destroy(&attr);
  return rc == 0 ? reinterpret_cast<uintptr_t>(low) : 0;
}

}  // namespace

void CheckStackLeft() {
  thread_local const uintptr_t low_end = StackLowEnd();
  if (low_end == 0) return;
  char probe;
  auto here = reinterpret_cast<uintptr_t>(&probe);
  if (here > low_end + kStackReserveBytes) return;
  RefuseNotModeled(
      "the program nests calls, expressions or containers (one holding itself) deeper than the "
      "reference's C++ stack allows");
}

}  // namespace tdc::runtime
