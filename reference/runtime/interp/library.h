// The modeled libraries, installed into a Process before a program runs: Python's
// builtins, torch's tensor functions and methods from the op table, and the eager
// behaviour of torch's compiler APIs.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_

#include <string_view>

#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;

// builtins: functions, builtin types and exception classes; list/dict/str methods.
void InstallBuiltins(Interpreter& in);
// The builtin classes' constructors (int(x), list(it), type(x), range(n)) and methods
// (list.append, dict.get, ...); called by InstallBuiltins.
void InstallBuiltinTypeConstructors(Interpreter& in);
// torch.<function> and Tensor.<method> for every ops.def row; dtypes; torch.Tensor.
void InstallTorchOps(Interpreter& in);
// torch.compile, torch.compiler.*, torch._dynamo.* and friends as eager torch has them
// under TORCHDYNAMO_DISABLE=1 (DESIGN D11).
void InstallCompilerApisEager(Interpreter& in);

// A builtin function object named by its __qualname__.
Value MakeBuiltin(Interpreter& in, std::string_view qualname, BuiltinCode code);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_
