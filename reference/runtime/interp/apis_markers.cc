// graph_break, skip_frame, step_unsupported (no-ops eagerly: torch's bodies are a
// docstring), assume_constant_result (a mark) and the is_compiling family (False eagerly), as
// torch 2.13.0 defines them: Python functions, so their argument errors are CPython's.
// torch._utils_internal.justknobs_check is the killswitch flag: OSS torch returns `default`,
// and Dynamo inlines it (trace_rules: UserFunctionVariable), so a traced call adds nothing.
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/registries.h"

namespace tdc::runtime {
namespace {

Value Marker(Interpreter& in, const Value& globals, const std::string& name) {
  return apis::MakeLibFunction(in, globals, name,
                               [&in, name](PyFunction&, CallArgs& args) -> Value {
                                 apis::BindParams(in, name, {{"msg", true}}, args);
                                 return in.heap().None();
                               });
}

Value AlwaysFalse(Interpreter& in, const Value& globals, const std::string& name) {
  return apis::MakeLibFunction(in, globals, name,
                               [&in, name](PyFunction&, CallArgs& args) -> Value {
                                 apis::BindParams(in, name, {}, args);
                                 return in.heap().False();
                               });
}

// An API torch 2.13.0 has whose behaviour the reference does not model yet: present (so
// hasattr agrees with torch) but calling it raises NotImplementedError.
Value UnmodeledApi(Interpreter& in, const Value& globals, const std::string& name) {
  return apis::MakeLibFunction(in, globals, name, [name](PyFunction&, CallArgs&) -> Value {
    RefuseNotModeled(name + " is outside the reference");
  });
}

}  // namespace

void InstallMarkerApis(Interpreter& in) {
  const Modules& modules = in.process().modules();
  PyModule& dynamo = *modules[ModuleId::kTorchDynamo];
  PyModule& compiler = *modules[ModuleId::kTorchCompiler];
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  for (const char* name :
       {"graph_break", "skip_frame", "step_unsupported"}) {  // all three disallowed
    Value fn = Marker(in, decorators, name);
    dynamo.SetAttr(name, fn);
  }
  // The three are decorated with _disallow_in_graph_helper(throw_if_not_allowed=False):
  // their ids are in the disallowed set from import on.
  DynamoRegistries& reg = in.process().compiler.registries;
  reg.disallowed.insert(dynamo.GetAttr("graph_break")->id());
  reg.disallowed.insert(dynamo.GetAttr("skip_frame")->id());
  reg.disallowed.insert(dynamo.GetAttr("step_unsupported")->id());

  dynamo.SetAttr("dont_skip_tracing", UnmodeledApi(in, decorators, "dont_skip_tracing"));
  // def assume_constant_result(fn): fn._dynamo_marked_constant = True; return fn
  dynamo.SetAttr("assume_constant_result",
                 apis::MakeLibFunction(in, decorators, "assume_constant_result",
                                       [&in](PyFunction&, CallArgs& args) -> Value {
                                         Value fn = apis::BindParams(in, "assume_constant_result",
                                                                     {{"fn"}}, args)[0];
                                         in.SetAttr(fn, markers::kMarkedConstant, in.heap().True());
                                         return fn;
                                       }));
  InstallSubstituteInGraph(in);
  Value compiler_globals = apis::LibGlobals(in, "torch.compiler");
  for (const char* name : {"is_compiling", "is_dynamo_compiling", "is_exporting"}) {
    compiler.SetAttr(name, AlwaysFalse(in, compiler_globals, name));
  }
  dynamo.SetAttr(
      "is_compiling",
      AlwaysFalse(in, apis::LibGlobals(in, "torch._dynamo.external_utils"), "is_compiling"));
  modules[ModuleId::kTorchUtils]->SetAttr(
      "is_compiling", AlwaysFalse(in, apis::LibGlobals(in, "torch._utils"), "is_compiling"));
  modules[ModuleId::kTorchUtilsInternal]->SetAttr(
      "justknobs_check",
      apis::MakeLibFunction(in, apis::LibGlobals(in, "torch._utils_internal"), "justknobs_check",
                            [&in](PyFunction&, CallArgs& args) -> Value {
                              Value knob_default = apis::BindParams(
                                  in, "justknobs_check", {{"name"}, {"default", true}}, args)[1];
                              return knob_default ? knob_default : in.heap().True();
                            }));
  modules[ModuleId::kTorchJit]->SetAttr(
      "is_scripting", AlwaysFalse(in, apis::LibGlobals(in, "torch._jit_internal"), "is_scripting"));
}

}  // namespace tdc::runtime
