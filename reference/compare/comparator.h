// The one comparator of golden documents (DESIGN.md D12, fixtures/SCHEMA.md §10), used by
// tdcompare, ctest, tdref, tdconform, the fuzzers and the perf tools: it compares `eager`
// and `compiled` (never `meta`) and reports each difference by its JSON path.
#ifndef TDCONFORM_REFERENCE_COMPARE_COMPARATOR_H_
#define TDCONFORM_REFERENCE_COMPARE_COMPARATOR_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/graph/golden.h"
#include "reference/graph/vocabulary.h"

namespace tdc::compare {

enum class Mode { kEager, kCompile };
std::optional<Mode> ParseMode(std::string_view name);  // "eager", "compile"

struct CompareOptions {
  std::vector<graph::Field> masked;    // fields left out wherever they occur
  std::optional<std::string> profile;  // compare only compiled[profile]
  std::optional<Mode> mode;            // compare only eager, or only compiled
  // Strides only where they address elements (torch._prims_common.check_significant_strides):
  // a dimension of size 1, or a tensor with no elements, may have any stride. Backends'
  // verdicts use it (torch's own inductor leaves such strides otherwise than eager); the
  // reference is held to every stride.
  bool significant_strides_only = false;
};

// The fields a `--mask NAME` leaves out: NAME is a schema field name (fields.def), or
// `aten` for aten_graph and aten_error. nullopt for an unknown name.
std::optional<std::vector<graph::Field>> MaskFields(std::string_view name);

struct Difference {
  std::string path;      // e.g. compiled["torch-2.13"].invocations[1].dynamo_graph.nodes[2].target
  std::string expected;  // rendered: "torch.sigmoid" (strings quoted), 3, [2, 4], (absent)
  std::string got;
};

// `<path>: expected <x>, got <y>`.
std::string FormatDifference(const Difference& difference);

struct CompareResult {
  std::vector<Difference> differences;  // in document order; empty when equal
  std::optional<std::string> error;     // options that do not fit the documents
};

// Compares `actual` against `expected`; tolerances come from expected.meta.header.
CompareResult Compare(const graph::Golden& expected, const graph::Golden& actual,
                      const CompareOptions& options);

}  // namespace tdc::compare

#endif  // TDCONFORM_REFERENCE_COMPARE_COMPARATOR_H_
