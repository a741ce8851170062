// The suite out of a backend's reach (issue 32): a case's process cannot write the suite's
// fixtures, goldens, case lists, core set or the harness's binaries, whatever path it takes
// (a relative one, a symlink, /proc/<pid>/root/...), because the kernel refuses it: Landlock,
// unprivileged, applied in the case's process before any backend call and inherited by
// everything it forks.
//
// Landlock grants, it does not deny: once writing is handled, it is allowed only beneath the
// rules given. So the plan grants writing beneath every entry of every directory above a
// protected path (and beneath every other entry of "/") except the protected paths and the
// directories above them: everything stays writable but the suite, save that a new entry
// cannot be made directly in a directory above a protected one (the suite root, "/"). What a
// kernel without Landlock leaves is the check before every case (executor.cc CheckGolden: a
// fixture changed since is HARNESS_ERROR suite_modified, never the backend's fault).
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_SUITE_GUARD_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_SUITE_GUARD_H_

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tdc::conformance {

struct SuiteGuard {
  std::vector<std::string> protected_paths;  // canonical
  // Where writing stays allowed: directories (beneath them) and files (outside any allowed
  // directory, beside a protected path).
  std::vector<std::string> writable_dirs, writable_files;
  int landlock_abi = 0;
};

// The guard of `paths` (those that do not exist are left out), or why this kernel cannot
// give one (Landlock missing or disabled). Lists the directories above them once: entries
// made there later are not writable by a case.
std::variant<SuiteGuard, std::string> PlanSuiteGuard(const std::vector<std::string>& paths);

// The suite's directories a case must not write, under `root` (the suite root, where case ids'
// fixtures/ are): fixtures/ (programs and goldens), conformance/ (core set, case lists,
// expectations, the Python host), `generated_dir` when given, the directory of the running
// executable (the harness) and that of the Python backend library (the harness's host for
// Python backends, python_loader.h).
std::vector<std::string> SuitePaths(const std::string& root, const std::string& generated_dir);

// Whether a case under the guard of `paths` can make a new entry directly in `dir`: not when
// `dir` is one of them, lies in one, or lies above one (PlanSuiteGuard).
bool CasesCanMakeEntriesIn(const std::string& dir, const std::vector<std::string>& paths);

// In the case's process, before any backend call: from now on it and its children cannot
// write beneath `guard`'s protected paths. Why not, when the kernel refuses.
std::optional<std::string> ApplySuiteGuard(const SuiteGuard& guard);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_SUITE_GUARD_H_
