#include "conformance/executor/backend_calls.h"

#include <fmt/format.h>

#include "conformance/abi/tensors.h"
#include "conformance/executor/safe_text.h"

namespace tdc::conformance {

namespace {

constexpr size_t kMessageSize = 1024;
constexpr char kHexDigits[] = "0123456789abcdef";

std::string Hex(const std::vector<unsigned char>& bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += kHexDigits[b >> 4];
    out += kHexDigits[b & 15];
  }
  return out;
}

std::optional<std::vector<unsigned char>> FromHex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::vector<unsigned char> bytes(text.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int high = digit(text[2 * i]), low = digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return bytes;
}

// An output as JSON: {dtype, shape, hex} (the contiguous bytes), or {error}.
nlohmann::json OutputJson(const Output& output) {
  if (const auto* error = std::get_if<std::string>(&output)) return {{"error", *error}};
  const runtime::Tensor& t = std::get<runtime::Tensor>(output);
  return {{"dtype", static_cast<int>(t.dtype)},
          {"shape", t.sizes},
          {"hex", Hex(t.storage ? t.storage->bytes : std::vector<unsigned char>{})}};
}

// The output `j` describes, or nothing when it is malformed (sizes checked before anything is
// allocated).
std::optional<Output> OutputFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  if (j.contains("error")) {
    if (!j["error"].is_string()) return std::nullopt;
    return Output(SafeText(j["error"].get<std::string>()));
  }
  if (!j.contains("dtype") || !j["dtype"].is_number_integer() || !j.contains("shape") ||
      !j["shape"].is_array() || !j.contains("hex") || !j["hex"].is_string())
    return std::nullopt;
  const int64_t dtype = j["dtype"].get<int64_t>();
  if (dtype < 0 || dtype > TDC_DTYPE_BOOL ||
      !runtime::IsSupportedDType(static_cast<runtime::DType>(dtype)))
    return std::nullopt;
  std::vector<int64_t> shape;
  for (const auto& d : j["shape"]) {
    if (!d.is_number_integer()) return std::nullopt;
    shape.push_back(d.get<int64_t>());
  }
  if (shape.size() > 64 ||
      CheckShape(static_cast<int32_t>(dtype), static_cast<int32_t>(shape.size()), shape.data()))
    return std::nullopt;
  std::optional<std::vector<unsigned char>> bytes = FromHex(j["hex"].get<std::string>());
  runtime::Tensor t = runtime::EmptyTensor(static_cast<runtime::DType>(dtype), shape);
  const size_t size = t.storage ? t.storage->bytes.size() : 0;
  if (!bytes || bytes->size() != size) return std::nullopt;
  if (t.storage) t.storage->bytes = std::move(*bytes);
  return Output(std::move(t));
}

}  // namespace

// ---- live ------------------------------------------------------------------------------------

CallAnswer LiveCalls::Sent(tdc_status status, const char* message, size_t size) {
  return {status, BackendText(message, size)};
}

std::optional<CallAnswer> LiveCalls::Create(const tdc_host_api& host) {
  char message[kMessageSize] = "";
  tdc_status s = backend_.api().create(&host, &instance_, message, sizeof message);
  CallAnswer answer = Sent(s, message, sizeof message);
  if (s != TDC_STATUS_OK || instance_ == nullptr) {
    instance_ = nullptr;
    if (answer.status == TDC_STATUS_OK) answer.status = TDC_STATUS_ERROR;
  }
  send_({{"call", "create"}, {"status", answer.status}, {"message", answer.message}});
  return answer;
}

std::optional<CallAnswer> LiveCalls::CanCompile(const tdc_graph& graph) {
  char message[kMessageSize] = "";
  tdc_status s = backend_.api().can_compile(instance_, &graph, message, sizeof message);
  CallAnswer answer = Sent(s, message, sizeof message);
  send_({{"call", "can_compile"}, {"status", answer.status}, {"message", answer.message}});
  return answer;
}

