// libFuzzer entry point: a tdc_graph built from the input decodes (DecodeGraph) to a graph or
// an error, and its tensor constants (DecodeConstants) to copies or an error, never a crash
// or a read past what the graph points to. The input picks every field: node ops, argument
// kinds and their nesting, REFs to any index, dtypes, layouts and memory formats in and out
// of range, any ndim and shape, counts with NULL arrays, NULL strings, strings of any bytes
// (cut at their first NUL: a C string), constants of any dtype, device, shape and strides.
// Only what the header makes the host's duty holds: a non-NULL array has the entries its
// count says, a string is NUL-terminated, and a tensor's data covers every element its
// shape and strides reach, for any shape a reader may accept (one of more than 4,096
// elements is clamped to sizes below 5).
// A graph that decodes encodes (WireGraph) and decodes again to the same graph, with the
// same constants, byte for byte.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <variant>
#include <vector>

#include "conformance/abi/wire.h"

namespace {

using tdc::conformance::NamedTensors;
namespace graph = tdc::graph;
namespace runtime = tdc::runtime;

// The largest tensor a constant may describe that a reader could accept and read: larger
// ones are clamped (their data would have to cover them).
constexpr int64_t kMaxElements = 4096;
constexpr size_t kMaxDepth = 80;  // argument nesting: past the decoder's limit (64)

// A tdc_graph and everything it points to, built from the input.
class Builder {
 public:
  explicit Builder(FuzzedDataProvider& in) : in_(in), budget_(2 * in.remaining_bytes() + 16) {}

  tdc_graph Graph() {
    tdc_graph g{};
    g.struct_size = sizeof(tdc_graph);
    g.level = Small(-1, 2);
    g.name = Text();
    g.num_nodes = Count(64);
    nodes_.resize(g.num_nodes);
    for (tdc_node& n : nodes_) n = Node(g.num_nodes);
    g.nodes = Null() ? nullptr : nodes_.data();
    g.num_constants = Count(4);
    names_.resize(g.num_constants);
    tensors_.resize(g.num_constants);
    for (size_t i = 0; i < g.num_constants; ++i) {
      names_[i] = Text();
      tensors_[i] = Tensor();
    }
    g.constant_names = Null() ? nullptr : names_.data();
    g.constants = Null() ? nullptr : tensors_.data();
    return g;
  }

 private:
  // A value in [lo, hi], or any int32 now and then.
  int32_t Small(int32_t lo, int32_t hi) {
    return in_.ConsumeIntegralInRange<uint8_t>(0, 15) == 0 ? in_.ConsumeIntegral<int32_t>()
                                                           : in_.ConsumeIntegralInRange(lo, hi);
  }
  bool Null() { return in_.ConsumeIntegralInRange<uint8_t>(0, 15) == 0; }
  // A count the remaining input pays for: every entry costs at least a byte of it.
  size_t Count(size_t most) {
    return in_.ConsumeIntegralInRange<size_t>(0, std::min(most, in_.remaining_bytes()));
  }
  const char* Text() {
    if (Null()) return nullptr;
    return strings_.emplace_back(in_.ConsumeRandomLengthString(64)).c_str();
  }

  tdc_arg Arg(size_t num_nodes, size_t depth) {
    tdc_arg a{};
    if (budget_ == 0) return a;
    --budget_;
    a.kind = Small(0, TDC_ARG_MEMORY_FORMAT);
    switch (in_.ConsumeIntegralInRange<uint8_t>(0, 3)) {
      case 0:
        a.integer = in_.ConsumeIntegral<int64_t>();
        break;
      default:  // a node index near the graph, a small enum value
        a.integer = in_.ConsumeIntegralInRange<int64_t>(-2, static_cast<int64_t>(num_nodes) + 2);
        break;
    }
    const uint64_t bits = in_.ConsumeIntegral<uint64_t>();  // NaNs and infinities too
    std::memcpy(&a.number, &bits, sizeof a.number);
    a.text = Text();
    a.num_items = depth < kMaxDepth ? Count(8) : 0;
    if (a.num_items > 0) {
      std::vector<tdc_arg> items(a.num_items);
      for (tdc_arg& item : items) item = Arg(num_nodes, depth + 1);
      a.items = Null() ? nullptr : args_.emplace_back(std::move(items)).data();
    }
    return a;
  }

