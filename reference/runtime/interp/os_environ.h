// os.environ as the reference models it: the variables a program set or deleted are known;
// the others are the machine's, unknown, and reading one is refused (DESIGN D13). The one
// exception is TORCHDYNAMO_DISABLE, which the oracle sets to "1" for the eager run and
// removes for the compile runs (conformance/oracle/child.py, server.py), and which
// torch.compile reads (torch._dynamo.optimize, eval_frame.py of torch 2.13.0).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_OS_ENVIRON_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_OS_ENVIRON_H_

#include <optional>
#include <string>

#include "reference/runtime/interp/interpreter.h"

namespace tdc::runtime {

// The variables the program set (a value) or deleted (nullopt) since the run began.
using EnvironChanges = decltype(Process::environ_changes);

// Whether `v` is os.environ.
bool IsEnviron(Interpreter& in, const Value& v);
// What unittest.mock.patch.dict saves on entering and puts back on leaving.
EnvironChanges SaveEnviron(Interpreter& in);
void RestoreEnviron(Interpreter& in, EnvironChanges saved);
// os.environ[key] = value, with CPython's TypeError for a key or value not a str.
void SetEnvironVariable(Interpreter& in, const Value& key, const Value& value);
// Whether torch.compile hands back the model itself (TORCHDYNAMO_DISABLE == "1"). The
// eager run is torch under TORCHDYNAMO_DISABLE=1: a program that changes that there is
// refused.
bool DynamoDisabledByEnviron(Interpreter& in);

// The os module's environ (os_environ.cc).
void InstallOs(Interpreter& in);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_OS_ENVIRON_H_
