#include "reference/runtime/tensor.h"

#include <cstring>

#include "reference/runtime/tensor_budget.h"

namespace tdc::runtime {

bool IsSupportedDType(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64 || dtype == DType::kInt64 ||
         dtype == DType::kBool;
}

int64_t ElementSize(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return 4;
    case DType::kFloat64:
      return 8;
    case DType::kInt64:
      return 8;
    case DType::kBool:
      return 1;
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      break;
  }
  throw TorchError("RuntimeError", "dtype not supported by the reference runtime");
}

std::string TorchTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "Float";
    case DType::kFloat64:
      return "Double";
    case DType::kInt64:
      return "Long";
    case DType::kBool:
      return "Bool";
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      break;
  }
  return std::string(graph::DTypeName(dtype));
}

bool IsFloating(DType dtype) { return dtype == DType::kFloat32 || dtype == DType::kFloat64; }

double Scalar::AsDouble() const {
  if (IsFloating(dtype)) return f;
  if (dtype == DType::kInt64) return static_cast<double>(i);
  return b ? 1.0 : 0.0;
}

int64_t Scalar::AsInt() const {
  if (IsFloating(dtype)) return static_cast<int64_t>(f);
  if (dtype == DType::kInt64) return i;
  return b ? 1 : 0;
}

bool Scalar::AsBool() const {
  if (IsFloating(dtype)) return f != 0;
  if (dtype == DType::kInt64) return i != 0;
  return b;
}

int64_t Tensor::numel() const { return CheckedNumel(sizes); }

Scalar Tensor::Load(int64_t element_offset) const {
  const unsigned char* p = storage->bytes.data() + element_offset * ElementSize(dtype);
  switch (dtype) {
    case DType::kFloat32: {
      float v;
      std::memcpy(&v, p, 4);
      return Scalar::Float(v, dtype);
    }
    case DType::kFloat64: {
      double v;
      std::memcpy(&v, p, 8);
      return Scalar::Float(v, dtype);
    }
    case DType::kInt64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return Scalar::Int(v);
    }
    case DType::kBool:
      return Scalar::Bool(*p != 0);
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      break;  // ElementSize above already rejected these
  }
  return {};
}

void Tensor::Store(int64_t element_offset, const Scalar& value) const {
  unsigned char* p = storage->bytes.data() + element_offset * ElementSize(dtype);
  switch (dtype) {
    case DType::kFloat32: {
      float v = static_cast<float>(value.AsDouble());
      std::memcpy(p, &v, 4);
      return;
    }
    case DType::kFloat64: {
      double v = value.AsDouble();
      std::memcpy(p, &v, 8);
      return;
    }
    case DType::kInt64: {
      int64_t v = value.AsInt();
      std::memcpy(p, &v, 8);
      return;
    }
    case DType::kBool:
      *p = value.AsBool() ? 1 : 0;
      return;
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      return;  // ElementSize above already rejected these
  }
}

Scalar Tensor::At(const Shape& index) const {
  int64_t offset = storage_offset;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return Load(offset);
}

std::vector<int64_t> Tensor::ElementOffsets() const {
  std::vector<int64_t> offsets;
  CheckElementBudget(sizes);
  int64_t n = numel();
  if (n == 0) return offsets;
  offsets.reserve(n);
  Shape index(sizes.size(), 0);
  int64_t offset = storage_offset;
  for (int64_t k = 0; k < n; ++k) {
    offsets.push_back(offset);
    // Odometer increment, last dim fastest (row-major logical order).
    for (int64_t d = dim() - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
  return offsets;
}

std::vector<Scalar> Tensor::Values() const {
  std::vector<Scalar> values;
  for (int64_t off : ElementOffsets()) values.push_back(Load(off));
  return values;
}

// torch's compute_contiguous: skip size-1 dims; an empty tensor is contiguous.
bool Tensor::IsContiguous() const {
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

Shape ContiguousStrides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

Tensor EmptyTensor(DType dtype, const Shape& sizes) {
  if (!IsSupportedDType(dtype)) ElementSize(dtype);  // throws
  CheckNewStorage(sizes, dtype);
  Tensor t;
  t.dtype = dtype;
  t.sizes = sizes;
  t.strides = ContiguousStrides(sizes);
  t.storage = std::make_shared<Storage>();
  t.storage->bytes.assign(t.numel() * ElementSize(dtype), 0);
  t.storage->charge = MemoryCharge(static_cast<int64_t>(t.storage->bytes.size()));
  return t;
}

Tensor TensorFromValues(DType dtype, const Shape& sizes, const std::vector<Scalar>& values) {
  Tensor t = EmptyTensor(dtype, sizes);
  for (size_t k = 0; k < values.size() && static_cast<int64_t>(k) < t.numel(); ++k) {
    t.Store(static_cast<int64_t>(k), values[k]);
  }
  return t;
}

Scalar Item(const Tensor& t) {
  if (t.numel() != 1) {
    throw TorchError("RuntimeError", "a Tensor with " + std::to_string(t.numel()) +
                                         " elements cannot be converted to Scalar");
  }
  return t.Load(t.storage_offset);
}

int64_t WrapDim(int64_t dim, int64_t rank) {
  // torch treats a 0-dim tensor as having one wrappable dim ([-1, 0]).
  int64_t r = std::max<int64_t>(rank, 1);
  if (dim < -r || dim >= r) {
    throw TorchError("IndexError", "Dimension out of range (expected to be in range of [" +
                                       std::to_string(-r) + ", " + std::to_string(r - 1) +
                                       "], but got " + std::to_string(dim) + ")");
  }
  return dim < 0 ? dim + r : dim;
}

std::string ShapeText(const Shape& sizes) {
  std::string text = "[";
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (k) text += ", ";
    text += std::to_string(sizes[k]);
  }
  return text + "]";
}

}  // namespace tdc::runtime
