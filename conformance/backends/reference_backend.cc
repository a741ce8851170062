// The reference CPU backend behind the C ABI: a graph compiles to itself (decoded from the
// wire form, with its tensor constants) and runs on the reference's graph interpreter, the
// runtime's kernels; opaque nodes go back to the host. It declares every target at both levels:
// what the interpreter cannot compute it reports as an ERROR naming the node.
#include <cstdio>
#include <memory>
#include <string>

#include "conformance/abi/tensors.h"
#include "conformance/abi/wire.h"
#include "reference/backends/graph_interpreter.h"

struct tdc_backend {
  const tdc_host_api* host;
  size_t live = 0;
};

struct tdc_compiled {
  tdc::graph::Graph graph;
  tdc::backends::GraphLevel level;
  tdc::backends::Constants constants;
};

namespace tdc::conformance {
namespace {

void Say(char* message, size_t size, const std::string& text) {
  if (message != nullptr && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

void GetInfo(tdc_backend_info* out) {
  out->name = "reference";
  out->version = "1.0";
  out->vendor = "tdconform";
}

void GetCapabilities(tdc_capabilities* out) {
  out->graph_levels = (1u << TDC_GRAPH_LEVEL_DYNAMO) | (1u << TDC_GRAPH_LEVEL_ATEN);
  out->dtypes = (1ull << TDC_DTYPE_FLOAT32) | (1ull << TDC_DTYPE_FLOAT64) |
                (1ull << TDC_DTYPE_INT64) | (1ull << TDC_DTYPE_INT32) | (1ull << TDC_DTYPE_BOOL);
  out->devices = 1u << TDC_DEVICE_CPU;
  out->features = 0;
  out->num_ops = 0;
  out->ops = nullptr;  // every target
}

tdc_status Create(const tdc_host_api* host, tdc_backend** out, char* message, size_t size) {
  if (host == nullptr || host->alloc_tensor == nullptr || host->run_node == nullptr) {
    Say(message, size, "the host table lacks alloc_tensor or run_node");
    return TDC_STATUS_ERROR;
  }
  *out = new tdc_backend{host};
  return TDC_STATUS_OK;
}

void Destroy(tdc_backend* backend) { delete backend; }

tdc_status Decode(const tdc_graph* graph, graph::Graph* decoded, char* message, size_t size) {
  std::variant<graph::Graph, std::string> g = DecodeGraph(*graph);
  if (auto* error = std::get_if<std::string>(&g)) {
    Say(message, size, *error);
    return TDC_STATUS_ERROR;
  }
  if (decoded != nullptr) *decoded = std::get<graph::Graph>(std::move(g));
  return TDC_STATUS_OK;
}

tdc_status CanCompile(tdc_backend*, const tdc_graph* graph, char* message, size_t size) {
  return Decode(graph, nullptr, message, size);
}

tdc_status Compile(tdc_backend* backend, const tdc_graph* graph, int32_t device, tdc_compiled** out,
                   char* message, size_t size) {
  if (device != TDC_DEVICE_CPU) {
    Say(message, size, "the reference backend runs on the CPU only");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  auto compiled = std::make_unique<tdc_compiled>();
  compiled->level = graph->level == TDC_GRAPH_LEVEL_ATEN ? backends::GraphLevel::kAten
                                                         : backends::GraphLevel::kDynamo;
  if (tdc_status s = Decode(graph, &compiled->graph, message, size); s != TDC_STATUS_OK) return s;
  auto constants = DecodeConstants(*graph);
  if (auto* error = std::get_if<std::string>(&constants)) {
    Say(message, size, *error);
    return TDC_STATUS_ERROR;
  }
  compiled->constants = std::get<NamedTensors>(std::move(constants));
  *out = compiled.release();
  ++backend->live;
  return TDC_STATUS_OK;
}

// Hands node `node` to the host: its inputs as views, its outputs copied back.
std::variant<std::vector<runtime::Tensor>, std::string> RunOnHost(
    const tdc_host_api& host, size_t node, const std::vector<runtime::Tensor>& inputs) {
  WireTensors views;
  std::vector<tdc_tensor> in;
  for (const runtime::Tensor& t : inputs) in.push_back(views.Add(t));
  constexpr size_t kMaxOutputs = 64;
  tdc_tensor outputs[kMaxOutputs] = {};
  size_t count = 0;
  char message[512] = "";
  tdc_status s = host.run_node(host.context, node, in.data(), in.size(), outputs, kMaxOutputs,
                               &count, message, sizeof message);
  if (s != TDC_STATUS_OK) return std::string(message);
  std::vector<runtime::Tensor> out;
  for (size_t i = 0; i < count && i < kMaxOutputs; ++i) {
    auto copy = CopyFromWire(outputs[i]);
    if (auto* error = std::get_if<std::string>(&copy)) return *error;
    out.push_back(std::get<runtime::Tensor>(std::move(copy)));
  }
  return out;
}

tdc_status Run(tdc_backend* backend, tdc_compiled* compiled, const tdc_tensor* inputs,
               size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
               size_t size) {
  std::vector<runtime::Tensor> in;
  for (size_t i = 0; i < num_inputs; ++i) {
    auto copy = CopyFromWire(inputs[i]);
    if (auto* error = std::get_if<std::string>(&copy)) {
      Say(message, size, "input " + std::to_string(i) + ": " + *error);
      return TDC_STATUS_ERROR;
    }
    in.push_back(std::get<runtime::Tensor>(std::move(copy)));
  }
  backends::HostNode host = [&](size_t node, const std::vector<runtime::Tensor>& node_inputs) {
    return RunOnHost(*backend->host, node, node_inputs);
  };
  auto result = backends::RunGraph(compiled->graph, compiled->level, in, compiled->constants, host);
  if (auto* error = std::get_if<std::string>(&result)) {
    Say(message, size, *error);
    return TDC_STATUS_ERROR;
  }
  const auto& out = std::get<std::vector<runtime::Tensor>>(result);
  if (out.size() != num_outputs) {
    Say(message, size,
        "the graph has " + std::to_string(out.size()) + " outputs, the host asked for " +
            std::to_string(num_outputs));
    return TDC_STATUS_ERROR;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const runtime::Tensor& t = out[i];
    tdc_status s = backend->host->alloc_tensor(
        backend->host->context, static_cast<int32_t>(t.dtype), TDC_DEVICE_CPU, 0,
        static_cast<int32_t>(t.dim()), t.sizes.data(), &outputs[i]);
    if (s != TDC_STATUS_OK) {
      Say(message, size, "alloc_tensor failed");
      return s;
    }
    WireTensors view;
    auto copy = CopyFromWire(view.Add(t));  // contiguous, logical order: the allocation's layout
    const runtime::Tensor& flat = std::get<runtime::Tensor>(copy);
    std::copy(flat.storage->bytes.begin(), flat.storage->bytes.end(),
              static_cast<unsigned char*>(outputs[i].data));
  }
  return TDC_STATUS_OK;
}

void Release(tdc_backend* backend, tdc_compiled* compiled) {
  delete compiled;
  --backend->live;
}

size_t LiveHandles(const tdc_backend* backend) { return backend->live; }

const tdc_backend_api kApi = {
    sizeof(tdc_backend_api),
    TDC_ABI_VERSION_MAJOR,
    TDC_ABI_VERSION_MINOR,
    GetInfo,
    GetCapabilities,
    Create,
    Destroy,
    CanCompile,
    Compile,
    Run,
    Release,
    LiveHandles,
};

}  // namespace
}  // namespace tdc::conformance

extern "C" TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major,
                                                                         uint16_t) {
  return host_abi_major == TDC_ABI_VERSION_MAJOR ? &tdc::conformance::kApi : nullptr;
}
