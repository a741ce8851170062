// The modeled libraries, installed into a Process before a program runs: Python's
// builtins, torch's tensor functions and methods from the op table, and the eager
// behaviour of torch's compiler APIs.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_

#include <string_view>

#include "reference/runtime/types.h"
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
// under TORCHDYNAMO_DISABLE=1 (DESIGN D11): calls every installer below.
void InstallCompilerApisEager(Interpreter& in);
// torch.compile (apis_compile.cc).
void InstallCompileApi(Interpreter& in);
// torch.compiler.disable, torch._dynamo.disable, is_dynamo_disable_recursive (apis_disable.cc).
void InstallDisableApis(Interpreter& in);
// allow_in_graph, disallow_in_graph, forbid_in_graph, nonstrict_trace (apis_registries.cc).
void InstallRegistryApis(Interpreter& in);
// graph_break, skip_frame, step_unsupported and the is_compiling family (apis_markers.cc).
void InstallMarkerApis(Interpreter& in);
// torch._dynamo.substitute_in_graph and torch.compiler's (apis_substitute_in_graph.cc); called
// by InstallMarkerApis.
void InstallSubstituteInGraph(Interpreter& in);
// set_stance, error_on_graph_break, reset, config, mark_dynamic, run (apis_stances.cc).
void InstallStanceApis(Interpreter& in);
// torch._dynamo.config: its modeled keys with torch's defaults, and config.patch
// (apis_config.cc); called by InstallStanceApis.
void InstallDynamoConfig(Interpreter& in);
// A write of torch._dynamo.config.<name>: torch's AttributeError for a key it lacks, the
// reference's refusal for a key or (under Dynamo) a value it does not model (DESIGN D13).
// Returns the key's alias (cache_size_limit and recompile_limit are one setting in torch),
// which the write sets too, or null.
const char* CheckConfigWrite(Interpreter& in, std::string_view name, const Value& value);
// no_grad, enable_grad, set_grad_enabled, is_grad_enabled (apis_grad_mode.cc).
void InstallGradModeApis(Interpreter& in);
// torch.library.custom_op and register_fake, torch.ops, torch.cond (apis_library.cc).
void InstallLibraryApis(Interpreter& in);
// torch.ops.aten (torch_ops_aten.cc): __getattr__ of the op namespace and packet classes
// that apis_library.cc defines, making ATen packets and overloads on first access.
void InstallAtenOps(Interpreter& in, const Ref<PyType>& namespace_type,
                    const Ref<PyType>& packet_type, const Ref<PyType>& overload_type);
// functools, operator, weakref, contextlib, warnings, unittest, unittest.mock, os and re as
// fixtures use them (stdlib_modules.cc); the last five are filled on their first use.
void InstallStdlibModules(Interpreter& in);
// unittest.mock.patch.dict (unittest_mock.cc); os.environ is in os_environ.h.
void InstallUnittestMock(Interpreter& in);
// torch._dynamo.exc's exception classes, torch._dynamo.utils.counters and the
// torch._dynamo.eval_frame functions fixtures import (apis_dynamo_modules.cc).
void InstallDynamoModules(Interpreter& in);
// torch._dynamo.patch_dynamo_config, its errors (apis_patch_dynamo_config.cc); called by
// InstallDynamoModules.
void InstallPatchDynamoConfig(Interpreter& in);
// torch._dynamo.utils.counters over CompilerState::counters (apis_counters.cc).
void InstallDynamoCounters(Interpreter& in);
// torch._dynamo.types' FrameAction and FrameExecStrategy, eval_frame.set_code_exec_strategy
// (code_exec_strategy.cc); called by InstallDynamoModules.
void InstallCodeExecStrategy(Interpreter& in);
// str's methods (str_methods.cc); called by InstallBuiltinTypeConstructors.
void InstallStrMethods(Interpreter& in);
// The re module for the pattern syntax re_module.cc accepts (re_module.cc); called by
// InstallStdlibModules.
void InstallReModule(Interpreter& in);
// torch.nn.functional, torch.special, torch.linalg, torch.fft and the torch functions
// outside ops.def that fixtures call (torch_namespaces.cc).
void InstallTorchNamespaces(Interpreter& in);

// A builtin function object named by its __qualname__.
Value MakeBuiltin(Interpreter& in, std::string_view qualname, BuiltinCode code);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_LIBRARY_H_
