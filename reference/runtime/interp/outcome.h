// What a run ended with, in the golden schema (fixtures/SCHEMA.md §5-§6): the module's
// `out*` names as Values and the uncaught exception.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_OUTCOME_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_OUTCOME_H_

#include <optional>
#include <string>

#include "reference/graph/golden.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

// SCHEMA §5: a module-level name matching ^out(_\w+|\d+)?$ is recorded.
bool IsOutName(std::string_view name);
// SCHEMA §6.
graph::Value ToGoldenValue(const Value& v);
graph::Value ToGoldenValue(const Tensor& t);
// SCHEMA §5 Exception: qualified type name (builtins dropped) and str(exc).
graph::Exception ToGoldenException(const Value& exception);
// How the module body ended: the exception that ended it (null when none), or the
// reference's refusal (DESIGN D13), which no `except` of the program could catch.
struct ModuleEnd {
  Value exception;
  std::optional<graph::Unsupported> unsupported;
};

// The outs of `globals` in name order, and how the module ended (its exception or the
// reference's refusal). An out or message no golden can record (nested too deep, a lone
// surrogate) is refused as not modeled, located at `file`:1:1 (`file` as messages show it).
graph::Outcome MakeOutcome(const PyDict& globals, const ModuleEnd& end, const std::string& file);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_OUTCOME_H_
