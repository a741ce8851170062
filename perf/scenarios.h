// The callgrind gate's scenarios (issue 30): one fixed workload per benchmark family,
// whose instruction count perf/callgrind_expected.csv holds. Each is prepared outside the
// measured region (programs generated, caches filled) so the count is the reference's work
// alone.
#ifndef TDCONFORM_PERF_SCENARIOS_H_
#define TDCONFORM_PERF_SCENARIOS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tdc::perf {

// The measured part of a scenario: its error when the reference did not answer it.
using Workload = std::function<std::optional<std::string>()>;

struct Scenario {
  const char* name;
  const char* what;
  std::function<Workload()> prepare;
};

const std::vector<Scenario>& Scenarios();

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_SCENARIOS_H_
