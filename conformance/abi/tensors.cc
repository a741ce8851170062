#include "conformance/abi/tensors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>

namespace tdc::conformance {

namespace {

constexpr int kDTypeCount = TDC_DTYPE_BOOL + 1;

tdc_tensor ViewOf(const runtime::Tensor& t, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& strides) {
  tdc_tensor out{};
  out.dtype = static_cast<int32_t>(t.dtype);
  out.device = TDC_DEVICE_CPU;
  out.ndim = static_cast<int32_t>(shape.size());
  out.shape = shape.data();
  out.strides = strides.data();
  out.data = t.storage ? t.storage->bytes.data() + t.storage_offset * runtime::ElementSize(t.dtype)
                       : nullptr;
  return out;
}

}  // namespace

const tdc_tensor& WireTensors::Add(const runtime::Tensor& t) {
  const std::vector<int64_t>& shape = dims_.emplace_back(t.sizes);
  const std::vector<int64_t>& strides = dims_.emplace_back(t.strides);
  return views_.emplace_back(ViewOf(t, shape, strides));
}

const runtime::Tensor& WireTensors::Allocate(int32_t dtype, int32_t ndim, const int64_t* shape,
                                             tdc_tensor& out) {
  const runtime::Tensor& t = owned_.emplace_back(runtime::EmptyTensor(
      static_cast<runtime::DType>(dtype), runtime::Shape(shape, shape + ndim)));
  const std::vector<int64_t>& sizes = dims_.emplace_back(t.sizes);
  const std::vector<int64_t>& strides = dims_.emplace_back(t.strides);
  out = ViewOf(t, sizes, strides);
  return t;
}

const runtime::Tensor* WireTensors::FindAllocated(const void* data) const {
  for (const runtime::Tensor& t : owned_) {
    if (t.storage && !t.storage->bytes.empty() && t.storage->bytes.data() == data) return &t;
  }
  return nullptr;
}

std::optional<std::string> CheckShape(int32_t dtype, int32_t ndim, const int64_t* shape) {
  if (ndim < 0 || (ndim > 0 && shape == nullptr)) return std::string("a tensor without its shape");
  int64_t bytes = runtime::ElementSize(static_cast<runtime::DType>(dtype));
  for (int32_t d = 0; d < ndim; ++d) {
    if (shape[d] < 0) return fmt::format("size {} of dimension {} is negative", shape[d], d);
    if (__builtin_mul_overflow(bytes, shape[d], &bytes) || bytes > kMaxWireTensorBytes) {
      return fmt::format("a tensor of shape ({}) holds more than {} bytes",
                         fmt::join(shape, shape + ndim, ", "), kMaxWireTensorBytes);
    }
  }
  // An empty tensor's contiguous strides: the sizes with each 0 counted as 1 (ContiguousStrides
  // multiplies them all; [0, 2^62, 4] would overflow there).
  int64_t span = runtime::ElementSize(static_cast<runtime::DType>(dtype));
  for (int32_t d = 0; d < ndim; ++d) {
    if (__builtin_mul_overflow(span, std::max<int64_t>(shape[d], 1), &span) ||
        span > kMaxWireTensorBytes) {
      return fmt::format("an empty tensor of shape ({}) whose strides pass {} bytes",
                         fmt::join(shape, shape + ndim, ", "), kMaxWireTensorBytes);
    }
  }
  return std::nullopt;
}

std::variant<runtime::Tensor, std::string> CopyFromWire(const tdc_tensor& t) {
  if (t.dtype < 0 || t.dtype >= kDTypeCount)
    return fmt::format("dtype {} is not a tdc_dtype", t.dtype);
  const auto dtype = static_cast<runtime::DType>(t.dtype);
  if (!runtime::IsSupportedDType(dtype))
    return fmt::format("dtype {} is outside the reference", runtime::TorchTypeName(dtype));
  if (t.device != TDC_DEVICE_CPU) return std::string("a tensor not on the CPU");
  if (t.ndim < 0 || (t.ndim > 0 && (t.shape == nullptr || t.strides == nullptr)))
    return std::string("a tensor without its shape");
  if (auto bad = CheckShape(t.dtype, t.ndim, t.shape)) return *bad;
  runtime::Shape sizes(t.shape, t.shape + t.ndim);
  runtime::Tensor out = runtime::EmptyTensor(dtype, sizes);
  const int64_t size = runtime::ElementSize(dtype);
  if (out.numel() > 0 && t.data == nullptr) return std::string("a tensor whose data is NULL");
  // Element by element in logical order, through the source's strides.
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t k = 0; k < out.numel(); ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.strides[d];
    std::memcpy(out.storage->bytes.data() + k * size,
                static_cast<const unsigned char*>(t.data) + offset * size,
                static_cast<size_t>(size));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace tdc::conformance
