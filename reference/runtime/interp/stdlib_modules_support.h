// Helpers the library installers share (stdlib_modules.cc, apis_stances.cc, apis_grad_mode.cc,
// apis_library.cc, torch_namespaces.cc) beyond apis_support.h: library classes and
// their methods, and calling within a context manager.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_

#include <functional>
#include <string_view>

#include "reference/runtime/interp/apis_support.h"

namespace tdc::runtime {

// A library class (a subclass of object) named `module.name`.
Ref<PyType> LibraryClass(Interpreter& in, std::string_view name, std::string_view module);
// Adds a method (a builtin receiving self first) to a library class.
void AddMethod(Interpreter& in, const Ref<PyType>& type, std::string_view name, BuiltinCode code);
// A library class whose other attributes (those the reference does not give it) are
// refused, not AttributeError: `<module>.<Class>.<name> is not modeled` (DESIGN D13).
void RefuseOtherAttributes(Interpreter& in, const Ref<PyType>& type);
// Refuses `what` (e.g. "os.environ") while a compiled region runs: Dynamo traces the library's
// Python code there, which the reference does not model.
void RefuseInCompiledRegion(Interpreter& in, std::string_view what);
// The positional argument `index`, or the keyword `name`, or null.
Value ArgOrKeyword(const CallArgs& args, size_t index, std::string_view name);
// The `with ctx: return fn(*args, **kwargs)` body of a context-manager decorator.
Value CallWithin(Interpreter& in, const Value& manager, const Value& fn, CallArgs args);
// torch.utils._contextlib.context_decorator: a `decorate_context` function that runs
// fn inside a fresh context manager from `factory`, renamed after fn by functools.wraps.
Value ContextDecorator(Interpreter& in, const Ref<PyDict>& globals, std::function<Value()> factory,
                       const Value& fn);
// Whether `v` is a function ContextDecorator made with torch.utils._contextlib's globals (a
// grad mode's decorate_context; Dynamo calls these as torch does).
bool IsContextWrapper(const Value& v);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_STDLIB_MODULES_SUPPORT_H_
