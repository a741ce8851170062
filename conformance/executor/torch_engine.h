// `--engine torch` (issue 29): a case `torch:<group>:<name>:profile=<p>` is its fixture run
// under real torch.compile (torch 2.13.0, the oracle's environment and profile) with a Python
// backend callable compiling every graph Dynamo makes (conformance/python/engine_torch.py),
// and its outcome held to the golden: Dynamo's partition (the graphs and their count), the
// outputs, the exception. Nothing of the reference runs: this covers every program of the
// corpus, including what the reference does not model. The case's process runs it (its one
// answer, a `torch_run` call); the judge computes the verdict from that answer alone.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_TORCH_ENGINE_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_TORCH_ENGINE_H_

#include <deque>
#include <nlohmann/json.hpp>
#include <string>

#include "conformance/executor/case_record.h"
#include "conformance/executor/verdict.h"
#include "conformance/loader/loader.h"
#include "reference/graph/golden.h"

namespace tdc::conformance {

// In the case's process: the fixture run under torch.compile with `backend`, as the answer
// the case sends: {"call": "torch_run", "ok", "outcome" | "error", "faults"}.
nlohmann::json RunUnderTorch(const LoadedBackend& backend, const std::string& fixture,
                             const std::string& profile);

// In the judge: the verdict of the answers the case sent (`ended` when there is none), the
// outcome held to `golden_text`'s compiled outcome at `profile`. `record` takes both outcomes
// when they differ (the failure's folder).
Verdict JudgeTorchRun(const std::deque<nlohmann::json>& calls, const std::string& golden_text,
                      const std::string& profile, const Verdict& ended, const Record& record);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_TORCH_ENGINE_H_
