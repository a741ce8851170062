#include "gpu/backend/run_plan.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "gpu/backend/promotion.h"
#include "gpu/backend/shapes.h"
#include "gpu/backend/views.h"

namespace tdc::gpu {

namespace {

// A node's value: a contiguous tensor in device memory (owned), and for an opaque
// node the host tensors of its results.
struct Value {
  std::vector<int64_t> shape;
  int64_t numel = 0;
  DType dtype = DType::kFloat32;
  void* data = nullptr;
  std::vector<tdc_tensor> results;
};

// One run of a plan.
class Run {
 public:
  Run(const Plan& plan, Device& device, const tdc_host_api& host)
      : plan_(plan), device_(device), host_(host), values_(plan.steps.size()) {}
  ~Run() {
    for (Value& v : values_) device_.Free(v.data);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  tdc_status Go(const tdc_tensor* inputs, size_t num_inputs, tdc_tensor* outputs,
                size_t num_outputs, std::string& why) {
    size_t next_input = 0;
    for (size_t i = 0; i < plan_.steps.size(); ++i) {
      const Step& s = plan_.steps[i];
      std::string error;
      switch (s.kind) {
        case StepKind::kInput:
          if (next_input >= num_inputs)
            error = "fewer inputs than placeholders";
          else
            error = Upload(inputs[next_input++], values_[i]);
          break;
        case StepKind::kConstant:
          error = NewBuffer(values_[i], s.shape, s.dtype);
          if (error.empty())
            error = device_.CopyToDevice(values_[i].data, s.bytes.data(), Bytes(values_[i]));
          break;
        case StepKind::kElement:
          error = Element(s, values_[i]);
          break;
        case StepKind::kReduce:
          error = Reduce(s, values_[i]);
          break;
        case StepKind::kView:
          error = View(s, values_[i]);
          break;
        case StepKind::kMatmul:
          error = Matmul(s, values_[i]);
          break;
        case StepKind::kOpaque:
          if (tdc_status status = Opaque(i, why); status != TDC_STATUS_OK) return status;
          break;
        case StepKind::kGetItem:
          error = GetItem(s, values_[i]);
          break;
        case StepKind::kOutput:
          break;
      }
      if (!error.empty()) {
        why = "node " + std::to_string(i) + ": " + error;
        return TDC_STATUS_ERROR;
      }
    }
    if (num_outputs != plan_.outputs.size()) {
      why = "the host asks for " + std::to_string(num_outputs) + " outputs, the graph has " +
            std::to_string(plan_.outputs.size());
      return TDC_STATUS_ERROR;
    }
    for (size_t k = 0; k < num_outputs; ++k) {
      const Value& v = values_[plan_.outputs[k]];
      const tdc_host_api& host = host_;
      if (v.data == nullptr) {
        why = "output " + std::to_string(k) + " is no tensor";
        return TDC_STATUS_ERROR;
      }
      if (host.alloc_tensor(host.context, static_cast<int32_t>(v.dtype), TDC_DEVICE_CPU, 0,
                            static_cast<int32_t>(v.shape.size()), v.shape.data(),
                            &outputs[k]) != TDC_STATUS_OK) {
        why = "alloc_tensor failed for output " + std::to_string(k);
        return TDC_STATUS_ERROR;
      }
      if (std::string e = device_.CopyToHost(outputs[k].data, v.data, Bytes(v)); !e.empty()) {
        why = "output " + std::to_string(k) + ": " + e;
        return TDC_STATUS_ERROR;
      }
    }
    return TDC_STATUS_OK;
  }

 private:
  static int64_t Bytes(const Value& v) { return v.numel * ElementSize(v.dtype); }

  std::string NewBuffer(Value& v, std::vector<int64_t> shape, DType dtype) {
    v.shape = std::move(shape);
    v.numel = Numel(v.shape);
    v.dtype = dtype;
    auto buffer = device_.Allocate(Bytes(v));
    if (auto* e = std::get_if<std::string>(&buffer)) return *e;
    v.data = std::get<void*>(buffer);
    return {};
  }

  // A host tensor (any strides) into a new contiguous device buffer.
  std::string Upload(const tdc_tensor& t, Value& v) {
    if (!IsComputed(t.dtype) || t.ndim < 0 || t.ndim > kMaxRank || t.device != TDC_DEVICE_CPU)
      return "a tensor that is not a float32, float64, int64 or bool host tensor of rank 8 or "
             "less";
    std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
    if (std::string e = NewBuffer(v, shape, static_cast<DType>(t.dtype)); !e.empty()) return e;
    const int64_t size = ElementSize(v.dtype);
    std::vector<unsigned char> contiguous(static_cast<size_t>(Bytes(v)));
    std::vector<int64_t> index(shape.size(), 0);
    for (int64_t k = 0; k < v.numel; ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d) offset += index[d] * t.strides[d];
      std::memcpy(&contiguous[k * size], static_cast<const unsigned char*>(t.data) + offset * size,
                  size);
      for (size_t d = shape.size(); d-- > 0;) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    }
    return device_.CopyToDevice(v.data, contiguous.data(), Bytes(v));
  }