std::optional<CallAnswer> LiveCalls::Compile(const tdc_graph& graph, size_t key) {
  char message[kMessageSize] = "";
  tdc_compiled* compiled = nullptr;
  tdc_status s =
      backend_.api().compile(instance_, &graph, TDC_DEVICE_CPU, &compiled, message, sizeof message);
  CallAnswer answer = Sent(s, message, sizeof message);
  if (s == TDC_STATUS_OK && compiled == nullptr) {
    answer = {TDC_STATUS_ERROR, "OK without a compiled handle"};
  } else if (s == TDC_STATUS_OK) {
    compiled_[key] = compiled;
  }
  send_({{"call", "compile"}, {"status", answer.status}, {"message", answer.message}});
  return answer;
}

std::optional<std::string> LiveCalls::CheckAndHold(size_t key,
                                                   const std::vector<tdc_tensor>& outputs,
                                                   const WireTensors& host_memory) {
  std::vector<HeldOutput>& held = held_[key];
  std::optional<std::string> changed;
  for (const HeldOutput& h : held) {
    if (h.tensor->storage->bytes != h.bytes) {
      changed = fmt::format(
          "output {} of run {} changed when the graph ran again (run {}): the "
          "backend handed out memory it writes later",
          h.output, h.run, runs_[key]);
      break;
    }
  }
  // Only memory the host owns is read again: a pointer of the backend's may be gone by then.
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (const runtime::Tensor* t = host_memory.FindAllocated(outputs[i].data)) {
      held.push_back({runs_[key], i, t, t->storage->bytes});
    }
  }
  return changed;
}

std::optional<RunAnswer> LiveCalls::Run(size_t key, const std::vector<runtime::Tensor>& inputs,
                                        size_t num_outputs, const WireTensors& host_memory) {
  RunAnswer answer;
  auto compiled = compiled_.find(key);
  if (compiled == compiled_.end()) {
    answer.call = {TDC_STATUS_ERROR, "no compiled handle"};
  } else {
    std::vector<tdc_tensor> views;
    WireTensors wire;
    for (const runtime::Tensor& t : inputs) views.push_back(wire.Add(t));
    // The inputs are the program's own tensors, read-only to the backend (tdconform_backend.h):
    // their bytes before the run, to catch a backend that writes into them.
    std::vector<std::vector<unsigned char>> before;
    for (const runtime::Tensor& t : inputs)
      before.push_back(t.storage ? t.storage->bytes : std::vector<unsigned char>{});
    std::vector<tdc_tensor> outputs(num_outputs, tdc_tensor{});
    char message[kMessageSize] = "";
    tdc_status s = backend_.api().run(instance_, compiled->second, views.data(), views.size(),
                                      outputs.data(), outputs.size(), message, sizeof message);
    answer.call = Sent(s, message, sizeof message);
    for (size_t i = 0; i < inputs.size() && !answer.input_written; ++i) {
      if (inputs[i].storage && inputs[i].storage->bytes != before[i]) answer.input_written = i;
    }
    if (s == TDC_STATUS_OK) {
      for (const tdc_tensor& output : outputs) {
        // A tensor with no elements needs no data; any other without it was never written.
        bool empty = false;
        for (int32_t d = 0; d < output.ndim && output.shape != nullptr; ++d)
          empty = empty || output.shape[d] == 0;
        if (output.data == nullptr && !empty) {
          answer.outputs.emplace_back("not written");
          continue;
        }
        answer.outputs.push_back(CopyFromWire(output));
      }
      ++runs_[key];
      answer.aliased = CheckAndHold(key, outputs, host_memory);
    }
  }
  nlohmann::json outputs = nlohmann::json::array();
  for (const Output& output : answer.outputs) outputs.push_back(OutputJson(output));
  send_({{"call", "run"},
         {"status", answer.call.status},
         {"message", answer.call.message},
         {"input_written",
          answer.input_written ? nlohmann::json(*answer.input_written) : nlohmann::json()},
         {"outputs", std::move(outputs)},
         {"aliased", answer.aliased ? nlohmann::json(*answer.aliased) : nlohmann::json()}});
  return answer;
}

