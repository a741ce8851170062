#include "gpu/backend/promotion.h"

#include <algorithm>
#include <optional>

namespace tdc::gpu {

namespace {

int Rank(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return 0;
    case DType::kInt64:
      return 1;
    case DType::kFloat32:
      return 2;
    case DType::kFloat64:
      return 3;
  }
  return 0;
}

// torch's promote_types over the four dtypes: the later of bool < int64 < float32 < float64.
DType Promote(DType a, DType b) { return Rank(a) >= Rank(b) ? a : b; }

using Maybe = std::optional<DType>;

Maybe PromoteSkippingNone(Maybe a, Maybe b) {
  if (!a) return b;
  if (!b) return a;
  return Promote(*a, *b);
}

// torch's combine_categories: a lower tier counts only with a higher category.
Maybe Combine(Maybe higher, Maybe lower) {
  if (higher && IsFloating(*higher)) return higher;
  if ((higher && *higher == DType::kBool) || (lower && IsFloating(*lower)))
    return PromoteSkippingNone(higher, lower);
  return higher ? higher : lower;
}

bool AnyBool(const std::vector<PromotionOperand>& operands) {
  return std::ranges::any_of(operands, [](const auto& o) { return o.dtype == DType::kBool; });
}

}  // namespace

DType ResultType(const std::vector<PromotionOperand>& operands) {
  Maybe tiers[3];
  for (const PromotionOperand& o : operands) {
    // A float number takes the default dtype (float32), as torch's wrapped numbers do.
    const DType dtype = o.tier == PromotionOperand::Tier::kNumber && IsFloating(o.dtype)
                            ? DType::kFloat32
                            : o.dtype;
    Maybe& tier = tiers[static_cast<int>(o.tier)];
    tier = PromoteSkippingNone(tier, dtype);
  }
  return Combine(tiers[0], Combine(tiers[1], tiers[2])).value_or(DType::kFloat32);
}

std::variant<ElementTypes, std::string> TypesOf(ElementOp op,
                                                const std::vector<PromotionOperand>& operands) {
  const DType common = ResultType(operands);
  const DType floating = IsFloating(common) ? common : DType::kFloat32;
  switch (op) {
    case ElementOp::kAdd:
    case ElementOp::kMul:
      return ElementTypes{common, common};
    case ElementOp::kSub:
      if (AnyBool(operands)) return std::string("subtraction with a bool operand");
      return ElementTypes{common, common};
    case ElementOp::kDiv:
      return ElementTypes{floating, floating};
    case ElementOp::kPow:
      if (common == DType::kBool && operands[1].tier != PromotionOperand::Tier::kNumber)
        return std::string("pow of bool tensors");
      if (!IsFloating(common) && operands[1].negative_integer)
        return std::string("an integer to a negative integer power");
      return ElementTypes{common, common};
    case ElementOp::kEq:
    case ElementOp::kNe:
    case ElementOp::kLt:
    case ElementOp::kLe:
    case ElementOp::kGt:
    case ElementOp::kGe:
      return ElementTypes{common, DType::kBool};
    case ElementOp::kWhere: {
      if (operands[0].dtype != DType::kBool || operands[0].tier == PromotionOperand::Tier::kNumber)
        return std::string("where's condition is not a bool tensor");
      const DType values = ResultType({operands[1], operands[2]});
      return ElementTypes{values, values};
    }
    case ElementOp::kNeg:
    case ElementOp::kAbs:
    case ElementOp::kRelu:
      if (common == DType::kBool) return std::string("a bool operand");
      return ElementTypes{common, common};
    case ElementOp::kGelu:
      if (!IsFloating(common)) return std::string("gelu of an integral operand");
      return ElementTypes{common, common};
    case ElementOp::kSigmoid:
    case ElementOp::kTanh:
    case ElementOp::kSin:
    case ElementOp::kCos:
    case ElementOp::kTan:
    case ElementOp::kExp:
    case ElementOp::kLog:
    case ElementOp::kSqrt:
      return ElementTypes{floating, floating};
    case ElementOp::kCopy:
      return ElementTypes{operands[0].dtype, operands[0].dtype};
  }
  return std::string("an unknown op");
}

}  // namespace tdc::gpu
