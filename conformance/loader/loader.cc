#include "conformance/loader/loader.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <optional>

#include "conformance/executor/safe_text.h"
#include "conformance/executor/signal_name.h"

namespace tdc::conformance {

namespace {

// Restores the working directory when it goes out of scope: a backend that changes it while
// loading would make every case's fixture unreadable.
class KeepWorkingDirectory {
 public:
  KeepWorkingDirectory() : fd_(open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~KeepWorkingDirectory() {
    if (fd_ < 0) return;
    if (fchdir(fd_) != 0) std::perror("tdconform: cannot return to the working directory");
    close(fd_);
  }
  KeepWorkingDirectory(const KeepWorkingDirectory&) = delete;
  KeepWorkingDirectory& operator=(const KeepWorkingDirectory&) = delete;

 private:
  int fd_;
};

// The load itself, in whichever process runs it.
std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadHere(const std::string& path) {
  KeepWorkingDirectory keep;
  if (path.starts_with(kPythonBackendPrefix)) return LoadPythonBackend(path);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return LoadFailure{"dlopen", SafeText(dlerror())};
  return LoadFromHandle(handle, path);
}

// The load tried in a child under `timeout_seconds`: its failure, or nothing when it loaded.
// The child writes `ok` or `reason message` on a pipe.
std::optional<LoadFailure> TryInChild(const std::string& path, double timeout_seconds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return LoadFailure{"pipe", std::strerror(errno)};
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return LoadFailure{"fork", std::strerror(errno)};
  if (child == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    close(fds[0]);
    auto loaded = LoadHere(path);
    const auto* failure = std::get_if<LoadFailure>(&loaded);
    const std::string said = failure ? failure->reason + " " + failure->message : "ok";
    ssize_t ignored = write(fds[1], said.data(), said.size());
    (void)ignored;
    _exit(0);
  }
  setpgid(child, child);
  close(fds[1]);
  std::string said;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_seconds));
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n <= 0) break;
    said.append(chunk, static_cast<size_t>(n));
  }
  close(fds[0]);
  kill(-child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  if (said == "ok") return std::nullopt;
  if (timed_out && said.empty()) {
    return LoadFailure{"load_timeout",
                       fmt::format("{} did not load within {} s (a library constructor, "
                                   "tdc_backend_get_api, get_info or get_capabilities blocked)",
                                   path, timeout_seconds)};
  }
  if (const size_t space = said.find(' '); space != std::string::npos)
    return LoadFailure{said.substr(0, space), said.substr(space + 1)};
  return LoadFailure{
      "load_crash",
      fmt::format("{} while loading {}",
                  WIFSIGNALED(status) ? SignalName(WTERMSIG(status)) : "an exit", path)};
}

}  // namespace

std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadFromHandle(void* handle,
                                                                         const std::string& path) {
  auto fail = [&](std::string reason, std::string message) {
    dlclose(handle);
    return LoadFailure{std::move(reason), SafeText(message)};
  };
  auto get_api = reinterpret_cast<tdc_backend_get_api_fn>(dlsym(handle, "tdc_backend_get_api"));
  if (get_api == nullptr)
    return fail("no_entry_point", fmt::format("{} exports no tdc_backend_get_api", path));
  const tdc_backend_api* api = get_api(TDC_ABI_VERSION_MAJOR, TDC_ABI_VERSION_MINOR);
  if (api == nullptr) {
    return fail("abi_version", fmt::format("the backend refuses a host of ABI {}.{}",
                                           TDC_ABI_VERSION_MAJOR, TDC_ABI_VERSION_MINOR));
  }
  if (api->abi_major != TDC_ABI_VERSION_MAJOR) {
    return fail("abi_version", fmt::format("the backend was built for ABI {}.{}, the host is {}.{}",
                                           api->abi_major, api->abi_minor, TDC_ABI_VERSION_MAJOR,
                                           TDC_ABI_VERSION_MINOR));
  }
  // Version 1.0's table ends with live_handles: a smaller one is not a 1.x table.
  if (api->struct_size < offsetof(tdc_backend_api, live_handles) + sizeof api->live_handles) {
    return fail("bad_table", fmt::format("the table's struct_size {} is smaller than ABI 1.0's",
                                         api->struct_size));
  }
  if (api->get_info == nullptr || api->get_capabilities == nullptr || api->create == nullptr ||
      api->destroy == nullptr || api->can_compile == nullptr || api->compile == nullptr ||
      api->run == nullptr || api->release == nullptr || api->live_handles == nullptr) {
    return fail("bad_table", "a function of the table is NULL");
  }
  return std::make_unique<LoadedBackend>(handle, api, path);
}

LoadedBackend::LoadedBackend(void* handle, const tdc_backend_api* api, std::string path)
    : handle_(handle), api_(api), path_(std::move(path)) {
  tdc_backend_info said{};
  said.struct_size = sizeof said;
  capabilities_.struct_size = sizeof capabilities_;
  api_->get_info(&said);
  api_->get_capabilities(&capabilities_);
  name_ = BackendText(said.name, kMaxBackendString);
  version_ = BackendText(said.version, kMaxBackendString);
  vendor_ = BackendText(said.vendor, kMaxBackendString);
  environment_ = BackendText(said.environment, kMaxBackendString);
  info_ = {sizeof info_, name_.c_str(), version_.c_str(), vendor_.c_str(), environment_.c_str()};
}

LoadedBackend::~LoadedBackend() { dlclose(handle_); }

void* LoadedBackend::Symbol(const char* name) const { return dlsym(handle_, name); }

std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadBackend(const std::string& path,
                                                                      double timeout_seconds) {
  if (std::optional<LoadFailure> failed = TryInChild(path, timeout_seconds)) return *failed;
  return LoadHere(path);
}

}  // namespace tdc::conformance
