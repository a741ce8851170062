#include "reference/runtime/reductions.h"

#include <cmath>
#include <string>

#include "reference/runtime/dispatch.h"

namespace tdc::runtime {
namespace {

const char* OpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kMean:
      return "mean";
    case ReduceOp::kAmax:
      return "amax";
  }
  return "";
}

// sum promotes integral and bool inputs to int64; mean needs a floating input.
DType OutputDType(ReduceOp op, DType in) {
  switch (op) {
    case ReduceOp::kSum:
      return IsFloating(in) ? in : DType::kInt64;
    case ReduceOp::kMean:
      if (!IsFloating(in)) {
        throw TorchError("RuntimeError",
                         "mean(): could not infer output dtype. Input dtype must be either a "
                         "floating point or complex dtype. Got: " +
                             TorchTypeName(in));
      }
      return in;
    case ReduceOp::kAmax:
      return in;
  }
  return in;
}

}  // namespace

Tensor Reduce(ReduceOp op, const Tensor& t, const Shape& dims, bool keepdim) {
  DType out_dtype = OutputDType(op, t.dtype);
  int64_t rank = t.dim();
  std::vector<bool> reduced(rank, dims.empty());
  for (int64_t d : dims) {
    int64_t w = WrapDim(d, rank);
    if (rank == 0) continue;
    if (reduced[w]) {
      throw TorchError("RuntimeError",
                       "dim " + std::to_string(w) + " appears multiple times in the list of dims");
    }
    reduced[w] = true;
  }
  if (op == ReduceOp::kAmax && dims.empty() && t.numel() == 0) {
    throw TorchError("RuntimeError",
                     "amax(): Expected reduction dim to be specified for input.numel() == 0. "
                     "Specify the reduction dim with the 'dim' argument.");
  }
  Shape out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      out_shape.push_back(t.sizes[d]);
    else if (keepdim)
      out_shape.push_back(1);
  }
  // Accumulate per output element: double for floats (closer to torch's cascade sum than
  // a float running sum), int64 for integers; amax keeps the maximum, NaN wins.
  int64_t out_numel = 1;
  for (int64_t s : out_shape) out_numel *= s;
  std::vector<double> facc(out_numel, op == ReduceOp::kAmax ? -INFINITY : 0.0);
  std::vector<int64_t> iacc(out_numel, op == ReduceOp::kAmax ? INT64_MIN : 0);
  std::vector<int64_t> count(out_numel, 0);
  Shape index(rank, 0);
  std::vector<int64_t> offsets = t.ElementOffsets();
  for (int64_t off : offsets) {
    int64_t o = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d]) o = o * t.sizes[d] + index[d];
    }
    Scalar v = t.Load(off);
    if (IsFloating(out_dtype)) {
      double x = v.AsDouble();
      if (op == ReduceOp::kAmax)
        facc[o] = (std::isnan(x) || x > facc[o]) ? (std::isnan(facc[o]) ? facc[o] : x) : facc[o];
      else
        facc[o] += x;
    } else {
      int64_t x = v.AsInt();
      if (op == ReduceOp::kAmax)
        iacc[o] = std::max(iacc[o], x);
      else
        iacc[o] = static_cast<int64_t>(static_cast<uint64_t>(iacc[o]) + static_cast<uint64_t>(x));
    }
    ++count[o];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < t.sizes[d]) break;
      index[d] = 0;
    }
  }
  Tensor out = EmptyTensor(out_dtype, out_shape);
  for (int64_t o = 0; o < out_numel; ++o) {
    if (op == ReduceOp::kAmax && count[o] == 0) {
      throw TorchError("IndexError", std::string(OpName(op)) +
                                         "(): Expected reduction dim to be specified for "
                                         "input.numel() == 0.");
    }
    if (IsFloating(out_dtype)) {
      double x = op == ReduceOp::kMean ? facc[o] / static_cast<double>(count[o]) : facc[o];
      out.Store(o, Scalar::Float(x, out_dtype));
    } else if (out_dtype == DType::kBool) {
      out.Store(o, Scalar::Bool(iacc[o] != 0));
    } else {
      out.Store(o, Scalar::Int(iacc[o]));
    }
  }
  return out;
}

}  // namespace tdc::runtime
