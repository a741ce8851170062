// The values an op call passes and returns, shaped like the Python values of the call
// (a list stays a list of values) so that the signature decides what they mean: `[2, 3]`
// is a size for `ones`, the data of `torch.tensor`, or a dim list for `sum`. The
// interpreter converts its heap objects to OpValues at a call and results back.
#ifndef TDCONFORM_REFERENCE_RUNTIME_OP_VALUE_H_
#define TDCONFORM_REFERENCE_RUNTIME_OP_VALUE_H_

#include <string>
#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

struct OpValue {
  enum class Kind { kNone, kScalar, kTensor, kDType, kList, kTuple, kCpuDevice };

  Kind kind = Kind::kNone;
  Scalar scalar;                  // kScalar: a Python bool, int or float (its dtype says which)
  Tensor tensor;                  // kTensor
  DType dtype = DType::kFloat32;  // kDType
  std::vector<OpValue> items;     // kList, kTuple

  static OpValue None() { return {}; }
  static OpValue Of(const Scalar& s);
  static OpValue Of(const Tensor& t);
  static OpValue OfDType(DType d);
  static OpValue List(std::vector<OpValue> items);
  static OpValue Tuple(std::vector<OpValue> items);
  // device="cpu", the one device the reference computes on (tensor_values.cc).
  static OpValue CpuDevice();
  // A tuple of ints, as torch.Size is.
  static OpValue Size(const Shape& sizes);

  bool IsSequence() const { return kind == Kind::kList || kind == Kind::kTuple; }
  bool IsInt() const { return kind == Kind::kScalar && scalar.dtype == DType::kInt64; }
};

// Python's type name of a value, as torch's argument errors print it ("int", "Tensor").
std::string PythonTypeName(const OpValue& v);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_OP_VALUE_H_
