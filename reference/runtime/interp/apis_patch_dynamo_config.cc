// torch._dynamo.patch_dynamo_config(arg1=None, arg2=None, **kwargs), torch/_dynamo/decorators.py:
// the changes as torch._dynamo.config.patch takes them, then checked against the keys it allows
// and is_safe_constant. Only its errors are modeled: a patch it accepts changes Dynamo's config
// while Dynamo traces, which the reference does not model (refused, DESIGN D13).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// decorators.py's _allowed_config_patches.
constexpr std::array<std::string_view, 8> kAllowedPatches = {"verbose",
                                                             "verify_correctness",
                                                             "rewrite_assert_with_torch_assert",
                                                             "capture_scalar_outputs",
                                                             "allow_unspec_int_on_nn_module",
                                                             "skip_torchrec",
                                                             "dont_skip_tracing",
                                                             "nested_graph_breaks"};

// torch._dynamo.utils.is_safe_constant for the values the runtime has: the common constant
// types (None, bool, int, float, str, Ellipsis, torch.dtype), a slice, a type, and tuples of
// them.
bool IsSafeConstant(const Value& v) {
  if (const auto* t = DynCast<PyTuple>(v)) return std::ranges::all_of(t->items(), IsSafeConstant);
  return Is<PyNone>(v) || Is<PyBool>(v) || Is<PyInt>(v) || Is<PyFloat>(v) || Is<PyStr>(v) ||
         Is<PyDType>(v) || Is<PyType>(v) || IsEllipsis(v) || SliceOf(v).has_value();
}

// config.patch's `changes` (torch/utils/_config_module.py): its AssertionErrors as it raises them.
Ref<PyDict> ChangesOf(Interpreter& in, const Value& arg1, const Value& arg2,
                      const Ref<PyDict>& kwargs) {
  auto fail = [&in](std::string_view message) {
    Raise(in.heap(), ExcType::kAssertionError, message);
  };
  if (Is<PyNone>(arg1)) {
    if (!Is<PyNone>(arg2)) {
      fail("second positional argument is only valid when first argument is a key string");
    }
    return kwargs;
  }
  if (!Is<PyNone>(arg2)) {
    if (!Is<PyStr>(arg1)) {
      fail("first argument must be a string when passing 2 positional args to patch");
    }
    if (!kwargs->Items().empty())
      fail("cannot pass both positional and keyword arguments to patch");
    Ref<PyDict> changes = in.heap().NewDict();
    changes->Set(arg1, arg2);
    return changes;
  }
  if (Is<PyTuple>(arg1)) {
    RefuseNotModeled("torch._dynamo.patch_dynamo_config with a tuple of pairs is not modeled");
  }
  if (!Is<PyDict>(arg1))
    fail("first argument must be a dict when passing a single positional arg to patch");
  if (!kwargs->Items().empty()) fail("cannot pass both positional and keyword arguments to patch");
  return Ref<PyDict>(DynCast<PyDict>(arg1));
}

// The def's binding: (arg1=None, arg2=None, **kwargs), CPython's TypeErrors.
Value PatchDynamoConfig(Interpreter& in, CallArgs& args) {
  if (args.positional.size() > 2) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("patch_dynamo_config() takes from 0 to 2 positional arguments but {} were "
                      "given",
                      args.positional.size()));
  }
  Value named[2] = {args.positional.size() > 0 ? args.positional[0] : nullptr,
                    args.positional.size() > 1 ? args.positional[1] : nullptr};
  Ref<PyDict> kwargs = in.heap().NewDict();
  for (const auto& [name, value] : args.keywords) {
    if (name != "arg1" && name != "arg2") {
      kwargs->SetStr(name, value);
      continue;
    }
    Value& slot = named[name == "arg1" ? 0 : 1];
    if (slot) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("patch_dynamo_config() got multiple values for argument '{}'", name));
    }
    slot = value;
  }
  const Value arg1 = named[0] ? named[0] : in.heap().None();
  const Value arg2 = named[1] ? named[1] : in.heap().None();
  for (const auto& [key, value] : ChangesOf(in, arg1, arg2, kwargs)->Items()) {
    std::string name = ProgramStr(key);
    if (std::ranges::find(kAllowedPatches, name) == kAllowedPatches.end()) {
      Raise(in.heap(), ExcType::kValueError,
            fmt::format("patch_dynamo_config does not support patching config {}", name));
    }
    if (!IsSafeConstant(value)) {
      Raise(in.heap(), ExcType::kValueError,
            fmt::format("patch_dynamo_config does not support patching config {} with "
                        "non-safe-constant value {}",
                        name, ProgramStr(value)));
    }
  }
  RefuseNotModeled(
      "torch._dynamo.patch_dynamo_config with a patch it allows (Dynamo's config changed while it "
      "traces) is not modeled");
}

}  // namespace

void InstallPatchDynamoConfig(Interpreter& in) {
  in.process().modules()[ModuleId::kTorchDynamo]->SetAttr(
      "patch_dynamo_config",
      apis::MakeLibFunction(
          in, apis::LibGlobals(in, "torch._dynamo.decorators"), "patch_dynamo_config",
          [&in](PyFunction&, CallArgs& args) { return PatchDynamoConfig(in, args); }));
}

}  // namespace tdc::runtime
