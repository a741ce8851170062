// A signal by its name (SIGSEGV), for the messages of crashes, timeouts and interruptions.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_SIGNAL_NAME_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_SIGNAL_NAME_H_

#include <fmt/format.h>

#include <cstring>
#include <string>

namespace tdc::conformance {

inline std::string SignalName(int signal) {
  const char* name = sigabbrev_np(signal);
  return name != nullptr ? fmt::format("SIG{}", name) : fmt::format("signal {}", signal);
}

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_SIGNAL_NAME_H_
