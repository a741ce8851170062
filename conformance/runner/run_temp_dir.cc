#include "conformance/runner/run_temp_dir.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "conformance/executor/suite_guard.h"

namespace tdc::conformance {

namespace fs = std::filesystem;

std::optional<std::string> RunTempDir::MakeIfGuarded(const std::string& out,
                                                     const std::vector<std::string>& suite_paths) {
  assert(made_.empty());  // a second call would keep the redirected TMPDIR as the one to restore
  // Where backends' libraries write: $TMPDIR, else /tmp (LLVM's and so IREE's compiler try
  // no other; Python's tempfile takes TMPDIR first too).
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string system_temp = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  if (CasesCanMakeEntriesIn(system_temp, suite_paths)) return std::nullopt;
  // A directory of the run's own under --out: only what it made is ever removed.
  std::error_code error;
  fs::create_directories(out, error);
  std::string pattern = (fs::absolute(out, error) / "cases-tmp.XXXXXX").string();
  if (error || mkdtemp(pattern.data()) == nullptr) {
    return fmt::format("cannot make a directory in {} for the cases' temporary files: {}", out,
                       error ? error.message() : std::strerror(errno));
  }
  if (tmpdir != nullptr) previous_tmpdir_ = tmpdir;
  made_ = pattern;
  setenv("TMPDIR", made_.c_str(), 1);
  return std::nullopt;
}

RunTempDir::~RunTempDir() {
  if (made_.empty()) return;
  std::error_code ignored;  // a run killed before its end leaves its directory in --out
  fs::remove_all(made_, ignored);
  if (previous_tmpdir_) {
    setenv("TMPDIR", previous_tmpdir_->c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
}

}  // namespace tdc::conformance
