#include "conformance/executor/suite_guard.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "conformance/loader/python_loader.h"

namespace tdc::conformance {

namespace {

namespace fs = std::filesystem;

// ABI 3's right (Linux 6.2), newer than some distributions' headers.
constexpr uint64_t kTruncate = uint64_t{1} << 14;

// The rights that change the file system, as the running kernel's ABI has them. Reading and
// executing are not handled: they stay allowed everywhere.
uint64_t WriteRights(int abi) {
  uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                    LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                    LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                    LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
  // From ABI 2 a rename or link into another directory is refused unless granted, handled or
  // not: granted wherever writing is.
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

// Those of them that apply to a file (a rule on a file may grant no other).
uint64_t FileWriteRights(int abi) {
  return WriteRights(abi) & (LANDLOCK_ACCESS_FS_WRITE_FILE | kTruncate);
}

int LandlockAbi() {
  return static_cast<int>(
      syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
}

bool IsWithin(const fs::path& path, const fs::path& dir) {
  auto [end, _] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return end == dir.end();
}

}  // namespace

std::vector<std::string> SuitePaths(const std::string& root, const std::string& generated_dir) {
  const fs::path base(root);
  std::vector<std::string> paths = {(base / "fixtures").string(), (base / "conformance").string()};
  if (!generated_dir.empty()) paths.push_back(generated_dir);
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) paths.push_back(exe.parent_path().string());
  if (const std::string python = PythonBackendLibrary(); !python.empty())
    paths.push_back(fs::path(python).parent_path().string());
  return paths;
}

bool CasesCanMakeEntriesIn(const std::string& dir, const std::vector<std::string>& paths) {
  std::error_code error;
  const fs::path canonical_dir = fs::weakly_canonical(dir, error);
  return std::none_of(paths.begin(), paths.end(), [&](const std::string& p) {
    std::error_code path_error;
    const fs::path path = fs::weakly_canonical(p, path_error);
    return IsWithin(path, canonical_dir) || IsWithin(canonical_dir, path);
  });
}

std::variant<SuiteGuard, std::string> PlanSuiteGuard(const std::vector<std::string>& paths) {
  SuiteGuard guard;
  guard.landlock_abi = LandlockAbi();
  if (guard.landlock_abi < 1) {
    return fmt::format(
        "the kernel has no Landlock ({}): a backend can write the suite's files; "
        "each case checks its fixture against its golden instead",
        std::strerror(errno));
  }
  std::vector<fs::path> guarded;
  for (const std::string& p : paths) {
    std::error_code error;
    fs::path canonical = fs::canonical(p, error);
    if (!error) guarded.push_back(std::move(canonical));
  }
  std::sort(guarded.begin(), guarded.end());
  guarded.erase(std::unique(guarded.begin(), guarded.end()), guarded.end());
  for (const fs::path& p : guarded) guard.protected_paths.push_back(p.string());
  const auto is_guarded = [&](const fs::path& p) {
    return std::any_of(guarded.begin(), guarded.end(),
                       [&](const fs::path& g) { return IsWithin(p, g); });
  };
  const auto is_above_guarded = [&](const fs::path& p) {
    return std::any_of(guarded.begin(), guarded.end(),
                       [&](const fs::path& g) { return IsWithin(g, p) && g != p; });
  };
  // From "/" down the directories above a protected path: each entry neither protected nor
  // above one is writable beneath it. A symlink is left out: writing through it is allowed or
  // not where it leads.
  std::vector<fs::path> above = {"/"};
  while (!above.empty()) {
    const fs::path dir = above.back();
    above.pop_back();
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      const fs::path entry = it->path();
      std::error_code type_error;
      const fs::file_status status = it->symlink_status(type_error);
      if (type_error || fs::is_symlink(status) || is_guarded(entry)) continue;
      if (is_above_guarded(entry)) {
        above.push_back(entry);
      } else if (fs::is_directory(status)) {
        guard.writable_dirs.push_back(entry.string());
      } else {
        guard.writable_files.push_back(entry.string());
      }
    }
  }
  return guard;
}

std::optional<std::string> ApplySuiteGuard(const SuiteGuard& guard) {
  const uint64_t rights = WriteRights(guard.landlock_abi);
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = rights;
  const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (ruleset < 0) return fmt::format("landlock_create_ruleset: {}", std::strerror(errno));
  const auto allow = [&](const std::string& path, uint64_t allowed) {
    // A path gone since the plan (a temporary directory removed) needs no rule.
    const int fd = open(path.c_str(), O_PATH | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return;
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access = allowed;
    beneath.parent_fd = fd;
    struct stat st {};
    // A rule on anything but a directory may grant only a file's rights.
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
      beneath.allowed_access &= FileWriteRights(guard.landlock_abi);
    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    close(fd);
  };
  for (const std::string& dir : guard.writable_dirs) allow(dir, rights);
  for (const std::string& file : guard.writable_files) allow(file, rights);
  std::optional<std::string> failed;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    failed = fmt::format("prctl(PR_SET_NO_NEW_PRIVS): {}", std::strerror(errno));
  } else if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    failed = fmt::format("landlock_restrict_self: {}", std::strerror(errno));
  }
  close(ruleset);
  return failed;
}

}  // namespace tdc::conformance
