// The processes /proc lists, read without exceptions: a process can end between the listing
// and the read of its stat file (the read then fails with ESRCH, which std::ifstream's
// filebuf throws as ios_base::failure; the runner reads this in a destructor).
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_PROCESSES_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_PROCESSES_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace tdc::conformance {

struct ProcessStat {
  pid_t pid = 0;
  std::string comm;  // the command name, as /proc/<pid>/stat has it in parentheses
  char state = '?';  // R, S, Z, ...
  pid_t parent = 0;
};

// Every process still there when its stat file is read; nullopt when /proc could not be
// listed through (it changes while it is listed: the caller reads it again).
std::optional<std::vector<ProcessStat>> ListProcesses();

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_PROCESSES_H_
