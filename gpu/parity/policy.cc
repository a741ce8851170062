#include "gpu/parity/policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

#include "gpu/parity/statistics.h"
#include "gpu/parity/ulp.h"
#include "reference/compare/tolerance.h"

namespace tdc::gpu {

namespace {

struct PolicyRow {
  std::string_view name;
  PolicyKind kind;
};
constexpr PolicyRow kPolicies[] = {
    {"torch-default", PolicyKind::kTorchDefault},
    {"dynamo-same", PolicyKind::kDynamoSame},
    {"cosine", PolicyKind::kCosine},
    {"ulp", PolicyKind::kUlp},
};

// same()'s `tol` default and its cosine threshold (torch/_dynamo/utils.py).
constexpr double kSameTol = 1e-4;
constexpr double kCosineThreshold = 0.99;
constexpr double kCosineEps = 1e-6;                   // same() passes eps=1e-6 to cosine_similarity
constexpr double kBetterThanReferenceTol = 1e-2 * 4;  // same()'s loose_tol

// The first element not close, if any.
std::optional<size_t> FirstNotClose(const std::vector<double>& actual,
                                    const std::vector<double>& expected, graph::Tolerance t) {
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!compare::WithinTolerance(expected[i], actual[i], t)) return i;
  }
  return std::nullopt;
}

bool AnyNan(const std::vector<double>& v) {
  return std::ranges::any_of(v, [](double x) { return std::isnan(x); });
}

Judgement TorchDefault(const ComparedOutput& o) {
  const graph::Tolerance t = compare::ToleranceTable::Default(o.dtype);
  if (auto i = FirstNotClose(o.actual, o.expected, t)) {
    return {false, fmt::format("element {}: got {}, expected {} (rtol {}, atol {})", *i,
                               o.actual[*i], o.expected[*i], t.rtol, t.atol)};
  }
  return {true, fmt::format("every element within rtol {}, atol {}", t.rtol, t.atol)};
}

// same()'s multiplier of the reference's RMSE, for its default arguments.
double SameMultiplier(const ComparedOutput& o) {
  const bool four_dim_1x1 = o.shape.size() == 4 && o.shape[3] == 1 && o.shape[2] == 1;
  if (o.expected.size() < 1000 || four_dim_1x1) return 3.0;
  return o.dtype == graph::DType::kFloat16 || o.dtype == graph::DType::kBFloat16 ? 3.0 : 2.0;
}

Judgement DynamoSame(const ComparedOutput& o) {
  if (!FirstNotClose(o.actual, o.expected, {kSameTol, kSameTol})) {
    return {true, fmt::format("allclose within tol {}", kSameTol)};
  }
  // same(ref, res) with no fp64_ref takes ref itself, which is float64 only for float64.
  const std::vector<double>* fp64 = o.fp64 ? &*o.fp64 : nullptr;
  if (fp64 == nullptr && o.dtype == graph::DType::kFloat64) fp64 = &o.expected;
  if (fp64 == nullptr || graph::DTypeElementKind(o.dtype) != graph::ElementKind::kFloat) {
    return {false, fmt::format("not allclose within tol {}", kSameTol)};
  }
  // The backend is better than the reference: no NaN where the reference has one.
  if (!AnyNan(*fp64) && !AnyNan(o.actual) && AnyNan(o.expected) &&
      !FirstNotClose(o.actual, *fp64, {kBetterThanReferenceTol, kBetterThanReferenceTol})) {
    return {true, "the reference has a NaN, the backend matches float64"};
  }
  const double ref_error = Rmse(*fp64, o.expected), res_error = Rmse(*fp64, o.actual);
  const double multiplier = SameMultiplier(o);
  const double bound = multiplier * ref_error + kSameTol / 10.0;
  const bool passed = res_error <= bound || (std::isnan(ref_error) && std::isnan(res_error));
  return {passed,
          fmt::format("RMSE against float64 {:.6g} {} {} x the reference's {:.6g} + {}", res_error,
                      passed ? "<=" : ">", multiplier, ref_error, kSameTol / 10.0)};
}

