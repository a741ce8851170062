// Factories: the values and sizes as given, an explicit dtype when one was given, then
// AOT autograd's device=cpu and pin_memory=False; torch.tensor(data) is a constant of
// the graph module copied in with lift_fresh_copy.
#include "reference/aot/args.h"
#include "reference/aot/lowering.h"
#include "reference/runtime/values.h"

namespace tdc::aot {
namespace {

bool IsGiven(const Value& v) { return v && !runtime::Is<runtime::PyNone>(v); }

// dtype (when given), then device and pin_memory; `like` factories have a device only when
// the call gave one (the only one modeled is "cpu", tensor_values.cc).
graph::OrderedMap<graph::Arg> FactoryKwargs(Recorder& r, const OpCall& call,
                                            bool with_device = true) {
  graph::OrderedMap<graph::Arg> kwargs;
  if (Value dtype = call.Given("dtype"); IsGiven(dtype))
    kwargs.emplace_back("dtype", r.ArgOf(dtype));
  if (with_device || IsGiven(call.Given("device"))) kwargs.emplace_back("device", CpuDevice());
  kwargs.emplace_back("pin_memory", graph::Arg::Bool(false));
  return kwargs;
}

}  // namespace

void LowerTensorFactory(Recorder& r, const OpCall& call) {
  r.Bind(call.result,
         r.Emit("aten.lift_fresh_copy.default", {graph::Arg::Ref(r.EmitConstant(call.result))}));
}

void LowerArange(Recorder& r, const OpCall& call) {
  Value start = call.Given("start"), end = call.Given("end"), step = call.Given("step");
  const bool has_end = IsGiven(end);
  if (!has_end) {  // arange(end)
    return r.Bind(call.result,
                  r.Emit("aten.arange.default", {r.ArgOf(start)}, FactoryKwargs(r, call)));
  }
  if (!step) {
    return r.Bind(call.result, r.Emit("aten.arange.start", {r.ArgOf(start), r.ArgOf(end)},
                                      FactoryKwargs(r, call)));
  }
  r.Bind(call.result,
         r.Emit("aten.arange.start_step", {r.ArgOf(start), r.ArgOf(end), r.ArgOf(step)},
                FactoryKwargs(r, call)));
}

void LowerLinspace(Recorder& r, const OpCall& call) {
  r.Bind(call.result, r.Emit("aten.linspace.default",
                             {r.ArgOf(call.Given("start")), r.ArgOf(call.Given("end")),
                              r.ArgOf(call.Given("steps"))},
                             FactoryKwargs(r, call)));
}

void LowerFull(Recorder& r, const OpCall& call) {
  r.Bind(call.result,
         r.Emit("aten.full.default",
                {IntList(call.Bound().Ints("size")), r.ArgOf(call.Given("fill_value"))},
                FactoryKwargs(r, call)));
}

void LowerOnesOrZeros(Recorder& r, const OpCall& call) {
  const char* target = call.site.op->name == "ones" ? "aten.ones.default" : "aten.zeros.default";
  r.Bind(call.result, r.Emit(target, {IntList(call.Bound().Ints("size"))}, FactoryKwargs(r, call)));
}

void LowerLikeFactory(Recorder& r, const OpCall& call) {
  std::string target = "aten." + std::string(call.site.op->name) + ".default";
  r.Bind(call.result,
         r.Emit(std::move(target), {r.ArgOf(call.Given("self"))}, FactoryKwargs(r, call, false)));
}

}  // namespace tdc::aot
