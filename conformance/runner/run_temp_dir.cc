#include "conformance/runner/run_temp_dir.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "conformance/executor/suite_guard.h"

namespace tdc::conformance {

namespace fs = std::filesystem;

std::optional<std::string> RunTempDir::MakeIfGuarded(const std::string& out,
                                                     const std::vector<std::string>& suite_paths) {
  std::error_code error;
  // TMPDIR, TMP, TEMP or TEMPDIR, else /tmp: where the backend's libraries look.
  const fs::path system_temp = fs::temp_directory_path(error);
  if (!error && CasesCanMakeEntriesIn(system_temp.string(), suite_paths)) return std::nullopt;
  const fs::path dir = fs::absolute(fs::path(out) / "tmp", error);
  if (!error) fs::remove_all(dir, error);
  if (!error) fs::create_directories(dir, error);
  if (error) {
    return fmt::format("cannot make {} for the cases' temporary files: {}",
                       (fs::path(out) / "tmp").string(), error.message());
  }
  if (const char* tmpdir = std::getenv("TMPDIR")) previous_tmpdir_ = tmpdir;
  made_ = dir.string();
  setenv("TMPDIR", made_.c_str(), 1);
  return std::nullopt;
}

RunTempDir::~RunTempDir() {
  if (made_.empty()) return;
  std::error_code ignored;  // what stays is removed by the next run with the same --out
  fs::remove_all(made_, ignored);
  if (previous_tmpdir_) {
    setenv("TMPDIR", previous_tmpdir_->c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
}

}  // namespace tdc::conformance