  std::string Element(const Step& s, Value& out) {
    const int arity = Arity(s.op);
    const Operand* operands[] = {&s.a, &s.b, &s.c};
    const Value* values[3] = {};
    std::vector<PromotionOperand> promoted;
    size_t rank = 0;
    for (int k = 0; k < arity; ++k) {
      const Operand& o = *operands[k];
      if (o.node < 0) {
        promoted.push_back({PromotionOperand::Tier::kNumber, o.number_dtype,
                            o.number_dtype == DType::kInt64 && o.integer < 0});
        continue;
      }
      values[k] = &values_[o.node];
      if (values[k]->data == nullptr) return "an operand that is no tensor";
      promoted.push_back({values[k]->shape.empty() ? PromotionOperand::Tier::kZeroDim
                                                   : PromotionOperand::Tier::kTensor,
                          values[k]->dtype});
      rank = std::max(rank, values[k]->shape.size());
    }
    auto types = TypesOf(s.op, promoted);
    if (auto* refused = std::get_if<std::string>(&types)) return "torch refuses " + *refused;
    // torch's broadcast: shapes aligned at the last dim, a size-1 dim stretching (to a size-0
    // one too: [0] and [1] broadcast to [0]).
    std::vector<int64_t> shape(rank, 1);
    for (const Value* v : values) {
      if (v == nullptr) continue;
      for (size_t d = 0; d < v->shape.size(); ++d) {
        int64_t& into = shape[rank - v->shape.size() + d];
        if (v->shape[d] != into && into != 1 && v->shape[d] != 1)
          return "operands that do not broadcast";
        if (v->shape[d] != 1) into = v->shape[d];
      }
    }
    if (std::string e = NewBuffer(out, shape, std::get<ElementTypes>(types).out); !e.empty())
      return e;
    ElementLaunch launch;
    launch.op = s.op;
    launch.compute = std::get<ElementTypes>(types).compute;
    launch.out_dtype = out.dtype;
    launch.rank = static_cast<int>(rank);
    std::copy(shape.begin(), shape.end(), launch.shape);
    launch.numel = out.numel;
    launch.out = out.data;
    for (int k = 0; k < arity; ++k) {
      ElementOperand& into = launch.operands[k];
      const Value* v = values[k];
      if (v == nullptr) {
        into.is_integer = operands[k]->number_dtype != DType::kFloat64;
        into.integer = operands[k]->integer;
        into.real = operands[k]->real;
        continue;
      }
      into.data = v->data;
      into.dtype = v->dtype;
      const std::vector<int64_t> strides = ContiguousStrides(v->shape);
      for (size_t d = 0; d < v->shape.size(); ++d)
        into.strides[rank - v->shape.size() + d] = v->shape[d] == 1 ? 0 : strides[d];
    }
    return device_.Run(launch);
  }

