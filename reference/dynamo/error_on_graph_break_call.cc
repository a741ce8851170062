// error_on_graph_break(...) as Dynamo traces it: one Python bool, or its RuntimeError
// (wrapped as InternalTorchDynamoError) naming the arguments it was given.
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// Whether error_on_graph_break(...) binds to one Python bool, as Dynamo requires of a call
// it traces (variables/functions.py: the signature bound, then `isinstance(..., bool)`).
bool BindsToOneBool(const CallArgs& args) {
  const size_t given = args.positional.size() + args.keywords.size();
  if (given != 1) return false;
  if (!args.keywords.empty() && args.keywords[0].first != "error_on_graph_break") return false;
  return Is<PyBool>(args.positional.empty() ? args.keywords[0].second : args.positional[0]);
}

}  // namespace

void Dynamo::CheckErrorOnGraphBreakCall(const CallArgs& args) {
  if (BindsToOneBool(args)) return;
  bool constants = std::ranges::all_of(args.positional, IsPythonConstant) &&
                   std::ranges::all_of(args.keywords,
                                       [](const auto& kw) { return IsPythonConstant(kw.second); });
  // The message shows each argument's VariableTracker; only a constant's repr is modeled.
  if (!constants) {
    RefuseNotModeled(
        "error_on_graph_break() traced with an argument that is not a Python constant");
  }
  Explain("error_on_graph_break() traced without one bool argument: Dynamo's RuntimeError");
  RaiseWithUserCode(ExcType::kInternalTorchDynamoError,
                    fmt::format("RuntimeError: Improper error_on_graph_break() call. Please fix "
                                "your call to error_on_graph_break(). args: {}, kwargs: {}",
                                VariableList(args.positional), VariableDict(args.keywords)));
}

}  // namespace tdc::dynamo