Judgement Cosine(const ComparedOutput& o) {
  std::vector<double> a, e;  // flattened to float32, as same() does
  for (size_t i = 0; i < o.actual.size(); ++i) {
    a.push_back(AsFloat32(o.actual[i]));
    e.push_back(AsFloat32(o.expected[i]));
  }
  if (!FirstNotClose(a, e, {kSameTol, kSameTol})) {
    return {true, fmt::format("allclose within tol {}", kSameTol)};
  }
  double dot = 0, norm_a = 0, norm_e = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * e[i];
    norm_a += a[i] * a[i];
    norm_e += e[i] * e[i];
  }
  // torch.nn.functional.cosine_similarity clamps each norm to eps.
  const double score =
      dot / (std::max(std::sqrt(norm_a), kCosineEps) * std::max(std::sqrt(norm_e), kCosineEps));
  const bool passed = score >= kCosineThreshold;
  return {passed, fmt::format("cosine similarity {:.6g} {} {}", score, passed ? ">=" : "<",
                              kCosineThreshold)};
}

std::variant<Judgement, std::string> Ulp(const OutputStatistics& measured, uint64_t max_ulp) {
  if (!measured.max_ulp) return std::string("ULP distance in float16 is not modeled");
  const uint64_t worst = *measured.max_ulp;
  const bool passed = worst <= max_ulp;
  const std::string shown =
      worst == kNotComparable ? "a NaN against a number" : fmt::format("{}", worst);
  return Judgement{passed,
                   fmt::format("max ULP distance {} {} {}", shown, passed ? "<=" : ">", max_ulp)};
}

}  // namespace

std::variant<Policy, std::string> ParsePolicy(std::string_view text) {
  const size_t split = text.find_first_of(" :");
  const std::string_view name = text.substr(0, split);
  const std::string_view argument = split == std::string_view::npos ? "" : text.substr(split + 1);
  for (const PolicyRow& row : kPolicies) {
    if (row.name != name) continue;
    Policy policy{row.kind, 0};
    if (row.kind != PolicyKind::kUlp) {
      if (split != std::string_view::npos) {
        return fmt::format("tolerance policy '{}' takes no argument", name);
      }
      return policy;
    }
    const char* end = argument.data() + argument.size();
    auto [at, error] = std::from_chars(argument.data(), end, policy.max_ulp);
    if (argument.empty() || error != std::errc() || at != end) {
      return fmt::format(
          "tolerance policy 'ulp' needs a count of ULPs, 0 to {} ('ulp 4'), not '{}'",
          kNotComparable - 1, argument);
    }
    if (policy.max_ulp == kNotComparable)
      return std::string("tolerance policy 'ulp': count too large");
    return policy;
  }
  return fmt::format(
      "unknown tolerance policy '{}': one of torch-default, dynamo-same, cosine, ulp N", text);
}

std::string PolicyName(const Policy& policy) {
  for (const PolicyRow& row : kPolicies) {
    if (row.kind != policy.kind) continue;
    return row.kind == PolicyKind::kUlp ? fmt::format("ulp {}", policy.max_ulp)
                                        : std::string(row.name);
  }
  return "unknown";
}

std::variant<Judgement, std::string> Judge(const Policy& policy, const ComparedOutput& output) {
  if (graph::DTypeElementKind(output.dtype) == graph::ElementKind::kComplex) {
    return fmt::format("{} outputs are not compared element by element here",
                       graph::DTypeName(output.dtype));
  }
  // Measure checks lengths and values once for every policy.
  auto measured = Measure(output);
  if (auto* why = std::get_if<std::string>(&measured)) return *why;
  switch (policy.kind) {
    case PolicyKind::kTorchDefault:
      return TorchDefault(output);
    case PolicyKind::kDynamoSame:
      return DynamoSame(output);
    case PolicyKind::kCosine:
      return Cosine(output);
    case PolicyKind::kUlp:
      return Ulp(std::get<OutputStatistics>(measured), policy.max_ulp);
  }
  return std::string("unknown tolerance policy");
}

}  // namespace tdc::gpu