  std::string Reduce(const Step& s, Value& out) {
    const Value& in = values_[s.a.node];
    if (in.data == nullptr) return "an operand that is no tensor";
    const int rank = static_cast<int>(in.shape.size());
    ReduceLaunch launch;
    launch.op = s.reduce;
    launch.rank = rank;
    std::copy(in.shape.begin(), in.shape.end(), launch.shape);
    if (!s.dims || s.dims->empty()) {
      std::fill(launch.reduced, launch.reduced + rank, true);
    } else {
      for (int64_t dim : *s.dims) {
        const int64_t d = Wrap(dim, rank);
        if (d < 0) return "dim " + std::to_string(dim) + " out of range";
        if (rank == 0) continue;  // a 0-d tensor's dim 0 or -1 is its only one
        if (launch.reduced[d]) return "dim " + std::to_string(dim) + " given twice";
        launch.reduced[d] = true;
      }
    }
    std::vector<int64_t> shape;
    launch.count = 1;
    for (int d = 0; d < rank; ++d) {
      if (launch.reduced[d]) {
        launch.count *= in.shape[d];
        if (s.keepdim) shape.push_back(1);
      } else {
        shape.push_back(in.shape[d]);
      }
    }
    if ((s.reduce == ReduceOp::kAmax || s.reduce == ReduceOp::kMax) && launch.count == 0)
      return "torch refuses the max over an empty dim";
    if (s.reduce == ReduceOp::kMean && !IsFloating(in.dtype))
      return "torch refuses the mean of an integral tensor";
    // torch sums bool and int64 into int64.
    const DType dtype =
        s.reduce == ReduceOp::kSum && !IsFloating(in.dtype) ? DType::kInt64 : in.dtype;
    if (std::string e = NewBuffer(out, shape, dtype); !e.empty()) return e;
    launch.in_dtype = in.dtype;
    launch.out_dtype = dtype;
    launch.in = in.data;
    launch.out = out.data;
    launch.out_numel = out.numel;
    return device_.Run(launch);
  }

  // A view or a copy: the output's shape, and the strides it reads the (contiguous) input
  // through, from the arguments; then the input copied through them.
  std::string View(const Step& s, Value& out) {
    const Value& in = values_[s.a.node];
    if (in.data == nullptr) return "an operand that is no tensor";
    const std::vector<int64_t> in_strides = ContiguousStrides(in.shape);
    std::vector<int64_t> shape, strides;
    if (std::string e = ViewOf(s, in.shape, in_strides, shape, strides); !e.empty()) return e;
    if (shape.size() > static_cast<size_t>(kMaxRank)) return "a result of rank above 8";
    if (std::string e = NewBuffer(out, shape, in.dtype); !e.empty()) return e;
    ElementLaunch launch;
    launch.op = ElementOp::kCopy;
    launch.compute = launch.out_dtype = in.dtype;
    launch.rank = static_cast<int>(shape.size());
    std::copy(shape.begin(), shape.end(), launch.shape);
    std::copy(strides.begin(), strides.end(), launch.operands[0].strides);
    launch.operands[0].data = in.data;
    launch.operands[0].dtype = in.dtype;
    launch.numel = out.numel;
    launch.out = out.data;
    return device_.Run(launch);
  }

  // torch.matmul: a 1-d operand is a row (a) or a column (b) whose dim the result drops; the
  // dims before the last two are batch dims, broadcast.
  std::string Matmul(const Step& s, Value& out) {
    const Value& a = values_[s.a.node];
    const Value& b = values_[s.b.node];
    if (a.data == nullptr || b.data == nullptr) return "an operand that is no tensor";
    const size_t ra = a.shape.size(), rb = b.shape.size();
    if (ra == 0 || rb == 0) return "torch refuses a 0-d operand";
    if (a.dtype != b.dtype || a.dtype == DType::kBool)
      return "torch refuses operands of two dtypes, or bool ones";
    const std::vector<int64_t> as = ContiguousStrides(a.shape), bs = ContiguousStrides(b.shape);
    MatmulLaunch launch;
    launch.n = ra >= 2 ? a.shape[ra - 2] : 1;
    launch.k = a.shape[ra - 1];
    launch.a_row = ra >= 2 ? as[ra - 2] : 0;
    launch.a_col = as[ra - 1];
    const int64_t k = rb >= 2 ? b.shape[rb - 2] : b.shape[0];
    launch.m = rb >= 2 ? b.shape[rb - 1] : 1;
    launch.b_row = rb >= 2 ? bs[rb - 2] : bs[0];
    launch.b_col = rb >= 2 ? bs[rb - 1] : 0;
    if (k != launch.k) return "operands whose inner dims differ";
    const size_t a_batch = ra > 2 ? ra - 2 : 0, b_batch = rb > 2 ? rb - 2 : 0;
    const size_t batch = std::max(a_batch, b_batch);
    if (batch + 2 > static_cast<size_t>(kMaxRank)) return "a result of rank above 8";
    std::vector<int64_t> shape;
    for (size_t d = 0; d < batch; ++d) {
      const int64_t sa = d + a_batch >= batch ? a.shape[d + a_batch - batch] : 1;
      const int64_t sb = d + b_batch >= batch ? b.shape[d + b_batch - batch] : 1;
      if (sa != sb && sa != 1 && sb != 1) return "batch dims that do not broadcast";
      const int64_t size = sa == 1 ? sb : sa;
      shape.push_back(size);
      launch.batch[d] = size;
      launch.a_batch_strides[d] = sa == size && sa != 1 ? as[d + a_batch - batch] : 0;
      launch.b_batch_strides[d] = sb == size && sb != 1 ? bs[d + b_batch - batch] : 0;
    }
    launch.batch_rank = static_cast<int>(batch);
    if (ra >= 2) shape.push_back(launch.n);
    if (rb >= 2) shape.push_back(launch.m);
    if (std::string e = NewBuffer(out, shape, a.dtype); !e.empty()) return e;
    launch.dtype = a.dtype;
    launch.a = a.data;
    launch.b = b.data;
    launch.out = out.data;
    launch.out_numel = out.numel;
    return device_.Run(launch);
  }

