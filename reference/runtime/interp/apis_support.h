// Helpers shared by the eager compiler-API installers (apis_*.cc): torch's Python-level
// library functions as `function` objects, CPython's argument binding with its TypeError
// texts, callable(), functools.wraps.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_APIS_SUPPORT_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_APIS_SUPPORT_H_

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_binding.h"
#include "reference/runtime/interp/py_ops.h"

namespace tdc::runtime::apis {

// One parameter of a modeled `def`.
struct Param {
  std::string_view name;
  bool has_default = false;
  bool kwonly = false;
};

// Binds `args` to `params` as CPython 3.11 binds a def's parameters (py_binding.h), with
// its TypeError texts naming `qualname`. Positional parameters with defaults must be the
// last positional ones. Unbound parameters with defaults come back null, in `params` order.
inline std::vector<Value> BindParams(Interpreter& in, std::string_view qualname,
                                     const std::vector<Param>& params, const CallArgs& args) {
  ParamSpec spec;
  std::vector<size_t> source;  // spec order (positional, then keyword-only) -> params index
  for (size_t pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].kwonly != (pass == 1)) continue;
      source.push_back(i);
      if (pass == 0) {
        spec.positional.emplace_back(params[i].name);
        if (params[i].has_default) ++spec.positional_defaults;
      } else {
        spec.keyword_only.emplace_back(params[i].name);
        spec.keyword_only_has_default.push_back(params[i].has_default);
      }
    }
  }
  BoundCall call = BindCall(in.heap(), qualname, spec, args);
  std::vector<Value> bound(params.size());
  for (size_t k = 0; k < source.size(); ++k) bound[source[k]] = std::move(call.params[k]);
  return bound;
}

// A module namespace for library functions whose module the runtime has no module object
// for ("torch._dynamo.decorators"): a dict holding __name__, as the function's globals.
inline Value LibGlobals(Interpreter& in, std::string_view module_name) {
  if (std::optional<ModuleId> id = ModuleByName(module_name)) {
    return Value(Ref<PyDict>(&in.process().modules()[*id]->dict()));
  }
  Ref<PyDict> globals = in.heap().NewDict();
  globals->SetStr("__name__", in.heap().Intern(module_name));
  return globals;
}

// A torch function written in Python (type 'function'): `qualname`'s last part is its name.
inline Ref<PyFunction> MakeLibFunction(Interpreter& in, const Value& globals,
                                       std::string_view qualname, NativeCode code,
                                       Value closure = nullptr) {
  std::string_view name =
      qualname.substr(qualname.rfind('.') == std::string_view::npos ? 0 : qualname.rfind('.') + 1);
  Ref<PyFunction> fn = in.heap().NewFunction(std::move(code), in.heap().Intern(name),
                                             in.heap().Intern(qualname), globals);
  fn->closure = std::move(closure);
  return fn;
}

// callable(v).
inline bool IsCallable(Interpreter& in, const Value& v) {
  return Is<PyFunction>(v) || Is<PyBuiltin>(v) || Is<PyMethod>(v) || Is<PyType>(v) ||
         (Is<PyInstance>(v) && LookupMethod(in, v, "__call__"));
}

// repr(type(v)): "<class 'int'>".
inline std::string TypeRepr(Interpreter& in, const Value& v) {
  return fmt::format("<class '{}'>", in.process().types().Of(v)->QualifiedName());
}

// getattr(v, name, None) as a null Value when absent, read by the reference itself (a
// marker, a wrapper's name): not a read of the program (Interpreter::InternalLookup).
inline Value GetAttrOrNull(Interpreter& in, const Value& v, std::string_view name) {
  Interpreter::InternalLookup internal(in);
  try {
    return in.GetAttr(v, name);
  } catch (const PyError& e) {
    if (e.type() != ExcType::kAttributeError) throw;
    return nullptr;
  }
}

// functools.update_wrapper(wrapper, wrapped): __module__, __name__, __qualname__, __doc__
// (those `wrapped` has), then __dict__.update(wrapped.__dict__), then __wrapped__.
// (__annotations__ is not modeled: PyFunction has no annotations.)
inline void UpdateWrapper(Interpreter& in, const Value& wrapper, const Value& wrapped) {
  for (std::string_view attr : {"__module__", "__name__", "__qualname__", "__doc__"}) {
    Value v = GetAttrOrNull(in, wrapped, attr);
    if (!v && attr == "__module__") {
      // Builtins: torch's C functions live in torch, the others in builtins.
      if (const auto* b = DynCast<PyBuiltin>(wrapped)) {
        v = in.heap().Intern(b->name().rfind("_VariableFunctionsClass.", 0) == 0 ? "torch"
                                                                                 : "builtins");
      }
    }
    if (v) in.SetAttr(wrapper, attr, v);
  }
  Ref<PyDict> dict;
  if (const auto* f = DynCast<PyFunction>(wrapped)) dict = f->attrs;
  if (const auto* i = DynCast<PyInstance>(wrapped)) dict = i->attrs;
  if (dict) {
    for (auto& [k, v] : dict->Items()) {
      if (const auto* s = DynCast<PyStr>(k)) in.SetAttr(wrapper, s->value(), v);
    }
  }
  in.SetAttr(wrapper, "__wrapped__", wrapped);
}

// torch's innermost_fn: follows _torchdynamo_orig_callable while the wrapper's
// _torchdynamo_wrapper_id is its own id.
inline Value InnermostFn(Interpreter& in, Value fn) {
  while (true) {
    Value orig = GetAttrOrNull(in, fn, markers::kOrigCallable);
    if (!orig) return fn;
    Value wid = GetAttrOrNull(in, fn, markers::kWrapperId);
    const auto* w = DynCast<PyInt>(wid);
    if (w == nullptr || static_cast<ObjectId>(w->value()) != fn->id()) return fn;
    fn = orig;
    if (!IsCallable(in, fn)) {
      Raise(in.heap(), ExcType::kAssertionError,
            fmt::format("A callable function is expected, but {} is provided.", TypeRepr(in, fn)));
    }
  }
}

// Whether Dynamo's trace rules name `fn` a torch in-graph function (torch.add, Tensor.add).
inline bool IsTorchInGraphByName(const Value& fn) {
  if (const auto* i = DynCast<PyInstance>(fn)) {
    // torch.ops' OpOverloadPacket and OpOverload, aten's and custom ops' alike (probed: a
    // custom op's packet can be disallowed, its CustomOpDef cannot).
    return i->type->module == "torch._ops" &&
           (i->type->name == "OpOverloadPacket" || i->type->name == "OpOverload");
  }
  const auto* b = DynCast<PyBuiltin>(fn);
  return b != nullptr && (b->name().rfind("_VariableFunctionsClass.", 0) == 0 ||
                          b->name().rfind("Tensor.", 0) == 0);
}

}  // namespace tdc::runtime::apis

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_APIS_SUPPORT_H_
