#include "conformance/executor/abi_graph_backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "conformance/abi/wire.h"
#include "conformance/executor/output_parity.h"
#include "reference/graph/golden_json.h"
#include "reference/graph/vocabulary.h"
#include "reference/runtime/interp/outcome.h"

namespace tdc::conformance {

namespace {

std::string LevelName(tdc_graph_level level) {
  return level == TDC_GRAPH_LEVEL_ATEN ? "aten" : "dynamo";
}

void Say(char* message, size_t size, const std::string& text) {
  if (message != nullptr && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

// The call nodes' targets that are not ATen, torch or operator ones: what a backend is
// likely to hand the host (custom ops, allowed functions), named in crash messages.
std::string OpaqueTargets(const graph::Graph& g) {
  std::vector<std::string> names;
  for (const graph::Node& n : g.nodes) {
    if (n.op != graph::NodeOp::kCallFunction) continue;
    if (n.target.starts_with("aten.") || n.target.starts_with("torch.") ||
        n.target.starts_with("operator."))
      continue;
    if (std::find(names.begin(), names.end(), n.target) == names.end()) names.push_back(n.target);
  }
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

nlohmann::ordered_json ValuesJson(const std::vector<runtime::Tensor>& tensors) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const runtime::Tensor& t : tensors)
    values.push_back(graph::ToJson(runtime::ToGoldenValue(t)));
  return values;
}

}  // namespace

AbiGraphBackend::AbiGraphBackend(const LoadedBackend& backend, BackendCalls& calls, Verdict ended,
                                 tdc_graph_level level, bool required, gpu::Policy tolerance,
                                 const AtenExpectation* aten, Progress progress, Record record)
    : backend_(backend),
      calls_(calls),
      ended_(std::move(ended)),
      level_(level),
      required_(required),
      tolerance_(tolerance),
      aten_(aten),
      progress_(std::move(progress)),
      record_(std::move(record)) {
  host_.struct_size = sizeof host_;
  host_.abi_major = TDC_ABI_VERSION_MAJOR;
  host_.abi_minor = TDC_ABI_VERSION_MINOR;
  host_.context = this;
  host_.alloc_tensor = &AllocTensor;
  host_.run_node = &RunNode;
}

AbiGraphBackend::~AbiGraphBackend() { Finish(); }

std::optional<Verdict> AbiGraphBackend::Start() {
  progress_(CasePhase::kLoad, "create");
  std::optional<CallAnswer> created = calls_.Create(host_);
  if (!created) return ended_;
  if (created->status == TDC_STATUS_OK) {
    created_ = true;
    return std::nullopt;
  }
  // Not this case's fault nor the backend's: it cannot compute here (its device is absent).
  if (created->status == TDC_STATUS_NOT_SUPPORTED) {
    return Verdict::Of(CaseStatus::kNotSupported, CasePhase::kLoad, "backend_unavailable",
                       created->message);
  }
  return Verdict::Of(CaseStatus::kBackendError, CasePhase::kLoad, "create_failed",
                     created->message);
}

bool AbiGraphBackend::Declared(const graph::Graph& g) const {
  const tdc_capabilities& caps = backend_.capabilities();
  if (!backend_.HasLevel(level_)) return false;
  for (const graph::Node& n : g.nodes) {
    if (n.dtype && !backend_.HasDType(static_cast<int32_t>(*n.dtype))) return false;
    if (n.op == graph::NodeOp::kPlaceholder || n.op == graph::NodeOp::kOutput || caps.num_ops == 0)
      continue;
    bool listed = false;
    for (size_t i = 0; i < caps.num_ops && !listed; ++i) listed = n.target == caps.ops[i];
    if (!listed) return false;
  }
  return true;
}

Verdict AbiGraphBackend::Refusal(tdc_status status, CasePhase phase, const graph::Graph& g,
                                 const std::string& what, const std::string& message) const {
  const std::string text = fmt::format("{}: {}", what, message);
  switch (status) {
    case TDC_STATUS_NOT_SUPPORTED:
      // A capability it declared, then did not have: never NOT_SUPPORTED (DESIGN.md D7).
      if (Declared(g))
        return Verdict::Of(CaseStatus::kFail, phase, "declared_but_unsupported", text);
      if (required_) return Verdict::Of(CaseStatus::kFail, phase, "not_supported_required", text);
      return Verdict::Of(CaseStatus::kNotSupported, phase, "not_supported", text);
    case TDC_STATUS_REJECTED:
      if (required_) return Verdict::Of(CaseStatus::kFail, phase, "rejected_required", text);
      return Verdict::Of(CaseStatus::kNotSupported, phase, "rejected", text);
    case TDC_STATUS_OK:
    case TDC_STATUS_ERROR:
      break;
  }
  return Verdict::Of(CaseStatus::kBackendError, phase, "error", text);
}

std::optional<std::vector<runtime::Tensor>> AbiGraphBackend::Run(const Graphs& graphs) {
  const size_t sent = graphs_sent_++;
  if (failure_ || !created_) return std::nullopt;
  const graph::Graph* g = level_ == TDC_GRAPH_LEVEL_ATEN ? graphs.aten : graphs.dynamo;
  const std::string what = fmt::format("graph {} ({} level)", graphs.compile_id, LevelName(level_));
  if (g == nullptr) {
    failure_ = Verdict::Of(CaseStatus::kNotSupported, CasePhase::kLower, "no_aten_graph",
                           what + ": the reference has no ATen form of it");
    return std::nullopt;
  }
  // What the backend must compute: at the ATen level, the ATen graph's values, which differ
  // from the Dynamo graph's where an allowed function's body reads is_compiling()
  // (interpreting_backend.h).
  std::vector<runtime::Tensor> expected = graphs.expected;
  if (level_ == TDC_GRAPH_LEVEL_ATEN) {
    // Without the reference's run nothing is carried: every graph's values are computed here.
    auto interpreted = ExpectedAtenOutputs(aten_ ? *aten_ : AtenExpectation{}, sent, graphs);
    if (auto* error = std::get_if<std::string>(&interpreted)) {
      failure_ = Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLower, "reference_aten_error",
                             what + ": " + *error);
      return std::nullopt;
    }
    expected = std::get<std::vector<runtime::Tensor>>(std::move(interpreted));
  }
  Keep({"graph",
        {{"index", graphs_run_},
         {"what", what},
         {"graph", graph::ToJson(*g)},
         {"inputs", ValuesJson(graphs.inputs)},
         {"expected", ValuesJson(expected)}}});
  if (!compiled_.contains(graphs.compile)) {
    WireGraph wire(*g, level_, what,
                   level_ == TDC_GRAPH_LEVEL_ATEN ? graphs.aten_constants : NamedTensors{},
                   graphs.inputs);
    progress_(CasePhase::kBackendCompile, what);
    std::optional<CallAnswer> can = calls_.CanCompile(wire.get());
    if (!can || can->status != TDC_STATUS_OK) {
      failure_ = can ? Refusal(can->status, CasePhase::kBackendCompile, *g, what + " can_compile",
                               can->message)
                     : ended_;
      return std::nullopt;
    }
    std::optional<CallAnswer> compiled = calls_.Compile(wire.get(), graphs.compile);
    if (!compiled || compiled->status != TDC_STATUS_OK) {
      failure_ = compiled ? Refusal(compiled->status, CasePhase::kBackendCompile, *g,
                                    what + " compile", compiled->message)
                          : ended_;
      return std::nullopt;
    }
    compiled_.insert(graphs.compile);
  }
  current_ = &graphs;
  progress_(CasePhase::kBackendRun,
            fmt::format("{}, whose opaque nodes are: {}", what, OpaqueTargets(*g)));
  std::optional<RunAnswer> ran = calls_.Run(graphs.compile, graphs.inputs, expected.size(), arena_);
  current_ = nullptr;
  const int index = graphs_run_++;
  if (!ran) {
    failure_ = ended_;
    return std::nullopt;
  }
  if (ran->input_written) {
    failure_ = Verdict::Of(CaseStatus::kFail, CasePhase::kAbi, "input_written",
                           fmt::format("{} run: input {} was written (inputs are read-only)", what,
                                       *ran->input_written));
    return std::nullopt;
  }
  if (ran->aliased) {
    failure_ = Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, "output_aliased",
                           fmt::format("{} run: {}", what, *ran->aliased));
    return std::nullopt;
  }
  if (ran->call.status != TDC_STATUS_OK) {
    failure_ =
        Refusal(ran->call.status, CasePhase::kBackendRun, *g, what + " run", ran->call.message);
    return std::nullopt;
  }
  progress_(CasePhase::kCompare, what);
  std::vector<Output>& got = ran->outputs;
  nlohmann::ordered_json recorded = nlohmann::ordered_json::array();
  for (const auto& output : got) {
    const auto* t = std::get_if<runtime::Tensor>(&output);
    recorded.push_back(t ? graph::ToJson(runtime::ToGoldenValue(*t))
                         : graph::Json{{"error", std::get<std::string>(output)}});
  }
  Keep({"backend_outputs", {{"index", index}, {"outputs", std::move(recorded)}}});
  if (std::optional<Verdict> bad = CheckOutputs(graphs, index, what, expected, got)) {
    bad->message = what + ": " + bad->message;
    failure_ = std::move(bad);
    return std::nullopt;
  }
  std::vector<runtime::Tensor> copied;
  for (auto& output : got) copied.push_back(std::get<runtime::Tensor>(std::move(output)));
  return copied;
}

