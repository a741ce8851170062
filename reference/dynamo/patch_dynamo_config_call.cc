// patch_dynamo_config(...) as Dynamo traces it (variables/functions.py): its arguments as
// Python constants handed to the function itself, whose error (a bad key or value) Dynamo lets
// out as it lets out any (RaiseFromTracing); a patch it accepts is not modeled (the runtime
// refuses it).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/skipped_lib_calls.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// Whether VariableTracker.as_python_constant() gives a value for `v`: a constant, a dtype, or a
// tuple, list or dict of such values.
bool HasPythonConstant(const Value& v) {
  runtime::CheckStackLeft();
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

// How Dynamo's message shows an argument (VariableTracker's repr), where the reference knows it:
// a constant the trace did not receive, or a tensor or object() the frame received, realized by
// as_python_constant (probed: `LazyVariableTracker(realized: ObjectVariable())`).
std::optional<std::string> ShownArgument(const Trace& t, const PyType& object_type,
                                         const Value& v) {
  const bool received = t.Received(v);
  if (IsPythonConstant(v) && !received) return VariableRepr(v);
  if (!received) return std::nullopt;
  if (Is<PyTensor>(v)) return "LazyVariableTracker(realized: TensorVariable())";
  const auto* i = DynCast<PyInstance>(v);
  if (i != nullptr && i->type.get() == &object_type) {
    return "LazyVariableTracker(realized: ObjectVariable())";
  }
  return std::nullopt;
}

}  // namespace

bool IsPatchDynamoConfig(const Value& v) {
  // The runtime's own function (native code), not whatever a program bound to the name.
  const auto* f = DynCast<PyFunction>(v);
  return f != nullptr && f->is_native() && f->qualname_text() == "patch_dynamo_config" &&
         ModuleNameOf(*f) == "torch._dynamo.decorators";
}

Value Dynamo::TracePatchDynamoConfigCall(const Value& callee, CallArgs& args) {
  bool constants = std::ranges::all_of(args.positional, HasPythonConstant) &&
                   std::ranges::all_of(args.keywords,
                                       [](const auto& kw) { return HasPythonConstant(kw.second); });
  if (!constants) {
    // Dynamo's RuntimeError, naming every argument's VariableTracker.
    const Trace& t = *Tracing();
    const PyType& object_type = *in_.process().types().object();
    auto shown = [&](const Value& v) {
      std::optional<std::string> text = ShownArgument(t, object_type, v);
      if (!text) {
        RefuseNotModeled(
            "patch_dynamo_config() traced with an argument that is not a Python constant (its "
            "VariableTracker, which Dynamo's error shows, is not modeled)");
      }
      return *text;
    };
    // Dynamo converts the arguments in order and stops at the first it cannot: a received one
    // after it is shown unrealized (its type, not modeled).
    bool failed = false;
    auto shown_in_order = [&](const Value& v) {
      if (failed && t.Received(v)) {
        RefuseNotModeled(
            "patch_dynamo_config() traced with a frame's value after an argument that is not a "
            "Python constant (Dynamo's error shows it unrealized)");
      }
      failed = failed || !HasPythonConstant(v);
      return shown(v);
    };
    std::vector<std::string> positional, keywords;
    for (const Value& v : args.positional) positional.push_back(shown_in_order(v));
    for (const auto& [name, v] : args.keywords) {
      keywords.push_back(fmt::format("'{}': {}", name, shown_in_order(v)));
    }
    Explain("patch_dynamo_config() traced with an argument that is not a Python constant");
    RaiseWithUserCode(
        ExcType::kInternalTorchDynamoError,
        fmt::format("RuntimeError: Cannot convert patch_dynamo_config args/kwargs to constants. "
                    "Please fix your call to patch_dynamo_config by using simpler inputs. args: "
                    "[{}], kwargs: {{{}}}",
                    fmt::join(positional, ", "), fmt::join(keywords, ", ")));
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
