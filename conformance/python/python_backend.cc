// The Python backend library: the ABI's calls become calls of conformance/python/host.py in
// an embedded interpreter (the torch virtual environment's), which builds the real
// torch.fx.GraphModule, calls the backend callable and runs what it returns.
//
// The interpreter starts in the parent when the loader configures the library (so a missing
// module is a load error, and torch is imported once): each case's process is forked from it
// holding the GIL, and says so to CPython (PyOS_AfterFork_Child) when it creates its instance.
// A Python exception is TDC_STATUS_ERROR with the exception and its traceback as the message;
// a graph tdconform cannot build as torch would (host.NotBuildable) is TDC_STATUS_REJECTED:
// tdconform's limit, never the backend's fault.
#include "conformance/python/python_backend.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <pybind11/embed.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "conformance/abi/wire.h"
#include "reference/graph/golden_json.h"

namespace py = pybind11;

struct tdc_backend {
  const tdc_host_api* host;
  size_t live = 0;
};

struct tdc_compiled {
  py::object compiled;  // host.Compiled
};

namespace tdc::conformance {
namespace {

// What configure found: one backend callable a process.
struct Configured {
  py::object host;     // the module conformance.python.host
  py::object backend;  // MODULE.ATTR
  std::string name;    // for tdc_backend_info: py_<attr>, [a-z0-9_-]+
  std::string module;
  uint32_t levels = 0;
  pid_t started_in = 0;
};
Configured* configured = nullptr;
const tdc_backend* current = nullptr;  // the instance being run, for run_node

// Bytes per element, by tdc_dtype.
constexpr size_t kElementSize[] = {2, 2, 4, 8, 8, 16, 1, 2, 4, 8, 1, 2, 4, 8, 1};

void Say(char* message, size_t size, const std::string& text) {
  if (message != nullptr && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

// The exception's summary first (what the verdict line shows), then as much of the
// traceback's end as fits: its innermost frames.
std::string Fit(const std::string& summary, const std::string& text, size_t size) {
  if (summary.size() + 24 >= size) return summary;
  const size_t room = size - summary.size() - 24;
  const std::string tail = text.size() <= room ? text : "..." + text.substr(text.size() - room);
  return summary + "\n" + tail;
}

// Python's error as (whether tdconform could not build the graph, the text for a message).
std::pair<bool, std::string> Describe(py::error_already_set& error, size_t size) {
  try {
    py::tuple d = configured->host.attr("describe")(error.value());
    return {d[0].cast<bool>(), Fit(d[1].cast<std::string>(), d[2].cast<std::string>(), size)};
  } catch (py::error_already_set& inner) {
    return {false, Fit(error.what(), "", size)};
  }
}

size_t StorageElements(int32_t ndim, const int64_t* shape, const int64_t* strides) {
  size_t extent = 1;
  for (int32_t d = 0; d < ndim; ++d) {
    if (shape[d] == 0) return 0;
    extent += static_cast<size_t>((shape[d] - 1) * strides[d]);
  }
  return extent;
}

// A torch tensor copied from the host's (host.from_host).
py::object FromHost(const tdc_tensor& t) {
  if (t.dtype < 0 || t.dtype > TDC_DTYPE_BOOL || t.device != TDC_DEVICE_CPU)
    throw std::runtime_error(fmt::format("a tensor of dtype {} on device {}", t.dtype, t.device));
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim), strides(t.strides, t.strides + t.ndim);
  const size_t bytes = StorageElements(t.ndim, t.shape, t.strides) * kElementSize[t.dtype];
  py::memoryview buffer = py::memoryview::from_memory(t.data, static_cast<ssize_t>(bytes), false);
  return configured->host.attr("from_host")(buffer, t.dtype, shape, strides);
}

// The graph's example inputs as torch tensors (copies, strides kept), or None from a host
// older than ABI 1.2, which gives none.
py::object ExampleInputs(const tdc_graph& graph) {
  if (graph.struct_size < offsetof(tdc_graph, example_inputs) + sizeof graph.example_inputs ||
      graph.example_inputs == nullptr)
    return py::none();
  py::list tensors;
  for (size_t i = 0; i < graph.num_example_inputs; ++i)
    tensors.append(FromHost(graph.example_inputs[i]));
  return tensors;
}

// The host's run_node for the opaque nodes of `backend`'s graphs (graph_module.HostNode).
py::cpp_function RunOnHost() {
  return py::cpp_function([](size_t node_index, py::list tensors) {
    if (current == nullptr) throw std::runtime_error("an opaque node ran outside run()");
    std::vector<py::object> kept;  // contiguous copies whose data the host reads
    std::vector<std::vector<int64_t>> shapes, strides;
    std::vector<tdc_tensor> inputs;
    for (py::handle t : tensors) {
      py::tuple h = configured->host.attr("host_tensor")(t);
      kept.push_back(h[3]);
      std::vector<int64_t>& shape = shapes.emplace_back(h[1].cast<std::vector<int64_t>>());
      std::vector<int64_t>& stride = strides.emplace_back(shape.size(), 1);
      for (size_t d = shape.size(); d-- > 1;) stride[d - 1] = stride[d] * shape[d];
      inputs.push_back({h[0].cast<int32_t>(), TDC_DEVICE_CPU, 0, static_cast<int32_t>(shape.size()),
                        shape.data(), stride.data(),
                        reinterpret_cast<void*>(h[2].cast<uintptr_t>())});
    }
    constexpr size_t kMaxOutputs = 64;
    std::vector<tdc_tensor> outputs(kMaxOutputs);
    size_t count = 0;
    char message[1024] = "";
    const tdc_host_api& host = *current->host;
    if (host.run_node(host.context, node_index, inputs.data(), inputs.size(), outputs.data(),
                      kMaxOutputs, &count, message, sizeof message) != TDC_STATUS_OK) {
      throw std::runtime_error(
          fmt::format("the host could not run node {}: {}", node_index, message));
    }
    py::list results;
    for (size_t i = 0; i < count; ++i) results.append(FromHost(outputs[i]));
    return results;
  });
}

// Lets extension modules (torch._C, ...) find libpython's symbols: it came in with this
// library, which the loader opened RTLD_LOCAL.
void PromoteLibPython() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&Py_IsInitialized), &info) != 0 && info.dli_fname != nullptr)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

