#include "conformance/loader/python_loader.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>

#include "conformance/loader/loader.h"
#include "conformance/python/python_backend.h"

namespace tdc::conformance {

std::string PythonBackendLibrary() {
  const char* env = std::getenv("TDC_PYTHON_BACKEND_LIBRARY");
  return env != nullptr && *env != '\0' ? env : TDC_PYTHON_BACKEND_LIBRARY;
}

std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadPythonBackend(
    const std::string& spec) {
  const std::string rest = spec.substr(kPythonBackendPrefix.size());
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size()) {
    return LoadFailure{"python_spec", fmt::format("{}: a Python backend is py:MODULE:ATTR "
                                                  "(e.g. py:conformance.python.bundled:aot_eager)",
                                                  spec)};
  }
  const std::string module = rest.substr(0, colon), attr = rest.substr(colon + 1);
  const std::string library = PythonBackendLibrary();
  if (library.empty()) {
    return LoadFailure{"python_unavailable",
                       "this tdconform was built without Python backends (TDC_BUILD_PYTHON=OFF)"};
  }
  // Never unloaded: an interpreter does not survive its library's unloading.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) return LoadFailure{"dlopen", dlerror()};
  auto configure = reinterpret_cast<tdc_python_backend_configure_fn>(
      dlsym(handle, TDC_PYTHON_BACKEND_CONFIGURE));
  if (configure == nullptr) {
    dlclose(handle);
    return LoadFailure{"no_entry_point",
                       fmt::format("{} exports no {}", library, TDC_PYTHON_BACKEND_CONFIGURE)};
  }
  char reason[64] = "", message[4096] = "";
  if (configure(module.c_str(), attr.c_str(), reason, sizeof reason, message, sizeof message) != 0)
    return LoadFailure{reason, message};
  return LoadFromHandle(handle, spec);
}

}  // namespace tdc::conformance
