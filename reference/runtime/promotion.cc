#include "reference/runtime/promotion.h"

#include <algorithm>
#include <optional>

namespace tdc::runtime {
namespace {

// Category rank: bool < integral < floating.
int Category(DType t) { return t == DType::kBool ? 0 : t == DType::kInt64 ? 1 : 2; }
int Rank(DType t) {
  switch (t) {
    case DType::kBool:
      return 0;
    case DType::kInt64:
      return 1;
    case DType::kFloat32:
      return 2;
    case DType::kFloat64:
      return 3;
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

using Maybe = std::optional<DType>;

Maybe Promote(Maybe a, DType b) { return a ? PromoteTypes(*a, b) : b; }

// ATen's combine_categories: a lower-priority class only wins when its category is
// higher than the higher-priority class's (int64 tensor + 0-dim float64 → float64).
Maybe Combine(Maybe higher, Maybe lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (Category(*higher) == 2) return higher;
  if (*higher == DType::kBool || Category(*lower) == 2) return PromoteTypes(*higher, *lower);
  return higher;
}

}  // namespace

DType PromoteTypes(DType a, DType b) { return Rank(a) >= Rank(b) ? a : b; }

Operand TensorOperand(const Tensor& t) {
  return {t.dim() == 0 ? OperandKind::kZeroDimTensor : OperandKind::kTensor, t.dtype};
}

DType ResultType(const std::vector<Operand>& operands) {
  Maybe dim, zero, wrapped;
  for (const Operand& op : operands) {
    switch (op.kind) {
      case OperandKind::kTensor:
        dim = Promote(dim, op.dtype);
        break;
      case OperandKind::kZeroDimTensor:
        zero = Promote(zero, op.dtype);
        break;
      case OperandKind::kPythonScalar:
        // A Python float is a wrapped number of the default dtype (float32).
        wrapped = Promote(wrapped, IsFloating(op.dtype) ? DType::kFloat32 : op.dtype);
        break;
    }
  }
  return Combine(dim, Combine(zero, wrapped)).value_or(DType::kFloat32);
}

Shape BroadcastShapes(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    // Align from the right; a missing dim acts as size 1.
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw TorchError("RuntimeError", "The size of tensor a (" + std::to_string(da) +
                                           ") must match the size of tensor b (" +
                                           std::to_string(db) + ") at non-singleton dimension " +
                                           std::to_string(i));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace tdc::runtime
