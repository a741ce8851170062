// The calls the host makes on a backend instance (tdconform_backend.h), behind one interface
// so that the verdict is never computed where the backend runs (issue 32). In the case's
// process LiveCalls makes each call and sends its raw answer (status, message, outputs) to
// the parent; a judge process forked from the parent, where no backend code runs, then runs
// the same case again with ReplayedCalls, which answers each call with what the case's
// process sent, and that run's verdict is the case's. A backend can so write whatever it
// likes on the case's pipe: a verdict line is not read from there, and its outputs are
// checked against values the judge computed itself.
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_BACKEND_CALLS_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_BACKEND_CALLS_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "conformance/abi/tensors.h"
#include "conformance/loader/loader.h"
#include "reference/runtime/tensor.h"

namespace tdc::conformance {

struct CallAnswer {
  tdc_status status = TDC_STATUS_OK;
  std::string message;  // made safe (safe_text.h)
};
// One output: the tensor, or why there is none ("not written", a bad dtype, ...).
using Output = std::variant<runtime::Tensor, std::string>;
struct RunAnswer {
  CallAnswer call;
  std::vector<Output> outputs;          // as many as asked for
  std::optional<size_t> input_written;  // the first input the backend wrote into
  // An earlier output of the same compiled graph that this run changed ("output 0 of run 1"):
  // the program still holds it, and torch's caller would see it change (issue 29).
  std::optional<std::string> aliased;
};

// Each returns nothing when there is no answer: the case's process ended before it (replay).
class BackendCalls {
 public:
  virtual ~BackendCalls() = default;
  // Creates the instance the other calls use; `host` is the host's table.
  virtual std::optional<CallAnswer> Create(const tdc_host_api& host) = 0;
  virtual std::optional<CallAnswer> CanCompile(const tdc_graph& graph) = 0;
  // Compiles `graph` as the handle named `key` (OK without a handle is an ERROR).
  virtual std::optional<CallAnswer> Compile(const tdc_graph& graph, size_t key) = 0;
  // `host_memory`: what the host allocated for the backend (a run's outputs among it).
  virtual std::optional<RunAnswer> Run(size_t key, const std::vector<runtime::Tensor>& inputs,
                                       size_t num_outputs, const WireTensors& host_memory) = 0;
  // Releases every handle, then gives live_handles and destroys the instance.
  virtual std::optional<size_t> Finish() = 0;
};

// The calls made on `backend`, each answer given to `send` as JSON too.
class LiveCalls final : public BackendCalls {
 public:
  LiveCalls(const LoadedBackend& backend, std::function<void(const nlohmann::json&)> send)
      : backend_(backend), send_(std::move(send)) {}
  std::optional<CallAnswer> Create(const tdc_host_api& host) override;
  std::optional<CallAnswer> CanCompile(const tdc_graph& graph) override;
  std::optional<CallAnswer> Compile(const tdc_graph& graph, size_t key) override;
  std::optional<RunAnswer> Run(size_t key, const std::vector<runtime::Tensor>& inputs,
                               size_t num_outputs, const WireTensors& host_memory) override;
  std::optional<size_t> Finish() override;

 private:
  CallAnswer Sent(tdc_status status, const char* message, size_t size);
  // An output a run returned in memory the host owns, and its bytes then.
  struct HeldOutput {
    size_t run = 0;
    size_t output = 0;
    const runtime::Tensor* tensor = nullptr;
    std::vector<unsigned char> bytes;
  };
  // The first held output of compiled graph `key` whose bytes changed since its run, as
  // "output I of run R"; then holds this run's `outputs` too.
  std::optional<std::string> CheckAndHold(size_t key, const std::vector<tdc_tensor>& outputs,
                                          const WireTensors& host_memory);

  const LoadedBackend& backend_;
  std::function<void(const nlohmann::json&)> send_;
  tdc_backend* instance_ = nullptr;
  std::map<size_t, tdc_compiled*> compiled_;
  std::map<size_t, std::vector<HeldOutput>> held_;  // by compiled graph
  std::map<size_t, size_t> runs_;                   // runs of each compiled graph
};

// The answers `sent` (LiveCalls' JSON, as the case's process sent it: untrusted, checked), in
// order. `exhausted()`: a call found none left (or one that is malformed).
class ReplayedCalls final : public BackendCalls {
 public:
  explicit ReplayedCalls(std::deque<nlohmann::json> sent) : sent_(std::move(sent)) {}
  std::optional<CallAnswer> Create(const tdc_host_api& host) override;
  std::optional<CallAnswer> CanCompile(const tdc_graph& graph) override;
  std::optional<CallAnswer> Compile(const tdc_graph& graph, size_t key) override;
  std::optional<RunAnswer> Run(size_t key, const std::vector<runtime::Tensor>& inputs,
                               size_t num_outputs, const WireTensors& host_memory) override;
  std::optional<size_t> Finish() override;
  bool exhausted() const { return exhausted_; }

 private:
  std::optional<nlohmann::json> Next(const char* call);
  std::optional<CallAnswer> NextCall(const char* call);

  std::deque<nlohmann::json> sent_;
  bool exhausted_ = false;
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_BACKEND_CALLS_H_