  tdc_node Node(size_t num_nodes) {
    tdc_node n{};
    n.op = Small(0, TDC_NODE_OUTPUT);
    n.target = Text();
    n.num_args = Count(8);
    std::vector<tdc_arg>& args = args_.emplace_back(n.num_args);
    for (tdc_arg& a : args) a = Arg(num_nodes, 0);
    n.args = n.num_args > 0 && Null() ? nullptr : args.data();
    n.num_kwargs = Count(4);
    std::vector<tdc_kwarg>& kwargs = kwargs_.emplace_back(n.num_kwargs);
    for (tdc_kwarg& k : kwargs) k = {Text(), Arg(num_nodes, 0)};
    n.kwargs = n.num_kwargs > 0 && Null() ? nullptr : kwargs.data();
    n.type = Text();
    n.dtype = Small(0, TDC_DTYPE_BOOL);
    n.ndim = in_.ConsumeIntegralInRange<int32_t>(-2, 8);
    if (n.ndim > 0 && Null()) {
      n.shape = nullptr;
      if (in_.ConsumeBool()) n.ndim = in_.ConsumeIntegralInRange<int32_t>(1, INT32_MAX);
    } else {
      std::vector<int64_t>& shape = dims_.emplace_back(std::max(n.ndim, 0));
      for (int64_t& d : shape) d = in_.ConsumeIntegral<int64_t>();
      n.shape = shape.data();
    }
    n.requires_grad = in_.ConsumeIntegral<int32_t>();
    n.source = Text();
    return n;
  }

  tdc_tensor Tensor() {
    tdc_tensor t{};
    t.dtype = Small(0, TDC_DTYPE_BOOL);
    t.device = Small(0, 1);
    t.device_index = Small(0, 1);
    t.ndim = Small(0, 6);
    if (t.ndim < 0 || t.ndim > 8) return t;  // an absurd rank, with NULL arrays
    std::vector<int64_t>& shape = dims_.emplace_back(t.ndim);
    std::vector<int64_t>& strides = dims_.emplace_back(t.ndim);
    for (int64_t& d : shape)
      d = in_.ConsumeBool() ? in_.ConsumeIntegral<int64_t>() : in_.ConsumeIntegralInRange(0, 4);
    // A shape no reader may accept (a negative size, more than 2^32 elements) is never read;
    // any other is clamped to what a buffer here covers.
    bool negative = false, overflow = false;
    int64_t elements = 1;
    for (int64_t d : shape) {
      negative = negative || d < 0;
      overflow = overflow || (d >= 0 && __builtin_mul_overflow(elements, d, &elements));
    }
    const bool readable = !negative && !overflow && elements <= (int64_t{1} << 32);
    if (readable && elements > kMaxElements) {
      elements = 1;
      for (int64_t& d : shape) elements *= (d %= 5);
    }
    int64_t low = 0, high = 0;  // the element offsets the strides reach
    for (size_t k = 0; k < shape.size(); ++k) {
      strides[k] = readable ? in_.ConsumeIntegralInRange(-8, 8) : in_.ConsumeIntegral<int64_t>();
      if (readable && elements > 0) {
        (strides[k] < 0 ? low : high) += strides[k] * (shape[k] - 1);
      }
    }
    t.shape = Null() ? nullptr : shape.data();
    t.strides = Null() ? nullptr : strides.data();
    // 16 bytes an element: enough for any dtype's.
    std::vector<unsigned char>& data = data_.emplace_back(static_cast<size_t>(high - low + 1) * 16);
    const std::vector<unsigned char> bytes = in_.ConsumeBytes<unsigned char>(data.size());
    std::copy(bytes.begin(), bytes.end(), data.begin());
    t.data = Null() ? nullptr : data.data() + (-low) * 16;
    return t;
  }

