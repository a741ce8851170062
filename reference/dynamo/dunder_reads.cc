// A dunder attribute (`__name__`, `__qualname__`, `__module__` ...) of a function, read in
// traced code. Dynamo answers a few as constants (a builtin's `__name__`; a user function's
// `__name__`, `__module__`, `__doc__`, `__defaults__`, `__code__`, `__dict__`,
// `__wrapped__`), and makes a GetAttrVariable of the others, whose later use depends on the
// callable (probed on torch 2.13.0: `len(torch.sin.__name__)` and `len(f.__qualname__)`
// raise inside the trace and the frame runs eagerly, uncompiled; `f.__qualname__ == "f"` is
// False; `.count(...)` of it breaks the graph; torch._dynamo.graph_break's `__name__` is a
// constant but its `__qualname__` is not). The reference refuses those (DESIGN D13).
// An attribute the program set on a function (`helper.scale = 3`), read or asked for by
// hasattr(), is refused too: torch guards a value read and recompiles once it changes
// (probed), but keeps a hasattr() answer unguarded (probed: `hasattr(helper, "tag")` stays
// False after `helper.tag = 1`); the reference's cache entries track neither.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

namespace {

using runtime::PyBuiltin;
using runtime::PyFunction;

bool StartsWithTorch(std::string_view module) {
  return module == "torch" || module.starts_with("torch.");
}

// Whether `object` is a callable other than CPython's builtins (len, operator.add) and the
// program's functions: torch's ops (torch.sin, Tensor.add, a packet or overload of
// torch.ops, a namespaced builtin), torch functions written in Python
// (torch.nn.functional.relu, torch.compiler.disable), and the runtime's builtin methods
// (str.upper), whose dunder reads under Dynamo were not probed.
bool IsLibraryCallable(runtime::Interpreter& in, const Value& object) {
  if (runtime::apis::IsTorchInGraphByName(object)) return true;
  if (const auto* b = DynCast<PyBuiltin>(object)) {
    return !b->cpython_function && in.process().builtins()->GetAttr(b->name()) != object;
  }
  if (const auto* f = DynCast<PyFunction>(object)) {
    const auto* module = DynCast<runtime::PyStr>(f->module);
    return module != nullptr && StartsWithTorch(module->value());
  }
  return false;
}

// The dunder attributes Dynamo reads as constants of a program's function.
constexpr std::string_view kUserFunctionConstants[] = {
    "__name__", "__module__", "__doc__", "__defaults__", "__code__", "__dict__", "__wrapped__"};

// Whether Dynamo answers `object.name` as a constant; nullopt when `object` is no function.
std::optional<bool> DynamoReadsConstant(runtime::Interpreter& in, const Value& object,
                                        std::string_view name) {
  // A bound method's attributes other than its own two are its function's (not probed
  // further: x.add.__name__ is a GetAttrVariable as torch.Tensor.add.__name__ is).
  if (const auto* m = DynCast<runtime::PyMethod>(object)) {
    if (name == "__self__" || name == "__func__") return std::nullopt;
    return DynamoReadsConstant(in, m->function, name);
  }
  if (!Is<PyFunction>(object) && !Is<PyBuiltin>(object) &&
      !runtime::apis::IsTorchInGraphByName(object)) {
    return std::nullopt;
  }
  if (IsLibraryCallable(in, object)) return false;
  if (Is<PyBuiltin>(object)) return name == "__name__";
  return std::ranges::find(kUserFunctionConstants, name) != std::end(kUserFunctionConstants);
}

}  // namespace

void Dynamo::OnDunderRead(const Value& object, std::string_view name) {
  if (Tracing() == nullptr) return;
  // Dynamo reads a program function's __dict__ as a constant it does not guard: its cached
  // graph keeps what the dict held (probed: `f.__dict__.get("scale", 3)` stays 3 after
  // `f.scale = 5`), which the reference's cache hits, running the code again, do not.
  const auto* method = DynCast<runtime::PyMethod>(object);
  const Value& function = method != nullptr ? method->function : object;
  if (name == "__dict__" && Is<PyFunction>(function) && !IsLibraryCallable(in_, function)) {
    runtime::RefuseNotModeled(
        "reading a function's __dict__ in traced code is not modeled (Dynamo reads it as a "
        "constant it does not guard)");
  }
  if (DynamoReadsConstant(in_, object, name).value_or(true)) return;
  runtime::RefuseNotModeled(fmt::format(
      "reading {} of {} in traced code is not modeled (Dynamo's GetAttrVariable: what it "
      "allows depends on the callable)",
      name, FunctionReprOf(object)));
}

void Dynamo::OnFunctionAttributeRead(const runtime::PyFunction& function, std::string_view name) {
  // torch's own functions (the library's, native here) keep theirs.
  if (Tracing() == nullptr || function.is_native()) return;
  runtime::RefuseNotModeled(fmt::format(
      "reading the attribute '{}' of a function, or asking hasattr() for it, in traced code "
      "is not modeled (torch guards a value read, not a hasattr() answer)",
      name));
}

}  // namespace tdc::dynamo
