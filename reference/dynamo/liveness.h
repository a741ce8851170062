// Which locals of a frame are live at a graph break (spec §3.3): the ones some path
// after the break reads before writing. Dynamo passes exactly these (in co_varnames
// order) to the resume function, and the graph outputs the computed ones (R-graph-outputs).
#ifndef TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_
#define TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_

#include <optional>
#include <string>
#include <vector>

#include "reference/lang/ast.h"
#include "reference/runtime/interp/scopes.h"

namespace tdc::dynamo {

// The fast locals of `scope` (the function `def`) live once `call`, made by statement
// `stmt` (null in a lambda), has returned; in co_varnames order. Loops and try blocks are
// approximated from above (a local read anywhere in them is live).
std::vector<std::string> LiveLocalsAfterCall(const runtime::Scope& scope, const lang::Node& def,
                                             const lang::Stmt* stmt, const lang::Call& call);

// The same while `call` is still running (a frame around a step graph break's frame, at its
// CALL instruction): the locals live after each with statement around it are live too, as
// its exception path may go on there (golden
// nested_graph_breaks/step_unsupported_under_outer_no_grad).
std::vector<std::string> LiveLocalsDuringCall(const runtime::Scope& scope, const lang::Node& def,
                                              const lang::Stmt* stmt, const lang::Call& call);

// The fast locals of `scope` (the function `def`) live when statement `stmt` begins (a
// step graph break's checkpoint), in co_varnames order.
std::vector<std::string> LiveLocalsBefore(const runtime::Scope& scope, const lang::FunctionDef& def,
                                          const lang::Stmt& stmt);

// The fast locals of `scope` (the function `def`) live once if or while statement `branch`
// of it has evaluated its test, in co_varnames order: where the block it runs begins
// (`runs_body`; a while's body goes on to its test again), or, with no block given, at the
// jump itself (live in either).
std::vector<std::string> LiveLocalsAtBranch(const runtime::Scope& scope,
                                            const lang::FunctionDef& def, const lang::Stmt& branch,
                                            std::optional<bool> runs_body);

// Whether `call`'s value is what the frame returns at once (`return f(x)`, a lambda's
// body): no resume function follows it (spec §3.3).
bool ReturnedAtOnce(const lang::Node& def, const lang::Stmt* stmt, const lang::Call& call);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_LIVENESS_H_
