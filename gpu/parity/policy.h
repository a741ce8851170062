// The named tolerance policies a parity check is held to (issue 31; tdconform's
// `--tolerance POLICY`): when is a backend's output the reference's?
//   torch-default  torch.testing.assert_close's default rtol/atol for the dtype (the one
//                  tolerance table, reference/compare/tolerance.h)
//   dynamo-same    torch._dynamo.utils.same with its defaults (tol 1e-4): allclose, else the
//                  backend's RMSE against float64 within a multiple of the reference's
//   cosine         cosine similarity >= 0.99 (same(cos_similarity=True))
//   ulp N          every element within N units in the last place
// In every policy a NaN meets only a NaN at the same position (as the project's
// comparator and torch's own tests' assertEqual have it: equal_nan), and an infinity only
// the same infinity.
#ifndef TDCONFORM_GPU_PARITY_POLICY_H_
#define TDCONFORM_GPU_PARITY_POLICY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "gpu/parity/output.h"

namespace tdc::gpu {

enum class PolicyKind { kTorchDefault, kDynamoSame, kCosine, kUlp };

struct Policy {
  PolicyKind kind = PolicyKind::kTorchDefault;
  uint64_t max_ulp = 0;  // kUlp's N
};

// "torch-default", "dynamo-same", "cosine", "ulp N" or "ulp:N"; or why the text names none.
std::variant<Policy, std::string> ParsePolicy(std::string_view text);
std::string PolicyName(const Policy& policy);

struct Judgement {
  bool passed = false;
  std::string detail;  // what decided it, with the numbers
};

// The policy's verdict on one output, or why it cannot give one (lengths that differ, a
// value outside the dtype, a dtype the policy does not model: complex, float16 ULPs).
std::variant<Judgement, std::string> Judge(const Policy& policy, const ComparedOutput& output);

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_PARITY_POLICY_H_
