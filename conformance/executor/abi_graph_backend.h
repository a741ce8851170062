// The host side of the ABI for one case: every graph the reference sends to torch.compile's
// backend goes to a backend instance at the case's level (can_compile, compile, run, through
// backend_calls.h: made live in the case's process, replayed in the judge's); what comes back
// is checked against the reference's own values for that graph (at the Dynamo level those
// Dynamo's run computed, at the ATen level those of the reference's ATen run,
// aten_expectation.h), and the first failure is kept as the case's verdict. Opaque nodes the
// backend hands back run on the host.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_ABI_GRAPH_BACKEND_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_ABI_GRAPH_BACKEND_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "conformance/abi/tensors.h"
#include "conformance/executor/aten_expectation.h"
#include "conformance/executor/backend_calls.h"
#include "conformance/executor/case_record.h"
#include "conformance/executor/verdict.h"
#include "conformance/loader/loader.h"
#include "gpu/parity/policy.h"
#include "reference/runtime/graph_backend.h"

namespace tdc::conformance {

// Where the case is, for the parent to name a crash or a hang: the phase entered and what.
using Progress = std::function<void(CasePhase phase, const std::string& detail)>;

class AbiGraphBackend final : public runtime::GraphBackend {
 public:
  // `required`: the case is in the must-pass core set (NOT_SUPPORTED and REJECTED fail);
  // `tolerance`: what each output is held to (output_parity.h); `aten`: at the ATen level, the
  // reference's run (null: none), which outlives this; `record` takes each graph given to the
  // backend and what came back (case_record.h); empty in the case's own process, whose
  // records nobody keeps: then nothing is measured that does not decide a verdict. `calls`: how the
  // backend is called (it outlives this); `ended`: the verdict when a call has no answer (the
  // case's process ended there).
  AbiGraphBackend(const LoadedBackend& backend, BackendCalls& calls, Verdict ended,
                  tdc_graph_level level, bool required, gpu::Policy tolerance,
                  const AtenExpectation* aten, Progress progress, Record record);
  ~AbiGraphBackend() override;
  AbiGraphBackend(const AbiGraphBackend&) = delete;
  AbiGraphBackend& operator=(const AbiGraphBackend&) = delete;

  // Creates the backend instance; the verdict when it cannot be.
  std::optional<Verdict> Start();
  std::optional<std::vector<runtime::Tensor>> Run(const Graphs& graphs) override;
  // The first failure, if any.
  const std::optional<Verdict>& failure() const { return failure_; }
  // Releases every compiled graph and checks the backend let them go (live_handles), then
  // destroys the instance; the ABI verdict when it kept some.
  std::optional<Verdict> Finish();
  int graphs_run() const { return graphs_run_; }

 private:
  static tdc_status AllocTensor(void* context, int32_t dtype, int32_t device, int32_t device_index,
                                int32_t ndim, const int64_t* shape, tdc_tensor* out);
  static tdc_status RunNode(void* context, size_t node_index, const tdc_tensor* inputs,
                            size_t num_inputs, tdc_tensor* outputs, size_t max_outputs,
                            size_t* num_outputs, char* message, size_t message_size);
  // The verdict for a status other than OK from `phase` on the graph `g`.
  Verdict Refusal(tdc_status status, CasePhase phase, const graph::Graph& g,
                  const std::string& what, const std::string& message) const;
  void Keep(const CaseRecord& record) const {
    if (record_) record_(record);
  }

  // Whether `g` needs only what the backend declared (level, dtypes, targets).
  bool Declared(const graph::Graph& g) const;
  // Each output against the reference's under the policy; every output judged is recorded
  // (a `parity` record) before the first that fails is the verdict.
  std::optional<Verdict> CheckOutputs(const Graphs& graphs, int index, const std::string& what,
                                      const std::vector<runtime::Tensor>& expected,
                                      const std::vector<Output>& outputs) const;

  const LoadedBackend& backend_;
  BackendCalls& calls_;
  Verdict ended_;
  tdc_graph_level level_;
  bool required_;
  gpu::Policy tolerance_;
  const AtenExpectation* aten_;
  Progress progress_;
  Record record_;
  tdc_host_api host_{};
  bool created_ = false;  // the instance exists
  // Each compile (Graphs::compile) the backend compiled: a cache hit runs its handle again, as
  // torch calls the compiled function it cached.
  std::set<size_t> compiled_;
  WireTensors arena_;                // what the host allocates for the backend: lives with the case
  const Graphs* current_ = nullptr;  // the graph being run, for run_node
  std::optional<Verdict> failure_;
  size_t graphs_sent_ = 0;  // Run calls, failed or not: the index into aten_->graphs
  int graphs_run_ = 0;
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_ABI_GRAPH_BACKEND_H_
