#include "conformance/executor/processes.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace tdc::conformance {
namespace {

// /proc/<pid>/stat's text, or nothing when the process is gone.
std::optional<std::string> ReadStat(const std::filesystem::path& dir) {
  const int fd = open((dir / "stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char chunk[512];
  ssize_t n = 0;
  while ((n = read(fd, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<size_t>(n));
  close(fd);
  if (n < 0) return std::nullopt;
  return text;
}

// "pid (comm) state ppid ...", comm being any bytes: the fields after it are counted from its
// closing parenthesis.
std::optional<ProcessStat> ParseStat(pid_t pid, const std::string& stat) {
  const size_t open_paren = stat.find('(');
  const size_t close = stat.rfind(')');
  if (open_paren == std::string::npos || close == std::string::npos || close < open_paren ||
      close + 4 >= stat.size()) {
    return std::nullopt;
  }
  ProcessStat out;
  out.pid = pid;
  out.comm = stat.substr(open_paren + 1, close - open_paren - 1);
  out.state = stat[close + 2];
  out.parent = static_cast<pid_t>(std::atol(stat.c_str() + close + 4));
  return out;
}

}  // namespace

std::optional<std::vector<ProcessStat>> ListProcesses() {
  std::vector<ProcessStat> processes;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::optional<std::string> stat = ReadStat(it->path());
    if (!stat) continue;  // ended since it was listed
    if (auto parsed = ParseStat(static_cast<pid_t>(std::atol(name.c_str())), *stat)) {
      processes.push_back(std::move(*parsed));
    }
  }
  if (error) return std::nullopt;
  return processes;
}

}  // namespace tdc::conformance
