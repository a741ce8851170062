// The reference's values for a graph depend only on the compile (its graphs and constants)
// and its inputs: opaque nodes are the program's functions of their inputs. So a graph the
// backend is given with the very inputs the reference's run gave it needs nothing computed
// again; with any other inputs the values are new ones.
#include "conformance/executor/aten_expectation.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>

namespace tdc::conformance {

namespace {

bool SameBits(const runtime::Scalar& a, const runtime::Scalar& b) {
  return a.dtype == b.dtype && std::bit_cast<uint64_t>(a.f) == std::bit_cast<uint64_t>(b.f) &&
         a.i == b.i && a.b == b.b;
}

// Whether the interpreter sees the same tensors: layouts and every element's bits.
bool SameTensors(const std::vector<runtime::Tensor>& a, const std::vector<runtime::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].dtype != b[k].dtype || a[k].sizes != b[k].sizes || a[k].strides != b[k].strides ||
        a[k].requires_grad != b[k].requires_grad)
      return false;
    std::vector<runtime::Scalar> x = a[k].Values(), y = b[k].Values();
    for (size_t i = 0; i < x.size(); ++i) {
      if (!SameBits(x[i], y[i])) return false;
    }
  }
  return true;
}

}  // namespace

AtenExpectation ExpectAtAten(const std::string& source, const std::string& display_name,
                             dynamo::CompileRunOptions run) {
  AtenExpectation expectation;
  backends::InterpretingBackend interpreter(backends::GraphLevel::kAten, /*keep_runs=*/true);
  run.backend = &interpreter;
  auto outcome = dynamo::RunCompiled(source, display_name, run);
  expectation.graphs = interpreter.computed();
  if (auto* diagnostic = std::get_if<std::string>(&outcome)) {
    expectation.failure =
        Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLower, "reference_error", *diagnostic);
    return expectation;
  }
  if (!interpreter.error().empty()) {
    expectation.failure = Verdict::Of(CaseStatus::kHarnessError, CasePhase::kLower,
                                      "reference_aten_error", interpreter.error());
  }
  expectation.outcome = std::get<graph::CompiledOutcome>(std::move(outcome));
  return expectation;
}

std::variant<std::vector<runtime::Tensor>, std::string> ExpectedAtenOutputs(
    const AtenExpectation& expectation, size_t n, const runtime::GraphBackend::Graphs& graphs) {
  if (n < expectation.graphs.size()) {
    const backends::InterpretingBackend::Computed& ran = expectation.graphs[n];
    if (ran.compile == graphs.compile && ran.outputs && SameTensors(ran.inputs, graphs.inputs))
      return *ran.outputs;
  }
  return backends::InterpretGraph(graphs, backends::GraphLevel::kAten);
}

std::optional<std::string> HoldToAotEager(graph::Golden& golden, const std::string& profile,
                                          const graph::Outcome* fallback) {
  for (auto& [name, compiled] : golden.compiled) {
    if (name != profile) continue;
    const graph::Outcome* at_aten = compiled.aot_eager ? &*compiled.aot_eager : fallback;
    if (at_aten == nullptr)
      return fmt::format("the golden records no aot_eager outcome at {}", profile);
    compiled.outs = at_aten->outs;
    compiled.exception = at_aten->exception;
  }
  return std::nullopt;
}

}  // namespace tdc::conformance
