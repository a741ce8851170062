#include "conformance/executor/output_parity.h"

#include <cmath>

#include "gpu/parity/ulp.h"
#include "reference/backends/interpreting_backend.h"

namespace tdc::conformance {

namespace {

std::vector<double> AsDoubles(const runtime::Tensor& t) {
  std::vector<double> values;
  for (const runtime::Scalar& s : t.Values()) values.push_back(s.AsDouble());
  return values;
}

// A double as JSON: JSON has no infinity or NaN, so these are named.
nlohmann::ordered_json Number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

nlohmann::ordered_json Ulps(const std::optional<uint64_t>& ulps) {
  if (!ulps) return nullptr;
  if (*ulps == gpu::kNotComparable) return "nan";
  return *ulps;
}

nlohmann::ordered_json Optional(const std::optional<double>& x) {
  return x ? Number(*x) : nlohmann::ordered_json();
}

// A new tensor with `t`'s values, in float64 where `t` is float32: never `t`'s storage, which
// the program goes on with (a graph may write its inputs).
runtime::Tensor Float64Copy(const runtime::Tensor& t) {
  const graph::DType dtype = t.dtype == graph::DType::kFloat32 ? graph::DType::kFloat64 : t.dtype;
  runtime::Tensor copy = runtime::TensorFromValues(dtype, t.sizes, t.Values());
  copy.requires_grad = t.requires_grad;
  return copy;
}

}  // namespace

std::optional<std::vector<runtime::Tensor>> Float64Outputs(
    const runtime::GraphBackend::Graphs& graphs, backends::GraphLevel level) {
  // Inputs that alias each other would be copied apart, and a graph that writes one would
  // then compute something else.
  for (size_t i = 0; i < graphs.inputs.size(); ++i) {
    for (size_t j = i + 1; j < graphs.inputs.size(); ++j) {
      if (graphs.inputs[i].SharesStorageWith(graphs.inputs[j])) return std::nullopt;
    }
  }
  runtime::GraphBackend::Graphs in_float64 = graphs;
  for (runtime::Tensor& input : in_float64.inputs) input = Float64Copy(input);
  for (auto& [name, constant] : in_float64.aten_constants) constant = Float64Copy(constant);
  // A host node runs the program's own code, which may change the program's state.
  auto no_host = [](size_t, const std::vector<runtime::Tensor>&)
      -> std::variant<std::vector<runtime::Tensor>, std::string> {
    return std::string("not run again in float64");
  };
  in_float64.dynamo_host = in_float64.aten_host = no_host;
  auto outputs = backends::InterpretGraph(in_float64, level);
  if (std::holds_alternative<std::string>(outputs)) return std::nullopt;
  return std::get<std::vector<runtime::Tensor>>(std::move(outputs));
}

std::variant<OutputParity, std::string> JudgeOutput(const gpu::Policy& policy, size_t index,
                                                    const runtime::Tensor& expected,
                                                    const runtime::Tensor& got,
                                                    const runtime::Tensor* fp64) {
  gpu::ComparedOutput compared{expected.dtype, expected.sizes, AsDoubles(got), AsDoubles(expected),
                               std::nullopt};
  if (fp64 != nullptr && fp64->sizes == expected.sizes) compared.fp64 = AsDoubles(*fp64);
  auto judged = gpu::Judge(policy, compared);
  if (auto* why = std::get_if<std::string>(&judged)) return *why;
  auto measured = gpu::Measure(compared);
  if (auto* why = std::get_if<std::string>(&measured)) return *why;
  return OutputParity{index, expected.dtype, expected.sizes, std::get<gpu::Judgement>(judged),
                      std::get<gpu::OutputStatistics>(measured)};
}

nlohmann::ordered_json ToJson(const OutputParity& parity) {
  const gpu::OutputStatistics& s = parity.statistics;
  return {{"output", parity.output},
          {"dtype", graph::DTypeName(parity.dtype)},
          {"shape", parity.shape},
          {"passed", parity.judgement.passed},
          {"detail", parity.judgement.detail},
          {"max_abs_error", Number(s.max_abs_error)},
          {"max_rel_error", Number(s.max_rel_error)},
          {"max_ulp", Ulps(s.max_ulp)},
          {"p99_ulp", Ulps(s.p99_ulp)},
          {"rmse_vs_fp64", Optional(s.rmse_vs_fp64)},
          {"noise_floor_rmse", Optional(s.noise_floor_rmse)}};
}

nlohmann::ordered_json JudgedOutputs(const std::vector<CaseRecord>& records) {
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  for (const CaseRecord& r : records) {
    // The judge's own records: a missing field would be the harness's bug, and is left out.
    if (r.kind != "parity" || !r.body.contains("outputs")) continue;
    for (const auto& output : r.body.at("outputs")) {
      nlohmann::ordered_json entry = {{"graph", r.body.value("index", -1)},
                                      {"what", r.body.value("what", "")}};
      entry.update(output);
      outputs.push_back(std::move(entry));
    }
  }
  return outputs;
}

}  // namespace tdc::conformance
