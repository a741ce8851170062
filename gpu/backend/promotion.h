// torch's type promotion for the CUDA backend's ops, decided on the host before a launch:
// torch.result_type's three tiers (tensors with dims decide first, then 0-d tensors, then
// Python numbers, a higher category of a lower tier winning), and each op's rule over it
// (true division and float math compute in float32 for integral operands, comparisons give
// bool). What torch refuses is an error text here; a graph never holds it, since torch
// raises it while tracing. cuda_ops_test checks ResultType against the reference's.
#ifndef TDCONFORM_GPU_BACKEND_PROMOTION_H_
#define TDCONFORM_GPU_BACKEND_PROMOTION_H_

#include <string>
#include <variant>
#include <vector>

#include "gpu/backend/elements.h"
#include "gpu/backend/elementwise.h"

namespace tdc::gpu {

struct PromotionOperand {
  enum class Tier { kTensor, kZeroDim, kNumber } tier = Tier::kTensor;
  DType dtype = DType::kFloat32;  // a number's: kBool, kInt64 (an int), kFloat64 (a float)
  bool negative_integer = false;  // a number below 0 that is an int (pow's exponent)
};

DType ResultType(const std::vector<PromotionOperand>& operands);

struct ElementTypes {
  DType compute = DType::kFloat32, out = DType::kFloat32;
};

// `op` on `operands` (Arity(op) of them, in order), or why torch refuses it.
std::variant<ElementTypes, std::string> TypesOf(ElementOp op,
                                                const std::vector<PromotionOperand>& operands);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_PROMOTION_H_