std::optional<Verdict> AbiGraphBackend::CheckOutputs(
    const Graphs& graphs, int index, const std::string& what,
    const std::vector<runtime::Tensor>& expected_outputs,
    const std::vector<Output>& outputs) const {
  auto mismatch = [](std::string reason, std::string message) {
    return Verdict::Of(CaseStatus::kFail, CasePhase::kCompare, std::move(reason),
                       std::move(message));
  };
  if (outputs.size() != expected_outputs.size()) {
    return mismatch("output_mismatch", fmt::format("{} outputs, expected {}", outputs.size(),
                                                   expected_outputs.size()));
  }
  std::optional<std::vector<runtime::Tensor>> fp64;
  bool fp64_tried = false;
  nlohmann::ordered_json judged = nlohmann::ordered_json::array();
  // Every output judged, whatever ends the loop.
  auto recorded = [&](std::optional<Verdict> verdict) {
    Keep({"parity", {{"index", index}, {"what", what}, {"outputs", judged}}});
    return verdict;
  };
  for (size_t i = 0; i < outputs.size(); ++i) {
    const runtime::Tensor& expected = expected_outputs[i];
    if (const auto* error = std::get_if<std::string>(&outputs[i])) {
      return recorded(mismatch("output_mismatch", fmt::format("output {}: {}", i, *error)));
    }
    const runtime::Tensor& got = std::get<runtime::Tensor>(outputs[i]);
    if (got.dtype != expected.dtype || got.sizes != expected.sizes) {
      return recorded(mismatch(
          "output_mismatch",
          fmt::format("output {} is {}{}, expected {}{}", i, runtime::TorchTypeName(got.dtype),
                      runtime::ShapeText(got.sizes), runtime::TorchTypeName(expected.dtype),
                      runtime::ShapeText(expected.sizes))));
    }
    // Only a floating output has an error to measure against float64: evaluated once, at
    // the first, where it is recorded or decides the verdict (dynamo-same), so that the
    // case's process, whose records nobody keeps, judges as the judge does.
    const bool fp64_needed = record_ || tolerance_.kind == gpu::PolicyKind::kDynamoSame;
    if (!fp64_tried && fp64_needed &&
        graph::DTypeElementKind(expected.dtype) == graph::ElementKind::kFloat) {
      fp64_tried = true;
      fp64 = Float64Outputs(graphs, level_ == TDC_GRAPH_LEVEL_ATEN ? backends::GraphLevel::kAten
                                                                   : backends::GraphLevel::kDynamo);
      if (fp64 && fp64->size() != outputs.size()) fp64.reset();
    }
    auto parity = JudgeOutput(tolerance_, i, expected, got, fp64 ? &(*fp64)[i] : nullptr);
    if (auto* why = std::get_if<std::string>(&parity)) {
      return recorded(Verdict::Of(CaseStatus::kHarnessError, CasePhase::kCompare, "not_comparable",
                                  fmt::format("output {}: {}", i, *why)));
    }
    const OutputParity& judgement = std::get<OutputParity>(parity);
    judged.push_back(ToJson(judgement));
    if (!judgement.judgement.passed) {
      return recorded(mismatch("value_mismatch",
                               fmt::format("output {} ({}): {}", i, gpu::PolicyName(tolerance_),
                                           judgement.judgement.detail)));
    }
  }
  return recorded(std::nullopt);
}

