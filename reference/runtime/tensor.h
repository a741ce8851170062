// The strided tensor of the reference runtime (DESIGN.md D5: runtime layer): a view
// (dtype, sizes, strides, storage offset) over a shared, typed Storage, as torch has it.
// Contiguity matters later for ATen lowering, so strides follow torch's rules exactly.
#ifndef TDCONFORM_REFERENCE_RUNTIME_TENSOR_H_
#define TDCONFORM_REFERENCE_RUNTIME_TENSOR_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/graph/vocabulary.h"
#include "reference/runtime/memory_budget.h"

namespace tdc::runtime {

using graph::DType;
using Shape = std::vector<int64_t>;

// A Python-level exception raised by a tensor operation, with torch's own type name
// (RuntimeError, IndexError, ...) and message text (D10).
class TorchError : public std::runtime_error {
 public:
  TorchError(std::string type, const std::string& message)
      : std::runtime_error(message), type_(std::move(type)) {}
  const std::string& type() const { return type_; }

 private:
  std::string type_;
};

// The dtypes the runtime computes in; any other DType is rejected where a tensor is made.
bool IsSupportedDType(DType dtype);
// Bytes per element: float32 4, float64 8, int64 8, bool 1.
int64_t ElementSize(DType dtype);
bool IsFloating(DType dtype);
// The scalar type name torch prints in messages: Float, Double, Long, Bool.
std::string TorchTypeName(DType dtype);

// Shared bytes that views alias. Elements are stored in their C++ type (float, double,
// int64_t, bool as uint8_t), so a float32 tensor computes in float like torch's kernels.
struct Storage {
  std::vector<unsigned char> bytes;
  MemoryCharge charge = {};  // `bytes` counted against the run's memory budget
};

// An element read from or written into a tensor, independent of its dtype. Floating
// dtypes use `f` (a float32 element widened exactly), int64 `i`, bool `b`.
struct Scalar {
  DType dtype = DType::kFloat64;
  double f = 0;
  int64_t i = 0;
  bool b = false;

  static Scalar Float(double v, DType dtype = DType::kFloat64) { return {dtype, v, 0, false}; }
  static Scalar Int(int64_t v) { return {DType::kInt64, 0, v, false}; }
  static Scalar Bool(bool v) { return {DType::kBool, 0, 0, v}; }
  // The value converted as torch's static_cast between element types does.
  double AsDouble() const;
  int64_t AsInt() const;
  bool AsBool() const;
};

struct Tensor {
  std::shared_ptr<Storage> storage;
  DType dtype = DType::kFloat32;
  Shape sizes;
  Shape strides;
  int64_t storage_offset = 0;
  bool requires_grad = false;

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  int64_t numel() const;
  // Element access by storage-relative element offset (storage_offset already added).
  Scalar Load(int64_t element_offset) const;
  void Store(int64_t element_offset, const Scalar& value) const;
  // The element at a multi-index (one index per dim, already in range).
  Scalar At(const Shape& index) const;
  // The storage offsets of every element in row-major (logical) order.
  std::vector<int64_t> ElementOffsets() const;
  // Every element in logical order.
  std::vector<Scalar> Values() const;
  // torch's is_contiguous(): size-1 dims may have any stride; empty tensors are contiguous.
  bool IsContiguous() const;
  // True when the two tensors share a Storage (torch: same untyped_storage).
  bool SharesStorageWith(const Tensor& other) const { return storage == other.storage; }
};

// Row-major strides for sizes (torch's contiguous strides: a size-0 or size-1 dim gets
// the stride the next dim would need, computed with max(size, 1)).
Shape ContiguousStrides(const Shape& sizes);
// A new contiguous tensor with fresh zeroed storage.
Tensor EmptyTensor(DType dtype, const Shape& sizes);
// A new contiguous tensor holding values (logical order), converted to dtype.
Tensor TensorFromValues(DType dtype, const Shape& sizes, const std::vector<Scalar>& values);
// Python's `t.item()`: the one element, or torch's error for numel != 1.
Scalar Item(const Tensor& t);
// Wraps a negative dim as torch's maybe_wrap_dim does, with its IndexError text.
int64_t WrapDim(int64_t dim, int64_t rank);
std::string ShapeText(const Shape& sizes);  // "[2, 3]" as torch prints sizes in messages

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_TENSOR_H_
