// torch._dynamo.exc, torch._dynamo.utils and torch._dynamo.eval_frame as far as fixtures
// import them: exc's exception classes (exceptions.def, the classes the runtime raises),
// utils.counters (apis_counters.cc), eval_frame.innermost_fn; eval_frame._set_stance is
// apis_stances.cc's.
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

}  // namespace

void InstallDynamoModules(Interpreter& in) {
  InstallExcClasses(in);
  InstallDynamoCounters(in);
  InstallInnermostFn(in);
}

}  // namespace tdc::runtime
