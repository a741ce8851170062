// Test-only: every one-field perturbation of a golden document, each with the single
// difference the comparator must report for it (SCHEMA.md §10). The enumeration walks
// the document's JSON by the schema and builds the expected paths itself, without the
// graph or compare libraries' path code.
#ifndef TDCONFORM_REFERENCE_COMPARE_GOLDEN_PERTURBATIONS_H_
#define TDCONFORM_REFERENCE_COMPARE_GOLDEN_PERTURBATIONS_H_

#include <functional>
#include <string>
#include <vector>

#include "reference/graph/golden_json.h"

namespace tdc::compare::testing {

struct Perturbation {
  // The field kind, e.g. "node.target", "tensor.element.within_tolerance".
  std::string kind;
  // The one path the comparator must report, e.g.
  // compiled["torch-2.13"].invocations[1].dynamo_graph.nodes[2].target; empty when the
  // perturbed document must compare equal (within tolerance, meta).
  std::string path;
  // `--mask` names each of which must hide the difference: every field on the path, and
  // `aten` under aten_graph or aten_error.
  std::vector<std::string> masks;
  // Changes one field of the document's JSON; the result is still a valid document.
  std::function<void(graph::Json&)> apply;
};

// All perturbations of `document` (the JSON of a valid golden), in document order.
std::vector<Perturbation> EnumeratePerturbations(const graph::Json& document);

}  // namespace tdc::compare::testing

#endif  // TDCONFORM_REFERENCE_COMPARE_GOLDEN_PERTURBATIONS_H_
