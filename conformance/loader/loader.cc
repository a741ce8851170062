#include "conformance/loader/loader.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstddef>

namespace tdc::conformance {

LoadedBackend::LoadedBackend(void* handle, const tdc_backend_api* api, std::string path)
    : handle_(handle), api_(api), path_(std::move(path)) {
  info_.struct_size = sizeof info_;
  capabilities_.struct_size = sizeof capabilities_;
  api_->get_info(&info_);
  api_->get_capabilities(&capabilities_);
}

LoadedBackend::~LoadedBackend() { dlclose(handle_); }

std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadBackend(const std::string& path) {
  if (path.starts_with(kPythonBackendPrefix)) return LoadPythonBackend(path);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return LoadFailure{"dlopen", dlerror()};
  return LoadFromHandle(handle, path);
}

std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadFromHandle(void* handle,
                                                                         const std::string& path) {
  auto fail = [&](std::string reason, std::string message) {
    dlclose(handle);
    return LoadFailure{std::move(reason), std::move(message)};
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

}  // namespace tdc::conformance
