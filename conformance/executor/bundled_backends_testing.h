// Test-only: the bundled backends (build/lib/libtdc_backend_<name>.so), loaded by tests
// built with TDC_SOURCE_DIR and TDC_BACKEND_DIR defined. Cases name fixtures relative to the
// repository root, so including this makes it the working directory of the test binary.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_BUNDLED_BACKENDS_TESTING_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_BUNDLED_BACKENDS_TESTING_H_

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "conformance/loader/loader.h"

namespace tdc::conformance::testing {

class InSourceTree : public ::testing::Environment {
 public:
  void SetUp() override { std::filesystem::current_path(TDC_SOURCE_DIR); }
};
inline const auto* const kInSourceTree = ::testing::AddGlobalTestEnvironment(new InSourceTree);

inline std::string BundledLibrary(const std::string& name) {
  return fmt::format("{}/libtdc_backend_{}.so", TDC_BACKEND_DIR, name);
}

// The loaded backend, or null after a test failure saying why.
inline std::unique_ptr<LoadedBackend> LoadBundled(const std::string& name) {
  auto loaded = LoadBackend(BundledLibrary(name));
  if (auto* failure = std::get_if<LoadFailure>(&loaded)) {
    ADD_FAILURE() << name << ": " << failure->reason << ": " << failure->message;
    return nullptr;
  }
  return std::move(std::get<0>(loaded));
}

}  // namespace tdc::conformance::testing

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_BUNDLED_BACKENDS_TESTING_H_
