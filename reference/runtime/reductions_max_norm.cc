// torch.max (over everything, or along one dim with indices) and torch.linalg.vector_norm.
#include <cmath>
#include <limits>
#include <string>

#include "reference/runtime/reductions.h"

namespace tdc::runtime {
namespace {

// Which dims a reduction removes, and the output shape.
struct Plan {
  std::vector<bool> reduced;
  Shape out_shape;
  int64_t out_numel = 1;
};

Plan MakePlan(const Tensor& t, const Shape& dims, bool keepdim) {
  int64_t rank = t.dim();
  Plan p{std::vector<bool>(rank, dims.empty()), {}, 1};
  for (int64_t d : dims) {
    int64_t w = WrapDim(d, rank);
    if (rank == 0) continue;
    if (p.reduced[w]) {
      throw TorchError("RuntimeError",
                       "dim " + std::to_string(w) + " appears multiple times in the list of dims");
    }
    p.reduced[w] = true;
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!p.reduced[d])
      p.out_shape.push_back(t.sizes[d]);
    else if (keepdim)
      p.out_shape.push_back(1);
  }
  for (int64_t s : p.out_shape) p.out_numel *= s;
  return p;
}

// Calls f(output index, position along the reduced dims, element) in row-major order.
template <typename F>
void ForEachElement(const Tensor& t, const Plan& p, F&& f) {
  int64_t rank = t.dim();
  Shape index(rank, 0);
  for (int64_t off : t.ElementOffsets()) {
    int64_t o = 0, r = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (p.reduced[d])
        r = r * t.sizes[d] + index[d];
      else
        o = o * t.sizes[d] + index[d];
    }
    f(o, r, t.Load(off));
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < t.sizes[d]) break;
      index[d] = 0;
    }
  }
}

// Whether a replaces the running maximum b: greater, or NaN over a number.
bool Beats(const Scalar& a, const Scalar& b, DType dtype) {
  if (IsFloating(dtype)) {
    double x = a.AsDouble(), y = b.AsDouble();
    return !std::isnan(y) && (std::isnan(x) || x > y);
  }
  return a.AsInt() > b.AsInt();
}

}  // namespace

Tensor MaxAll(const Tensor& t) {
  if (t.numel() == 0) {
    throw TorchError("RuntimeError",
                     "max(): Expected reduction dim to be specified for input.numel() == 0. "
                     "Specify the reduction dim with the 'dim' argument.");
  }
  std::vector<Scalar> values = t.Values();
  Scalar best = values[0];
  for (const Scalar& v : values) {
    if (Beats(v, best, t.dtype)) best = v;
  }
  return TensorFromValues(t.dtype, {}, {best});
}

std::pair<Tensor, Tensor> MaxDim(const Tensor& t, int64_t dim, bool keepdim) {
  int64_t w = WrapDim(dim, t.dim());
  if (t.dim() > 0 && t.sizes[w] == 0) {
    throw TorchError("IndexError", "max(): Expected reduction dim " + std::to_string(w) +
                                       " to have non-zero size.");
  }
  Plan p = MakePlan(t, {dim}, keepdim);
  std::vector<Scalar> best(p.out_numel);
  std::vector<int64_t> index(p.out_numel, -1);
  ForEachElement(t, p, [&](int64_t o, int64_t r, const Scalar& v) {
    if (index[o] < 0 || Beats(v, best[o], t.dtype)) {
      best[o] = v;
      index[o] = r;
    }
  });
  Tensor values = EmptyTensor(t.dtype, p.out_shape);
  Tensor indices = EmptyTensor(DType::kInt64, p.out_shape);
  for (int64_t o = 0; o < p.out_numel; ++o) {
    values.Store(o, best[o]);
    indices.Store(o, Scalar::Int(index[o]));
  }
  return {values, indices};
}

Tensor VectorNorm(const Tensor& t, double ord, const Shape& dims, bool keepdim) {
  if (!IsFloating(t.dtype)) {
    throw TorchError("RuntimeError",
                     "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                     "Got " +
                         TorchTypeName(t.dtype));
  }
  Plan p = MakePlan(t, dims, keepdim);
  bool max_like = std::isinf(ord);
  std::vector<double> acc(p.out_numel, max_like ? (ord > 0 ? 0.0 : INFINITY) : 0.0);
  std::vector<int64_t> count(p.out_numel, 0);
  ForEachElement(t, p, [&](int64_t o, int64_t, const Scalar& v) {
    double a = std::abs(v.AsDouble());
    ++count[o];
    if (std::isnan(a) || std::isnan(acc[o])) {
      acc[o] = NAN;
    } else if (max_like) {
      acc[o] = ord > 0 ? std::max(acc[o], a) : std::min(acc[o], a);
    } else if (ord == 0) {
      acc[o] += a != 0 ? 1 : 0;
    } else if (ord == 1) {
      acc[o] += a;
    } else if (ord == 2) {
      acc[o] += a * a;
    } else {
      acc[o] += std::pow(a, ord);
    }
  });
  Tensor out = EmptyTensor(t.dtype, p.out_shape);
  for (int64_t o = 0; o < p.out_numel; ++o) {
    if ((max_like || ord < 0) && count[o] == 0) {
      // torch's message prints ord; only ±inf is recorded (a negative finite ord prints
      // torch's own float formatting, approximated here).
      std::string name = max_like ? (ord > 0 ? "inf" : "-inf") : std::to_string(ord);
      throw TorchError("RuntimeError", "linalg.vector_norm cannot compute the " + name +
                                           " norm on an empty tensor because the operation "
                                           "does not have an identity");
    }
    double x = acc[o];
    if (!max_like && ord != 0 && ord != 1) x = ord == 2 ? std::sqrt(x) : std::pow(x, 1.0 / ord);
    out.Store(o, Scalar::Float(x, t.dtype));
  }
  return out;
}

}  // namespace tdc::runtime
