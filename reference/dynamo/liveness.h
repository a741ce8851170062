// Which locals of a frame are live at a graph break (spec §3.3): the bound ones torch
// 2.13.0's livevars_analysis finds from the instruction the resume function starts at (a
// call's next one, a jump's target, a checkpoint's first one; code_layout.h). Dynamo passes
// exactly these (in co_varnames order) to the resume function, and the graph outputs the
// computed ones (R-graph-outputs).
#ifndef TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_
#define TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_

#include <string>
#include <vector>

#include "reference/dynamo/code_layout.h"
#include "reference/lang/ast.h"
#include "reference/runtime/interp/scopes.h"

namespace tdc::dynamo {

// The fast locals of `scope` (the function whose code is `layout`) live at instruction `at`,
// in co_varnames order.
std::vector<std::string> LiveLocalsAt(const runtime::Scope& scope, const CodeLayout& layout,
                                      size_t at);

// Whether `call`'s value is what the frame returns at once (`return f(x)`, a lambda's
// body): no resume function follows it (spec §3.3).
bool ReturnedAtOnce(const lang::Node& def, const lang::Stmt* stmt, const lang::Call& call);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_
