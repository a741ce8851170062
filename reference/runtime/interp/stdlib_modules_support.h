// Helpers the library installers share (stdlib_modules.cc, apis_stances.cc,
// apis_library.cc, torch_namespaces.cc): Python functions and classes that modeled
// libraries define, and functools.update_wrapper, which several of them apply.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_

#include <string_view>

#include "reference/runtime/interp/interpreter.h"

namespace tdc::runtime {

// A module namespace for functions a library defines in Python: a dict holding only
// `__name__`, so that functions made with it report that __module__. Made once at install
// time and shared by every function of that module.
Ref<PyDict> LibraryGlobals(Interpreter& in, std::string_view module);
// A Python function (type `function`) whose body is native code.
Ref<PyFunction> LibraryFunction(Interpreter& in, const Ref<PyDict>& globals, std::string_view name,
                                std::string_view qualname, NativeCode code);
// A library class (a subclass of object) named `module.name`.
Ref<PyType> LibraryClass(Interpreter& in, std::string_view name, std::string_view module);
// Adds a method (a builtin receiving self first) to a library class.
void AddMethod(Interpreter& in, const Ref<PyType>& type, std::string_view name, BuiltinCode code);
// functools.update_wrapper(wrapper, wrapped): copies __module__, __name__, __qualname__,
// __doc__ (each when wrapped has it), updates wrapper.__dict__ from wrapped's, then sets
// wrapper.__wrapped__. Returns wrapper.
Value UpdateWrapper(Interpreter& in, const Value& wrapper, const Value& wrapped);
// The positional argument `index`, or the keyword `name`, or null.
Value ArgOrKeyword(const CallArgs& args, size_t index, std::string_view name);
// The `with ctx: return fn(*args, **kwargs)` body of a context-manager decorator.
Value CallWithin(Interpreter& in, const Value& manager, const Value& fn, CallArgs args);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_