// The interpreter of the torch virtual environment (TDC_PYTHON, else the one CMake was given):
// its program name makes CPython read the venv's pyvenv.cfg and site-packages. Python's own
// environment (PYTHONPATH) is honoured; signals stay tdconform's.
std::optional<std::string> StartInterpreter() {
  if (Py_IsInitialized()) return std::nullopt;
  PromoteLibPython();
  // torch imported in the oracle's environment (conformance/oracle/server.py), unless the user
  // set these: its ATen kernels then compute as they did when the goldens were recorded.
  setenv("ATEN_CPU_CAPABILITY", "default", 0);
  setenv("OMP_NUM_THREADS", "1", 0);
  setenv("MKL_NUM_THREADS", "1", 0);
  const char* env = std::getenv("TDC_PYTHON");
  const std::string program = env != nullptr && *env != '\0' ? env : TDC_PYTHON_EXECUTABLE;
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;
  config.parse_argv = 0;
  PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, program.c_str());
  if (PyStatus_Exception(status)) {
    PyConfig_Clear(&config);
    return fmt::format("cannot use {} as the interpreter", program);
  }
  try {
    py::initialize_interpreter(&config, 0, nullptr, false);
  } catch (std::exception& e) {
    return fmt::format("cannot start Python ({}): {}", program, e.what());
  }
  // conformance.python.host from the source tree (TDC_PYTHON_PATH moves it), MODULE from the
  // working directory first, as `python -m` finds it.
  const char* path = std::getenv("TDC_PYTHON_PATH");
  py::list sys_path = py::module_::import("sys").attr("path");
  sys_path.insert(0, path != nullptr && *path != '\0' ? path : TDC_SOURCE_DIR);
  sys_path.insert(0, "");
  return std::nullopt;
}

std::string NameOf(const std::string& attr) {
  std::string name = "py_";
  for (char c : attr) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    name += (std::isalnum(static_cast<unsigned char>(lower)) || lower == '-') ? lower : '_';
  }
  return name;
}

