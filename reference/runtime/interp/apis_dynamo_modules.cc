// torch._dynamo.exc, torch._dynamo.utils, torch._dynamo.eval_frame, torch._dynamo.decorators
// and torch._dynamo.testing as far as fixtures import them: exc's exception classes
// (exceptions.def, the classes the runtime raises), utils.counters (apis_counters.cc),
// eval_frame.innermost_fn; eval_frame._set_stance is apis_stances.cc's; decorators' own
// leaf_function is apis_registries.cc's.
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"

namespace tdc::runtime {
namespace {

void InstallExcClasses(Interpreter& in) {
  PyModule& exc = *in.process().modules()[ModuleId::kTorchDynamoExc];
  for (const Ref<PyType>& type : in.process().types().exceptions()) {
    if (type->module == ModuleName(ModuleId::kTorchDynamoExc)) exc.SetAttr(type->name, type);
  }
}

// def innermost_fn(fn): torch/_dynamo/eval_frame.py.
void InstallInnermostFn(Interpreter& in) {
  in.process().modules()[ModuleId::kTorchDynamoEvalFrame]->SetAttr(
      "innermost_fn", apis::MakeLibFunction(in, apis::LibGlobals(in, "torch._dynamo.eval_frame"),
                                            "innermost_fn", [&in](PyFunction&, CallArgs& args) {
                                              Value fn = apis::BindParams(in, "innermost_fn",
                                                                          {{"fn"}}, args)[0];
                                              return apis::InnermostFn(in, fn);
                                            }));
}

// torch._dynamo takes these from torch._dynamo.decorators (`from .decorators import ...`),
// and decorators these from eval_frame and torch.compiler: each is the same object in both
// modules (probed on torch 2.13.0). A name the runtime lacks stays out of decorators too,
// refused there as in torch._dynamo (torch_names.def).
void InstallDecoratorsModule(Interpreter& in) {
  const Modules& modules = in.process().modules();
  PyModule& decorators = *modules[ModuleId::kTorchDynamoDecorators];
  auto share = [&decorators](const PyModule& from, std::initializer_list<std::string_view> names) {
    for (std::string_view name : names) {
      if (Value v = from.GetAttr(name)) decorators.SetAttr(name, v);
    }
  };
  share(*modules[ModuleId::kTorchDynamo], {"allow_c_slot",
                                           "allow_in_graph",
                                           "assume_constant_result",
                                           "disable",
                                           "disable_nested_graph_breaks",
                                           "disallow_in_graph",
                                           "dont_skip_tracing",
                                           "error_on_graph_break",
                                           "forbid_in_graph",
                                           "graph_break",
                                           "is_dynamo_disable_recursive",
                                           "mark_dynamic",
                                           "mark_static",
                                           "mark_static_address",
                                           "maybe_mark_dynamic",
                                           "nonstrict_trace",
                                           "override_cudagraphs",
                                           "override_optimization_hint",
                                           "patch_dynamo_config",
                                           "reset_code",
                                           "run",
                                           "set_stance",
                                           "skip_frame",
                                           "step_unsupported",
                                           "substitute_in_graph"});
  share(*modules[ModuleId::kTorchDynamoEvalFrame], {"innermost_fn", "_set_stance"});
  share(*modules[ModuleId::kTorchCompiler], {"is_compiling"});
  decorators.SetAttr("torch", modules[ModuleId::kTorch]);  // `import torch`
}

// def _skipped_function_for_test_reconstruct(f, *args, **kwargs): return f(*args, **kwargs)
// (torch/_dynamo/testing.py), a function Dynamo skips (skipped_lib_functions.def).
void InstallTestingModule(Interpreter& in) {
  in.process().modules()[ModuleId::kTorchDynamoTesting]->SetAttr(
      "_skipped_function_for_test_reconstruct",
      apis::MakeLibFunction(
          in, apis::LibGlobals(in, "torch._dynamo.testing"),
          "_skipped_function_for_test_reconstruct", [&in](PyFunction&, CallArgs& args) -> Value {
            ParamSpec spec;
            spec.positional = {"f"};
            spec.varargs = spec.varkw = true;
            BoundCall call =
                BindCall(in.heap(), "_skipped_function_for_test_reconstruct", spec, args);
            return in.Call(call.params[0],
                           {std::move(call.extra_positional), std::move(call.extra_keywords)});
          }));
}

}  // namespace

void InstallDynamoModules(Interpreter& in) {
  InstallExcClasses(in);
  InstallDynamoCounters(in);
  InstallInnermostFn(in);
  InstallPatchDynamoConfig(in);
  InstallDecoratorsModule(in);
  InstallTestingModule(in);
  InstallCodeExecStrategy(in);
}

}  // namespace tdc::runtime
