#include "reference/runtime/spectral.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace tdc::runtime {

Tensor FftAsReal(const Tensor& t, std::optional<int64_t> n, int64_t dim) {
  if (t.dim() == 0) {
    throw TorchError("IndexError", "Dimension specified as " + std::to_string(dim) +
                                       " but tensor has no dimensions");
  }
  int64_t d = WrapDim(dim, t.dim());
  int64_t len = n.value_or(t.sizes[d]);
  if (len < 1) {
    throw TorchError("RuntimeError",
                     "Invalid number of data points (" + std::to_string(len) + ") specified");
  }
  // A real input of an integral or bool dtype is converted to the default float dtype.
  DType real = t.dtype == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32;
  Shape shape = t.sizes;
  shape[d] = len;
  shape.push_back(2);
  Tensor out = EmptyTensor(real, shape);
  // torch's layout: the transformed dim innermost, the others ordered as the input's
  // strides order them (stable: equal strides keep dim order), in row-major order when n
  // pads the input (torch pads into a contiguous tensor); strides of view_as_real.
  bool padded = len > t.sizes[d];
  std::vector<int64_t> order;
  for (int64_t i = 0; i < t.dim(); ++i) {
    if (i != d) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return !padded && t.strides[a] > t.strides[b]; });
  order.push_back(d);
  int64_t stride = 2;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    out.strides[*it] = stride;
    stride *= std::max<int64_t>(shape[*it], 1);
  }
  std::vector<int64_t> out_offsets = out.ElementOffsets();
  // Lines along d: the element of input index (outer, k, inner) is at ElementOffsets order.
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= t.sizes[i];
  for (int64_t i = d + 1; i < t.dim(); ++i) inner *= t.sizes[i];
  int64_t in_len = t.sizes[d];
  std::vector<double> x(static_cast<size_t>(outer * in_len * inner));
  std::vector<int64_t> offsets = t.ElementOffsets();
  for (size_t i = 0; i < offsets.size(); ++i) {
    Scalar v = t.Load(offsets[i]);
    // torch converts to the float element type before transforming.
    x[i] = real == DType::kFloat32 ? static_cast<float>(v.AsDouble()) : v.AsDouble();
  }
  int64_t used = std::min(in_len, len);
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t c = 0; c < inner; ++c) {
      for (int64_t k = 0; k < len; ++k) {
        double re = 0, im = 0;
        for (int64_t j = 0; j < used; ++j) {
          // exp(-2πi jk/len), with jk reduced mod len so the angle stays exact.
          double angle =
              -2 * std::numbers::pi * static_cast<double>((j * k) % len) / static_cast<double>(len);
          double xv = x[static_cast<size_t>((a * in_len + j) * inner + c)];
          re += xv * std::cos(angle);
          im += xv * std::sin(angle);
        }
        int64_t o = ((a * len + k) * inner + c) * 2;
        out.Store(out_offsets[o], Scalar::Float(re, real));
        out.Store(out_offsets[o + 1], Scalar::Float(im, real));
      }
    }
  }
  return out;
}

}  // namespace tdc::runtime