// The levels the callable declares (its tdconform_graph_levels, default Dynamo's alone: a
// torch.compile backend gets Dynamo's graphs; an ATen-level one is a forward compiler).
uint32_t LevelsOf(py::object backend) {
  py::object declared = py::getattr(backend, "tdconform_graph_levels", py::none());
  if (declared.is_none()) return 1u << TDC_GRAPH_LEVEL_DYNAMO;
  uint32_t levels = 0;
  for (py::handle level : declared) {
    const std::string name = py::str(level);
    if (name == "dynamo") levels |= 1u << TDC_GRAPH_LEVEL_DYNAMO;
    if (name == "aten") levels |= 1u << TDC_GRAPH_LEVEL_ATEN;
  }
  return levels;
}

void GetInfo(tdc_backend_info* out) {
  out->name = configured->name.c_str();
  out->version = "1.0";
  out->vendor = configured->module.c_str();
}

void GetCapabilities(tdc_capabilities* out) {
  out->graph_levels = configured->levels;
  out->dtypes = (1ull << (TDC_DTYPE_BOOL + 1)) - 1;
  out->devices = 1u << TDC_DEVICE_CPU;
  out->features = 0;
  out->num_ops = 0;  // every target: a torch.compile backend takes any graph
  out->ops = nullptr;
}

tdc_status Create(const tdc_host_api*, tdc_backend**, char*, size_t);

void Destroy(tdc_backend* backend) { delete backend; }

tdc_status CanCompile(tdc_backend*, const tdc_graph*, char*, size_t) { return TDC_STATUS_OK; }

tdc_status Compile(tdc_backend* backend, const tdc_graph* graph, int32_t device, tdc_compiled** out,
                   char* message, size_t message_size) {
  if (device != TDC_DEVICE_CPU) {
    Say(message, message_size, "only the CPU");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  auto decoded = DecodeGraph(*graph);
  if (auto* error = std::get_if<std::string>(&decoded)) {
    Say(message, message_size, *error);
    return TDC_STATUS_ERROR;
  }
  try {
    py::dict constants;
    for (size_t i = 0; i < graph->num_constants; ++i)
      constants[graph->constant_names[i]] = FromHost(graph->constants[i]);
    const std::string text = graph::ToJson(std::get<graph::Graph>(decoded)).dump();
    const char* level = graph->level == TDC_GRAPH_LEVEL_ATEN ? "aten" : "dynamo";
    py::object compiled = configured->host.attr("compile")(
        configured->backend, text, level, constants, RunOnHost(), ExampleInputs(*graph));
    *out = new tdc_compiled{std::move(compiled)};
    ++backend->live;
    return TDC_STATUS_OK;
  } catch (py::error_already_set& error) {
    auto [not_buildable, text] = Describe(error, message_size);
    Say(message, message_size, text);
    return not_buildable ? TDC_STATUS_REJECTED : TDC_STATUS_ERROR;
  } catch (std::exception& e) {
    Say(message, message_size, e.what());
    return TDC_STATUS_ERROR;
  }
}

tdc_status Run(tdc_backend* backend, tdc_compiled* compiled, const tdc_tensor* inputs,
               size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
               size_t message_size) {
  current = backend;
  try {
    py::list args;
    for (size_t i = 0; i < num_inputs; ++i) args.append(FromHost(inputs[i]));
    py::list results = configured->host.attr("run")(compiled->compiled, args);
    if (results.size() != num_outputs) {
      Say(message, message_size,
          fmt::format("{} outputs, the host expects {}", results.size(), num_outputs));
      current = nullptr;
      return TDC_STATUS_ERROR;
    }
    py::list buffers;
    py::list tensors;
    for (size_t i = 0; i < num_outputs; ++i) {
      py::tuple r = results[i];
      const auto dtype = r[0].cast<int32_t>();
      const auto shape = r[1].cast<std::vector<int64_t>>();
      const tdc_host_api& host = *backend->host;
      if (host.alloc_tensor(host.context, dtype, TDC_DEVICE_CPU, 0,
                            static_cast<int32_t>(shape.size()), shape.data(),
                            &outputs[i]) != TDC_STATUS_OK) {
        Say(message, message_size, fmt::format("the host cannot allocate output {}", i));
        current = nullptr;
        return TDC_STATUS_ERROR;
      }
      size_t elements = 1;
      for (int64_t s : shape) elements *= static_cast<size_t>(s);
      py::memoryview buffer = py::memoryview::from_memory(
          outputs[i].data, static_cast<ssize_t>(elements * kElementSize[dtype]), false);
      configured->host.attr("to_host")(buffer, r[2]);
      buffers.append(buffer);
      tensors.append(r[2]);
    }
    configured->host.attr("hold")(compiled->compiled, buffers, tensors);
    current = nullptr;
    return TDC_STATUS_OK;
  } catch (py::error_already_set& error) {
    current = nullptr;
    auto [not_buildable, text] = Describe(error, message_size);
    Say(message, message_size, text);
    return not_buildable ? TDC_STATUS_REJECTED : TDC_STATUS_ERROR;
  } catch (std::exception& e) {
    current = nullptr;
    Say(message, message_size, e.what());
    return TDC_STATUS_ERROR;
  }
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
    &GetInfo,
    &GetCapabilities,
    &Create,
    &Destroy,
    &CanCompile,
    &Compile,
    &Run,
    &Release,
    &LiveHandles,
};

// The case's process was forked from the one that started the interpreter: CPython is told so
// once, before it runs anything there.
void EnterCaseProcess() {
  static bool after_fork = false;
  if (!after_fork && getpid() != configured->started_in) {
    PyOS_AfterFork_Child();
    after_fork = true;
  }
}

tdc_status Create(const tdc_host_api* host, tdc_backend** out, char* message, size_t message_size) {
  if (configured == nullptr) {
    Say(message, message_size, "the Python backend was not configured with a callable");
    return TDC_STATUS_ERROR;
  }
  EnterCaseProcess();
  *out = new tdc_backend{host};
  return TDC_STATUS_OK;
}

}  // namespace
}  // namespace tdc::conformance

