// The one tolerance table (DESIGN.md D12, fixtures/SCHEMA.md §10) for floating-point
// tensor elements and float scalars.
#ifndef TDCONFORM_REFERENCE_COMPARE_TOLERANCE_H_
#define TDCONFORM_REFERENCE_COMPARE_TOLERANCE_H_

#include <utility>
#include <vector>

#include "reference/graph/golden.h"
#include "reference/graph/vocabulary.h"

namespace tdc::compare {

class ToleranceTable {
 public:
  // The defaults, overridden by `header.tolerance` (the expected document's header).
  explicit ToleranceTable(const graph::Header& header);

  // SCHEMA.md §10: float32 rtol 1.3e-6 atol 1e-5; float64 rtol 1e-7 atol 1e-7; float16
  // and bfloat16 as torch.testing.assert_close (rtol 1e-3 / 1.6e-2, atol 1e-5). Other
  // dtypes compare exactly.
  static graph::Tolerance Default(graph::DType dtype);

  graph::Tolerance For(graph::DType dtype) const;

 private:
  std::vector<std::pair<graph::DType, graph::Tolerance>> overrides_;
};

// |actual - expected| <= atol + rtol * |expected|; NaN equals NaN (and nothing else);
// an infinity equals only the infinity of the same sign.
bool WithinTolerance(double expected, double actual, graph::Tolerance tolerance);

}  // namespace tdc::compare

#endif  // TDCONFORM_REFERENCE_COMPARE_TOLERANCE_H_