std::optional<size_t> LiveCalls::Finish() {
  for (const auto& [key, c] : compiled_) backend_.api().release(instance_, c);
  compiled_.clear();
  const size_t live = backend_.api().live_handles(instance_);
  backend_.api().destroy(instance_);
  instance_ = nullptr;
  send_({{"call", "finish"}, {"live", live}});
  return live;
}

// ---- replayed --------------------------------------------------------------------------------

std::optional<nlohmann::json> ReplayedCalls::Next(const char* call) {
  if (exhausted_ || sent_.empty() || !sent_.front().is_object() ||
      sent_.front().value("call", "") != call) {
    exhausted_ = true;
    return std::nullopt;
  }
  nlohmann::json next = std::move(sent_.front());
  sent_.pop_front();
  return next;
}

std::optional<CallAnswer> ReplayedCalls::NextCall(const char* call) {
  std::optional<nlohmann::json> j = Next(call);
  if (!j) return std::nullopt;
  if (!(*j)["status"].is_number_integer() || !(*j)["message"].is_string()) {
    exhausted_ = true;
    return std::nullopt;
  }
  return CallAnswer{static_cast<tdc_status>((*j)["status"].get<int32_t>()),
                    SafeText((*j)["message"].get<std::string>())};
}

std::optional<CallAnswer> ReplayedCalls::Create(const tdc_host_api&) { return NextCall("create"); }
std::optional<CallAnswer> ReplayedCalls::CanCompile(const tdc_graph&) {
  return NextCall("can_compile");
}
std::optional<CallAnswer> ReplayedCalls::Compile(const tdc_graph&, size_t) {
  return NextCall("compile");
}

std::optional<RunAnswer> ReplayedCalls::Run(size_t, const std::vector<runtime::Tensor>&,
                                            size_t num_outputs, const WireTensors&) {
  std::optional<nlohmann::json> j = Next("run");
  if (!j) return std::nullopt;
  RunAnswer answer;
  const nlohmann::json& written = (*j)["input_written"];
  const nlohmann::json& outputs = (*j)["outputs"];
  const nlohmann::json& aliased = (*j)["aliased"];
  bool ok = (*j)["status"].is_number_integer() && (*j)["message"].is_string() &&
            (written.is_null() || written.is_number_unsigned()) && outputs.is_array() &&
            (aliased.is_null() || aliased.is_string());
  if (ok) {
    answer.call = {static_cast<tdc_status>((*j)["status"].get<int32_t>()),
                   SafeText((*j)["message"].get<std::string>())};
    if (written.is_number_unsigned()) answer.input_written = written.get<size_t>();
    if (aliased.is_string()) answer.aliased = SafeText(aliased.get<std::string>());
    // An OK run has every output; any other has none.
    ok = outputs.size() == (answer.call.status == TDC_STATUS_OK ? num_outputs : 0);
    for (size_t i = 0; ok && i < outputs.size(); ++i) {
      std::optional<Output> output = OutputFromJson(outputs[i]);
      ok = output.has_value();
      if (ok) answer.outputs.push_back(std::move(*output));
    }
  }
  if (!ok) {
    exhausted_ = true;
    return std::nullopt;
  }
  return answer;
}

std::optional<size_t> ReplayedCalls::Finish() {
  std::optional<nlohmann::json> j = Next("finish");
  if (!j) return std::nullopt;
  if (!(*j)["live"].is_number_unsigned()) {
    exhausted_ = true;
    return std::nullopt;
  }
  return (*j)["live"].get<size_t>();
}

}  // namespace tdc::conformance
