#include "conformance/runner/strays.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <vector>

#include "conformance/executor/processes.h"

namespace tdc::conformance {

namespace {

// The processes whose parent is this one; nothing when /proc could not be read through.
std::optional<std::vector<pid_t>> Children() {
  const std::optional<std::vector<ProcessStat>> processes = ListProcesses();
  if (!processes) return std::nullopt;
  std::vector<pid_t> children;
  for (const ProcessStat& p : *processes) {
    if (p.parent == getpid()) children.push_back(p.pid);
  }
  return children;
}

}  // namespace

KillStraysAtEnd::KillStraysAtEnd() { prctl(PR_SET_CHILD_SUBREAPER, 1); }

void KillStraysAtEnd::KillNow() {
  // A stray may fork while it is being killed: until none is left (bounded, in case one
  // cannot be killed).
  for (int round = 0; round < 10; ++round) {
    const std::optional<std::vector<pid_t>> children = Children();
    if (!children) continue;  // read again
    if (children->empty()) return;
    for (pid_t child : *children) kill(child, SIGKILL);
    for (pid_t child : *children) waitpid(child, nullptr, 0);
  }
}

}  // namespace tdc::conformance
