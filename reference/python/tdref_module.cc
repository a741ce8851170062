// _tdref: the reference's run, explain and verify as a CPython extension (issue 29 item 5).
// Thin on purpose: each function is the tdref verb of the same name, called with its text
// streams captured, so the module and the command line can never answer differently. The
// package `tdref` (tdref/__init__.py) turns the golden document into Python objects.
//
// The GIL stays held while the reference runs: a run is fast (microseconds to
// milliseconds) and the reference was not written for two runs in one process at once.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "reference/tools/run_command.h"
#include "reference/tools/verify_command.h"

namespace {

namespace py = pybind11;

// (exit status, what the verb printed on stdout, on stderr): the status keeps tdref's
// meaning (0 done, 1 differs, 2 could not run), so Python raises only where tdref fails.
using VerbResult = std::tuple<int, std::string, std::string>;

tdc::tools::RunOptions MakeRunOptions(const std::string& mode, const std::string& profile,
                                      const std::vector<std::string>& disabled_rules,
                                      int64_t max_steps) {
  tdc::tools::RunOptions options;
  options.mode = mode;
  options.profile = profile;
  options.disabled_rules = disabled_rules;
  if (max_steps < 1) throw py::value_error("max_steps must be at least 1");
  options.max_steps = max_steps;
  return options;
}

// Runs `verb` on captured streams. The reference's last-resort errors (tdref's exit 3) become
// a Python exception instead of ending the interpreter.
template <typename Verb>
VerbResult Capture(Verb verb) {
  std::ostringstream out;
  std::ostringstream err;
  int status = 0;
  try {
    status = verb(out, err);
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(
        "tdref: out of memory (an input the reference's limits did not catch)");
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("tdref: internal error: ") + e.what());
  }
  return {status, out.str(), err.str()};
}

VerbResult Run(const std::string& file, const std::string& mode, const std::string& profile,
               const std::vector<std::string>& disabled_rules, int64_t max_steps) {
  const tdc::tools::RunOptions options = MakeRunOptions(mode, profile, disabled_rules, max_steps);
  return Capture([&](std::ostream& out, std::ostream& err) {
    return tdc::tools::RunRun(file, options, /*json=*/true, out, err);
  });
}

VerbResult Explain(const std::string& file, const std::string& profile,
                   const std::vector<std::string>& disabled_rules, int64_t max_steps) {
  const tdc::tools::RunOptions options =
      MakeRunOptions("compile", profile, disabled_rules, max_steps);
  return Capture([&](std::ostream& out, std::ostream& err) {
    return tdc::tools::RunExplain(file, options, out, err);
  });
}

VerbResult Verify(const std::vector<std::string>& files, const std::string& mode,
                  const std::string& profile, const std::vector<std::string>& masks,
                  int64_t max_steps) {
  tdc::tools::VerifyOptions options;
  options.run = MakeRunOptions(mode, profile, {}, max_steps);
  options.masks = masks;
  return Capture([&](std::ostream& out, std::ostream& err) {
    return tdc::tools::RunVerify(files, options, out, err);
  });
}

}  // namespace

PYBIND11_MODULE(_tdref, m) {
  m.doc() = "The tdconform reference's verbs (tdref run/explain/verify); use the tdref package.";
  m.def("run", &Run, py::arg("file"), py::arg("mode"), py::arg("profile"),
        py::arg("disabled_rules"), py::arg("max_steps"),
        "tdref run --json FILE: (status, golden document, diagnostics).");
  m.def("explain", &Explain, py::arg("file"), py::arg("profile"), py::arg("disabled_rules"),
        py::arg("max_steps"), "tdref explain FILE: (status, explanation, diagnostics).");
  m.def("verify", &Verify, py::arg("files"), py::arg("mode"), py::arg("profile"), py::arg("masks"),
        py::arg("max_steps"), "tdref verify FILES: (status, report, diagnostics).");
  m.attr("DEFAULT_MAX_STEPS") = tdc::runtime::kDefaultMaxSteps;
}