  // An opaque node: its tensor operands copied to the host, run there, its first result
  // copied to the device as its value.
  tdc_status Opaque(size_t i, std::string& why) {
    const Step& s = plan_.steps[i];
    std::vector<std::vector<unsigned char>> buffers;
    std::vector<std::vector<int64_t>> strides;
    std::vector<tdc_tensor> inputs;
    buffers.reserve(s.refs.size());
    strides.reserve(s.refs.size());
    for (int ref : s.refs) {
      const Value& v = values_[ref];
      if (v.data == nullptr) {
        why = "node " + std::to_string(i) + ": an opaque node's operand that is no tensor";
        return TDC_STATUS_NOT_SUPPORTED;
      }
      buffers.emplace_back(static_cast<size_t>(std::max<int64_t>(Bytes(v), 1)));
      strides.push_back(ContiguousStrides(v.shape));
      if (std::string e = device_.CopyToHost(buffers.back().data(), v.data, Bytes(v)); !e.empty()) {
        why = e;
        return TDC_STATUS_ERROR;
      }
      inputs.push_back({static_cast<int32_t>(v.dtype), TDC_DEVICE_CPU, 0,
                        static_cast<int32_t>(v.shape.size()), v.shape.data(), strides.back().data(),
                        buffers.back().data()});
    }
    constexpr size_t kMaxResults = 8;
    Value& value = values_[i];
    value.results.resize(kMaxResults);
    size_t count = 0;
    char message[512] = "";
    const tdc_host_api& host = host_;
    const tdc_status status =
        host.run_node(host.context, i, inputs.data(), inputs.size(), value.results.data(),
                      kMaxResults, &count, message, sizeof message);
    value.results.resize(status == TDC_STATUS_OK ? std::min(count, kMaxResults) : 0);
    if (status != TDC_STATUS_OK) {
      why = message;
      return status;
    }
    if (value.results.size() == 1) {
      if (std::string e = Upload(value.results[0], value); !e.empty()) {
        why = "node " + std::to_string(i) + ": its result: " + e;
        return TDC_STATUS_NOT_SUPPORTED;
      }
    }
    return TDC_STATUS_OK;
  }

  std::string GetItem(const Step& s, Value& out) {
    const Value& of = values_[s.a.node];
    if (s.item < 0 || static_cast<size_t>(s.item) >= of.results.size())
      return "operator.getitem past an opaque node's results";
    return Upload(of.results[s.item], out);
  }

  const Plan& plan_;
  Device& device_;
  const tdc_host_api& host_;
  std::vector<Value> values_;
};

}  // namespace

tdc_status RunPlan(const Plan& plan, Device& device, const tdc_host_api& host,
                   const tdc_tensor* inputs, size_t num_inputs, tdc_tensor* outputs,
                   size_t num_outputs, std::string& why) {
  return Run(plan, device, host).Go(inputs, num_inputs, outputs, num_outputs, why);
}

}  // namespace tdc::gpu
