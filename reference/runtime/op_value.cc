#include "reference/runtime/op_value.h"

#include <utility>

namespace tdc::runtime {

OpValue OpValue::Of(const Scalar& s) {
  OpValue v;
  v.kind = Kind::kScalar;
  v.scalar = s;
  return v;
}

OpValue OpValue::Of(const Tensor& t) {
  OpValue v;
  v.kind = Kind::kTensor;
  v.tensor = t;
  return v;
}

OpValue OpValue::OfDType(DType d) {
  OpValue v;
  v.kind = Kind::kDType;
  v.dtype = d;
  return v;
}

OpValue OpValue::List(std::vector<OpValue> items) {
  OpValue v;
  v.kind = Kind::kList;
  v.items = std::move(items);
  return v;
}

OpValue OpValue::Tuple(std::vector<OpValue> items) {
  OpValue v = List(std::move(items));
  v.kind = Kind::kTuple;
  return v;
}

OpValue OpValue::CpuDevice() {
  OpValue v;
  v.kind = Kind::kCpuDevice;
  return v;
}

OpValue OpValue::Size(const Shape& sizes) {
  std::vector<OpValue> items;
  for (int64_t s : sizes) items.push_back(Of(Scalar::Int(s)));
  return Tuple(std::move(items));
}

std::string PythonTypeName(const OpValue& v) {
  switch (v.kind) {
    case OpValue::Kind::kNone:
      return "NoneType";
    case OpValue::Kind::kTensor:
      return "Tensor";
    case OpValue::Kind::kDType:
      return "torch.dtype";
    case OpValue::Kind::kList:
      return "list";
    case OpValue::Kind::kTuple:
      return "tuple";
    case OpValue::Kind::kCpuDevice:
      return "str";
    case OpValue::Kind::kScalar:
      break;
  }
  if (v.scalar.dtype == DType::kBool) return "bool";
  if (v.scalar.dtype == DType::kInt64) return "int";
  return "float";
}

}  // namespace tdc::runtime
