#include "conformance/runner/strays.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace tdc::conformance {

namespace {

// The processes whose parent is this one, from /proc/<pid>/stat ("pid (comm) state ppid ...",
// comm being any bytes: the fields are counted from its closing parenthesis); nothing when
// /proc could not be read through. Never throws: KillNow runs in a destructor.
std::optional<std::vector<pid_t>> Children() {
  std::vector<pid_t> children;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(it->path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 4 >= stat.size()) continue;
    const pid_t parent = static_cast<pid_t>(std::atol(stat.c_str() + close + 4));
    if (parent == getpid()) children.push_back(static_cast<pid_t>(std::atol(name.c_str())));
  }
  if (error) return std::nullopt;
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
