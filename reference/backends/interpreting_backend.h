// The reference's own backend, in process: each graph run by the graph interpreter at one
// level, its outputs going on in the program as a compiler backend's would. At the ATen level
// this is what torch computes with an ATen-level backend (aot_eager), which can differ from
// the Dynamo graph's values: an allowed function's body is traced by AOT autograd with
// is_compiling() true, while the Dynamo graph calls the function, where it is false (checked
// with torch 2.13.0: a generated program gave 2.1756 with the recording backend, 12.968 with
// aot_eager, which is what this computes).
#ifndef TDCONFORM_REFERENCE_BACKENDS_INTERPRETING_BACKEND_H_
#define TDCONFORM_REFERENCE_BACKENDS_INTERPRETING_BACKEND_H_

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "reference/backends/graph_interpreter.h"
#include "reference/runtime/graph_backend.h"

namespace tdc::backends {

// `graphs`' outputs computed by the interpreter at `level` (its opaque nodes on the host).
std::variant<std::vector<runtime::Tensor>, std::string> InterpretGraph(
    const runtime::GraphBackend::Graphs& graphs, GraphLevel level);

class InterpretingBackend final : public runtime::GraphBackend {
 public:
  // A graph it was given, as it was then: copies, since the program goes on writing into
  // the tensors it was given and got back.
  struct Computed {
    size_t compile = 0;  // Graphs::compile
    std::vector<runtime::Tensor> inputs;
    std::optional<std::vector<runtime::Tensor>> outputs;  // none when it could not run it
  };

  // `keep_runs`: keep a Computed of every run (what the conformance executor holds a backend
  // to); without it nothing is kept, so a program calling a compiled function in a loop runs
  // in constant memory, as under torch.
  explicit InterpretingBackend(GraphLevel level, bool keep_runs = false)
      : level_(level), keep_runs_(keep_runs) {}
  std::optional<std::vector<runtime::Tensor>> Run(const Graphs& graphs) override;
  // Why the first graph it could not run failed; empty when every graph ran.
  const std::string& error() const { return error_; }
  // Every graph it was given, in order (a cache hit's again), when it keeps runs.
  const std::vector<Computed>& computed() const { return computed_; }

 private:
  GraphLevel level_;
  bool keep_runs_;
  std::string error_;
  std::vector<Computed> computed_;
};

}  // namespace tdc::backends

#endif  // TDCONFORM_REFERENCE_BACKENDS_INTERPRETING_BACKEND_H_
