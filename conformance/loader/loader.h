// Loading a backend library (tdconform_backend.h): dlopen, the entry point, the version and
// the table checked before any case runs. A library that fails here is BACKEND_ERROR in
// phase load and runs no case (DESIGN.md D7). The load is tried first in a child process
// under a timeout (a library constructor, tdc_backend_get_api, get_info or get_capabilities
// that blocks or crashes ends that child, never the run); the working directory a backend
// changes while loading is restored; its info strings are read bounded and made safe
// (safe_text.h).
#ifndef TDCONFORM_CONFORMANCE_LOADER_LOADER_H_
#define TDCONFORM_CONFORMANCE_LOADER_LOADER_H_

#include <memory>
#include <string>
#include <variant>

#include "conformance/abi/tdconform_backend.h"
#include "conformance/loader/python_loader.h"

namespace tdc::conformance {

class LoadedBackend {
 public:
  LoadedBackend(void* handle, const tdc_backend_api* api, std::string path);
  ~LoadedBackend();
  LoadedBackend(const LoadedBackend&) = delete;
  LoadedBackend& operator=(const LoadedBackend&) = delete;

  const tdc_backend_api& api() const { return *api_; }
  const tdc_backend_info& info() const { return info_; }
  const tdc_capabilities& capabilities() const { return capabilities_; }
  const std::string& path() const { return path_; }
  // An extra entry point the library exports (dlsym), or null.
  void* Symbol(const char* name) const;
  bool HasLevel(tdc_graph_level level) const {
    return (capabilities_.graph_levels & (1u << level)) != 0;
  }
  bool HasDType(int32_t dtype) const {
    return dtype >= 0 && dtype < 64 && (capabilities_.dtypes & (1ull << dtype)) != 0;
  }

 private:
  void* handle_;
  const tdc_backend_api* api_;
  std::string path_;
  tdc_backend_info info_{};  // points into name_, version_, vendor_, environment_
  std::string name_, version_, vendor_, environment_;
  tdc_capabilities capabilities_{};
};

struct LoadFailure {
  // dlopen, no_entry_point, abi_version, bad_table; load_timeout, load_crash (the child
  // trying the load hung or died)
  std::string reason;
  std::string message;  // one line: what was found
};

// `path` is a library, or `py:MODULE:ATTR`: a torch.compile backend callable (python_loader.h).
// The load is tried first in a child under `timeout_seconds` (a blocking or crashing library
// ends only that child).
std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadBackend(const std::string& path,
                                                                      double timeout_seconds = 60);
// The table of the library `handle` (dlopen's), checked; `path` names it. The handle is closed
// when the table is refused.
std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadFromHandle(void* handle,
                                                                         const std::string& path);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_LOADER_LOADER_H_
