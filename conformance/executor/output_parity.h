// A graph's outputs held to the run's tolerance policy (gpu/parity/policy.h, tdconform's
// `--tolerance`): for each output the policy's judgement and the errors the report records
// (max abs/rel error, max and p99 ULP distance, RMSE against the graph evaluated in float64,
// and the reference's own RMSE against it, the noise floor).
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_OUTPUT_PARITY_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_OUTPUT_PARITY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "conformance/executor/case_record.h"
#include "gpu/parity/policy.h"
#include "gpu/parity/statistics.h"
#include "reference/backends/graph_interpreter.h"
#include "reference/runtime/graph_backend.h"

namespace tdc::conformance {

struct OutputParity {
  size_t output = 0;
  graph::DType dtype = graph::DType::kFloat32;
  std::vector<int64_t> shape;
  gpu::Judgement judgement;
  gpu::OutputStatistics statistics;
};

// `graphs` run by the interpreter with every floating input cast to float64, as
// torch._dynamo.utils.same's fp64 reference runs a model cast to float64 (what the graph
// itself creates keeps its dtype), on copies of them. nullopt when it cannot, or should not,
// run so: a node the host runs (the program's own code, which may change the program's
// state), inputs that alias each other (copies would not). With nullopt no output has an
// RMSE against float64.
std::optional<std::vector<runtime::Tensor>> Float64Outputs(
    const runtime::GraphBackend::Graphs& graphs, backends::GraphLevel level);

// Output `index` (the backend's `got` against the reference's `expected`, of the same dtype
// and shape) under `policy`, or why the policy cannot judge it. `fp64`: the same output from
// Float64Outputs, when it has the same shape.
std::variant<OutputParity, std::string> JudgeOutput(const gpu::Policy& policy, size_t index,
                                                    const runtime::Tensor& expected,
                                                    const runtime::Tensor& got,
                                                    const runtime::Tensor* fp64);

// {output, dtype, shape, passed, detail, max_abs_error, max_rel_error, max_ulp, p99_ulp,
// rmse_vs_fp64, noise_floor_rmse}: null where a statistic was not measured; an infinite
// error as the string "inf", a ULP distance across a NaN as "nan".
nlohmann::ordered_json ToJson(const OutputParity& parity);

// The outputs of a case's `parity` records (case_record.h) in order, each with its graph's
// index and name (`graph`, `what`) first: what the report lists for the case.
nlohmann::ordered_json JudgedOutputs(const std::vector<CaseRecord>& records);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_OUTPUT_PARITY_H_
