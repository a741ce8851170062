// patch_dynamo_config(...) as Dynamo traces it (variables/functions.py): its arguments as
// Python constants handed to the function itself, whose error (a bad key or value) Dynamo lets
// out as it lets out any (RaiseFromTracing); a patch it accepts is not modeled (the runtime
// refuses it).
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// Whether VariableTracker.as_python_constant() gives a value for `v`: a constant, a dtype, or a
// tuple, list or dict of such values.
bool HasPythonConstant(const Value& v) {
  if (IsPythonConstant(v) || Is<PyDType>(v)) return true;
  if (const auto* t = DynCast<PyTuple>(v))
    return std::ranges::all_of(t->items(), HasPythonConstant);
  if (const auto* l = DynCast<PyList>(v)) return std::ranges::all_of(l->items(), HasPythonConstant);
  if (const auto* d = DynCast<PyDict>(v)) {
    return std::ranges::all_of(d->Items(), [](const auto& item) {
      return HasPythonConstant(item.first) && HasPythonConstant(item.second);
    });
  }
  return false;
}

}  // namespace

Value Dynamo::TracePatchDynamoConfigCall(const Value& callee, CallArgs& args) {
  bool constants = std::ranges::all_of(args.positional, HasPythonConstant) &&
                   std::ranges::all_of(args.keywords,
                                       [](const auto& kw) { return HasPythonConstant(kw.second); });
  // Dynamo's RuntimeError shows each argument's VariableTracker, lazy or realized: not modeled.
  if (!constants) {
    RefuseNotModeled("patch_dynamo_config() traced with an argument that is not a Python constant");
  }
  // The function's own code, run directly: a call through the interpreter would come back here.
  auto& function = *DynCast<PyFunction>(callee);
  try {
    return std::get<NativeCode>(function.code)(function, args);
  } catch (const PyError& error) {
    Explain("patch_dynamo_config() traced with a patch it rejects: its error, wrapped by Dynamo");
    RaiseFromTracing(error);
  }
}

}  // namespace tdc::dynamo