std::optional<Verdict> AbiGraphBackend::Finish() {
  if (!created_) return std::nullopt;
  created_ = false;
  compiled_.clear();
  const std::optional<size_t> live = calls_.Finish();
  if (!live) return ended_;
  if (*live == 0) return std::nullopt;
  return Verdict::Of(
      CaseStatus::kFail, CasePhase::kAbi, "leaked_handles",
      fmt::format("{} compiled handle(s) still live after every one was released", *live));
}

tdc_status AbiGraphBackend::AllocTensor(void* context, int32_t dtype, int32_t device, int32_t,
                                        int32_t ndim, const int64_t* shape, tdc_tensor* out) {
  auto* self = static_cast<AbiGraphBackend*>(context);
  if (out == nullptr || device != TDC_DEVICE_CPU || dtype < 0 || dtype > TDC_DTYPE_BOOL ||
      !runtime::IsSupportedDType(static_cast<graph::DType>(dtype)) ||
      CheckShape(dtype, ndim, shape)) {
    return TDC_STATUS_ERROR;
  }
  self->arena_.Allocate(dtype, ndim, shape, *out);
  return TDC_STATUS_OK;
}

tdc_status AbiGraphBackend::RunNode(void* context, size_t node_index, const tdc_tensor* inputs,
                                    size_t num_inputs, tdc_tensor* outputs, size_t max_outputs,
                                    size_t* num_outputs, char* message, size_t message_size) {
  auto* self = static_cast<AbiGraphBackend*>(context);
  if (self->current_ == nullptr || num_outputs == nullptr ||
      (num_inputs > 0 && inputs == nullptr)) {
    Say(message, message_size, "run_node outside run()");
    return TDC_STATUS_ERROR;
  }
  // Only a call node of the graph being run is the host's to run.
  const graph::Graph* g =
      self->level_ == TDC_GRAPH_LEVEL_ATEN ? self->current_->aten : self->current_->dynamo;
  if (g == nullptr || node_index >= g->nodes.size() ||
      (g->nodes[node_index].op != graph::NodeOp::kCallFunction &&
       g->nodes[node_index].op != graph::NodeOp::kCallMethod)) {
    Say(message, message_size,
        fmt::format("run_node: node {} is no call node of the graph being run", node_index));
    return TDC_STATUS_ERROR;
  }
  std::vector<runtime::Tensor> in;
  for (size_t i = 0; i < num_inputs; ++i) {
    auto copy = CopyFromWire(inputs[i]);
    if (auto* error = std::get_if<std::string>(&copy)) {
      Say(message, message_size, fmt::format("input {}: {}", i, *error));
      return TDC_STATUS_ERROR;
    }
    in.push_back(std::get<runtime::Tensor>(std::move(copy)));
  }
  const HostNode& host = self->level_ == TDC_GRAPH_LEVEL_ATEN ? self->current_->aten_host
                                                              : self->current_->dynamo_host;
  auto result = host(node_index, in);
  if (auto* error = std::get_if<std::string>(&result)) {
    Say(message, message_size, *error);
    return TDC_STATUS_ERROR;
  }
  const auto& tensors = std::get<std::vector<runtime::Tensor>>(result);
  if (tensors.size() > max_outputs) {
    Say(message, message_size,
        fmt::format("the node has {} results, room for {}", tensors.size(), max_outputs));
    return TDC_STATUS_ERROR;
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    const runtime::Tensor& t = tensors[i];
    const runtime::Tensor& into = self->arena_.Allocate(
        static_cast<int32_t>(t.dtype), static_cast<int32_t>(t.dim()), t.sizes.data(), outputs[i]);
    std::vector<int64_t> to = into.ElementOffsets(), from = t.ElementOffsets();
    for (size_t k = 0; k < to.size(); ++k) into.Store(to[k], t.Load(from[k]));
  }
  *num_outputs = tensors.size();
  return TDC_STATUS_OK;
}

}  // namespace tdc::conformance
