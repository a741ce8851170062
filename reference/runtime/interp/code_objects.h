// CPython code objects as far as the reference models them: `fn.__code__` of a function the
// program defined, one object per def (as CPython shares a def's code among the functions
// made from it), its `co_name`, and the def it stands for (set_code_exec_strategy).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_CODE_OBJECTS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_CODE_OBJECTS_H_

#include "reference/runtime/interp/interpreter.h"

namespace tdc::runtime {

// `f.__code__`; refused for a library function and while a compiled region runs (Dynamo
// would trace the read).
Value CodeObjectOf(Interpreter& in, const PyFunction& f);
// The def whose code `v` is; null when `v` is not a code object.
const lang::Node* DefOfCodeObject(Interpreter& in, const Value& v);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_CODE_OBJECTS_H_
