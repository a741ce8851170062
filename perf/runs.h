// One program run as `tdref run` runs it, for the benchmarks and the callgrind scenarios:
// eager, or compiled under a profile with or without the ATen capture. A run the reference
// refuses or cannot parse is an error here: a benchmark of a refusal would measure nothing.
#ifndef TDCONFORM_PERF_RUNS_H_
#define TDCONFORM_PERF_RUNS_H_

#include <optional>
#include <string>

namespace tdc::perf {

struct RunSpec {
  enum class Mode { kEager, kCompile } mode = Mode::kCompile;
  std::string profile = "torch-2.13";
  bool aten = true;
};

// Runs `source` once; the error (a diagnostic, a refusal, an exception) when it did not
// run to its end.
std::optional<std::string> RunOnce(const std::string& source, const RunSpec& spec);

// Parses `source` only; the diagnostic when it does not parse.
std::optional<std::string> ParseOnce(const std::string& source);

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_RUNS_H_
