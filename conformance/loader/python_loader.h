// `--backend py:MODULE:ATTR` (DESIGN.md D15): a torch.compile backend callable, loaded as the
// Python backend library (conformance/python/python_backend.h) configured with it. The
// library is the one this tdconform was built with (TDC_PYTHON_BACKEND_LIBRARY moves it); a
// tdconform built without Python has none, and says so as a load failure.
#ifndef TDCONFORM_CONFORMANCE_LOADER_PYTHON_LOADER_H_
#define TDCONFORM_CONFORMANCE_LOADER_PYTHON_LOADER_H_

#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace tdc::conformance {

class LoadedBackend;
struct LoadFailure;

inline constexpr std::string_view kPythonBackendPrefix = "py:";

// The Python backend library's path: TDC_PYTHON_BACKEND_LIBRARY's, else the one built with this
// tdconform; empty when there is none.
std::string PythonBackendLibrary();

// `spec` is py:MODULE:ATTR (MODULE dotted, ATTR a name in it). Failures: python_spec (not of
// that form), python_unavailable (no library), dlopen, python_init, python_import,
// python_attr (the message holds Python's error and traceback).
std::variant<std::unique_ptr<LoadedBackend>, LoadFailure> LoadPythonBackend(
    const std::string& spec);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_LOADER_PYTHON_LOADER_H_
