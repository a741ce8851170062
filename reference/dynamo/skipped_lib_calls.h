// Calls of torch's own functions that Dynamo skips rather than traces (skipped_lib_functions.def):
// each is a graph break with torch's "skipped function" text (R-skipped-lib-call).
#ifndef TDCONFORM_REFERENCE_DYNAMO_SKIPPED_LIB_CALLS_H_
#define TDCONFORM_REFERENCE_DYNAMO_SKIPPED_LIB_CALLS_H_

#include <optional>
#include <string>

#include "reference/dynamo/messages.h"
#include "reference/runtime/values.h"

namespace tdc::dynamo {

// A function's __module__ as a string ("None" when it is not one).
std::string ModuleNameOf(const runtime::PyFunction& f);
// The break of a call of one of torch's own functions that Dynamo skips (none for others).
std::optional<BreakText> SkippedLibCallText(const runtime::Value& callee);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_SKIPPED_LIB_CALLS_H_