  FuzzedDataProvider& in_;
  size_t budget_;  // arguments left to make
  std::deque<std::string> strings_;
  std::deque<std::vector<tdc_arg>> args_;
  std::deque<std::vector<tdc_kwarg>> kwargs_;
  std::deque<std::vector<int64_t>> dims_;
  std::deque<std::vector<unsigned char>> data_;
  std::vector<tdc_node> nodes_;
  std::vector<const char*> names_;
  std::vector<tdc_tensor> tensors_;
};

bool SameArg(const graph::Arg& a, const graph::Arg& b) {
  if (a.kind != b.kind || a.integer != b.integer || a.boolean != b.boolean || a.text != b.text ||
      a.dtype != b.dtype || a.layout != b.layout || a.memory_format != b.memory_format ||
      std::memcmp(&a.number, &b.number, sizeof a.number) != 0 || a.tensor || b.tensor ||
      a.items.size() != b.items.size() || a.entries.size() != b.entries.size())
    return false;
  for (size_t i = 0; i < a.items.size(); ++i) {
    if (!SameArg(a.items[i], b.items[i])) return false;
  }
  for (size_t i = 0; i < a.entries.size(); ++i) {
    if (!SameArg(a.entries[i].key, b.entries[i].key) ||
        !SameArg(a.entries[i].value, b.entries[i].value))
      return false;
  }
  return true;
}

bool SameNode(const graph::Node& a, const graph::Node& b) {
  if (a.op != b.op || a.type != b.type || a.shape != b.shape || a.dtype != b.dtype ||
      a.requires_grad != b.requires_grad || a.source != b.source || a.target != b.target ||
      a.args.size() != b.args.size() || a.kwargs.size() != b.kwargs.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameArg(a.args[i], b.args[i])) return false;
  }
  for (size_t i = 0; i < a.kwargs.size(); ++i) {
    if (a.kwargs[i].first != b.kwargs[i].first || !SameArg(a.kwargs[i].second, b.kwargs[i].second))
      return false;
  }
  return true;
}

// The bytes of a contiguous tensor's elements.
std::vector<unsigned char> Bytes(const runtime::Tensor& t) {
  if (!t.storage) return {};
  const size_t size = static_cast<size_t>(t.numel() * runtime::ElementSize(t.dtype));
  const unsigned char* begin =
      t.storage->bytes.data() + t.storage_offset * runtime::ElementSize(t.dtype);
  return {begin, begin + size};
}

bool SameConstants(const NamedTensors& a, const NamedTensors& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || a[i].second.dtype != b[i].second.dtype ||
        a[i].second.sizes != b[i].second.sizes || Bytes(a[i].second) != Bytes(b[i].second))
      return false;
  }
  return true;
}

template <typename T>
void CheckAnswered(const std::variant<T, std::string>& result) {
  if (const auto* error = std::get_if<std::string>(&result); error && error->empty())
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Builder builder(in);
  const tdc_graph wire = builder.Graph();
  const auto decoded = tdc::conformance::DecodeGraph(wire);
  const auto constants = tdc::conformance::DecodeConstants(wire);
  CheckAnswered(decoded);
  CheckAnswered(constants);
  const auto* g = std::get_if<graph::Graph>(&decoded);
  const auto* named = std::get_if<NamedTensors>(&constants);
  if (g == nullptr || named == nullptr) return 0;
  if (g->nodes.size() != wire.num_nodes || named->size() != wire.num_constants) __builtin_trap();
  const tdc_graph_level level =
      wire.level == TDC_GRAPH_LEVEL_ATEN ? TDC_GRAPH_LEVEL_ATEN : TDC_GRAPH_LEVEL_DYNAMO;
  const tdc::conformance::WireGraph encoded(*g, level, "fuzz", *named);
  const auto again = tdc::conformance::DecodeGraph(encoded.get());
  const auto constants_again = tdc::conformance::DecodeConstants(encoded.get());
  const auto* g2 = std::get_if<graph::Graph>(&again);
  const auto* named2 = std::get_if<NamedTensors>(&constants_again);
  if (g2 == nullptr || named2 == nullptr || g2->nodes.size() != g->nodes.size() ||
      !SameConstants(*named, *named2))
    __builtin_trap();
  for (size_t i = 0; i < g->nodes.size(); ++i) {
    if (!SameNode(g->nodes[i], g2->nodes[i])) __builtin_trap();
  }
  return 0;
}