extern "C" {

TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major, uint16_t) {
  return host_abi_major == TDC_ABI_VERSION_MAJOR ? &tdc::conformance::kApi : nullptr;
}

TDC_BACKEND_EXPORT int tdc_python_backend_configure(const char* module, const char* attr,
                                                    char* reason, size_t reason_size, char* message,
                                                    size_t message_size) {
  using namespace tdc::conformance;
  if (auto failed = StartInterpreter()) {
    Say(reason, reason_size, "python_init");
    Say(message, message_size, *failed);
    return 1;
  }
  auto* c = new Configured;
  try {
    c->host = py::module_::import("conformance.python.host");
  } catch (py::error_already_set& error) {
    Say(reason, reason_size, "python_init");
    Say(message, message_size,
        fmt::format("cannot import tdconform's conformance.python.host: {}", error.what()));
    delete c;
    return 1;
  }
  configured = c;
  try {
    c->backend = c->host.attr("load")(module, attr);
  } catch (py::error_already_set& error) {
    const bool missing_attr = error.matches(PyExc_AttributeError);
    Say(reason, reason_size, missing_attr ? "python_attr" : "python_import");
    const std::string text = Describe(error, message_size).second;
    Say(message, message_size, fmt::format("py:{}:{}: {}", module, attr, text));
    configured = nullptr;
    delete c;
    return 1;
  }
  c->name = NameOf(attr);
  c->module = module;
  c->levels = LevelsOf(c->backend);
  c->started_in = getpid();
  return 0;
}

TDC_BACKEND_EXPORT char* tdc_python_engine_run(const char* fixture, const char* profile,
                                               char* message, size_t message_size) {
  using namespace tdc::conformance;
  if (configured == nullptr) {
    Say(message, message_size, "the Python backend was not configured with a callable");
    return nullptr;
  }
  EnterCaseProcess();
  try {
    std::string result = py::module_::import("conformance.python.engine_torch")
                             .attr("run_case")(configured->backend, fixture, profile)
                             .cast<std::string>();
    return strdup(result.c_str());
  } catch (py::error_already_set& error) {
    Say(message, message_size, Describe(error, message_size).second);
    return nullptr;
  }
}

}  // extern "C"
