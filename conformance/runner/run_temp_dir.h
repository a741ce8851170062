// The temporary directory of a run's cases. The suite's guard (suite_guard.h) lets no case make
// an entry directly in a directory above the suite, and the system's temporary directory is one
// when the checkout lies under it (`git clone . $(mktemp -d)/c`): a backend's temporary files
// (inductor's, IREE's compiler's, which takes $TMPDIR and tries no other directory) could not
// be made there, and its cases would fail for the harness's sake. There the run points TMPDIR,
// for itself and everything it starts (the backend is loaded after), at a directory of its
// own in --out (cases-tmp.XXXXXX), made before the guard is planned so that cases can write
// in it, and removed when the run ends.
// Elsewhere nothing changes, so what torch caches in the temporary directory lasts from run to
// run.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_RUN_TEMP_DIR_H_
#define TDCONFORM_CONFORMANCE_RUNNER_RUN_TEMP_DIR_H_

#include <optional>
#include <string>
#include <vector>

namespace tdc::conformance {

class RunTempDir {
 public:
  RunTempDir() = default;
  ~RunTempDir();  // removes the directory made and gives TMPDIR back its value
  RunTempDir(const RunTempDir&) = delete;
  RunTempDir& operator=(const RunTempDir&) = delete;

  // When cases under the guard of `suite_paths` could make no file in the temporary directory
  // backends write to ($TMPDIR, else /tmp), makes <out>/cases-tmp.XXXXXX and points TMPDIR at
  // it. Why not, when it cannot be made. Called once.
  std::optional<std::string> MakeIfGuarded(const std::string& out,
                                           const std::vector<std::string>& suite_paths);

  // The directory made, or empty.
  const std::string& made() const { return made_; }

 private:
  std::string made_;
  std::optional<std::string> previous_tmpdir_;
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_RUN_TEMP_DIR_H_
