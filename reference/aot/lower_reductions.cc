// Reductions and the fft: the overload follows whether a dim was given; keepdim=True
// is written, False (the default) is not; the fft's dim is normalized.
#include <fmt/format.h>

#include "reference/aot/args.h"
#include "reference/aot/lowering.h"
#include "reference/runtime/tensor.h"

namespace tdc::aot {
namespace {

graph::Arg Self(Recorder& r, const OpCall& call) { return r.ArgOf(call.Given("self")); }

// [self, dims] and keepdim when it is True.
std::vector<graph::Arg> WithDims(Recorder& r, const OpCall& call, const runtime::BoundArgs& bound) {
  std::vector<graph::Arg> args = {Self(r, call), IntList(bound.Ints("dim"))};
  if (bound.Bool("keepdim")) args.push_back(graph::Arg::Bool(true));
  return args;
}

}  // namespace

void LowerSumOrMean(Recorder& r, const OpCall& call) {
  std::string_view op = call.site.op->name;
  runtime::BoundArgs bound = call.Bound();
  if (bound.IsNone("dim"))
    return r.Bind(call.result, r.Emit(fmt::format("aten.{}.default", op), {Self(r, call)}));
  const char* target = op == "sum" ? "aten.sum.dim_IntList" : "aten.mean.dim";
  r.Bind(call.result, r.Emit(target, WithDims(r, call, bound)));
}

void LowerAmax(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  if (bound.Ints("dim").empty())
    return r.Bind(call.result, r.Emit("aten.amax.default", {Self(r, call)}));
  r.Bind(call.result, r.Emit("aten.amax.default", WithDims(r, call, bound)));
}

void LowerMax(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  if (bound.IsNone("dim")) return r.Bind(call.result, r.Emit("aten.max.default", {Self(r, call)}));
  std::vector<graph::Arg> args = {Self(r, call), graph::Arg::Int(bound.Int("dim"))};
  if (bound.Bool("keepdim")) args.push_back(graph::Arg::Bool(true));
  int64_t pair = r.Emit("aten.max.dim", std::move(args));
  // (values, indices): one getitem node per item (an unused one is dead code).
  const auto& items = runtime::DynCast<runtime::PyTuple>(call.result)->items();
  for (size_t i = 0; i < items.size(); ++i) {
    r.Bind(items[i], r.Emit("operator.getitem",
                            {graph::Arg::Ref(pair), graph::Arg::Int(static_cast<int64_t>(i))}));
  }
}

void LowerVectorNorm(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  // Arguments up to the last one given a non-default value.
  std::vector<graph::Arg> args = {Self(r, call)};
  const bool keepdim = bound.Bool("keepdim");
  const bool dim = !bound.IsNone("dim") || keepdim;
  Value ord = call.Given("ord");
  if (ord || dim) args.push_back(ord ? r.ArgOf(ord) : graph::Arg::Int(2));
  if (dim) args.push_back(bound.IsNone("dim") ? graph::Arg::None() : IntList(bound.Ints("dim")));
  if (keepdim) args.push_back(graph::Arg::Bool(true));
  r.Bind(call.result, r.Emit("aten.linalg_vector_norm.default", std::move(args)));
}

void LowerFft(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  if (!bound.IsNone("n")) return r.Unsupported("torch.fft.fft with n");
  const runtime::Tensor& self = runtime::TensorOf(call.Given("self"));
  int64_t dim = runtime::WrapDim(bound.Int("dim"), static_cast<int64_t>(self.sizes.size()));
  // norm "backward" is 0; onesided=False: the full spectrum.
  int64_t complex = r.Emit("aten._fft_r2c.default", {Self(r, call), IntList({dim}),
                                                     graph::Arg::Int(0), graph::Arg::Bool(false)});
  // The op's result is view_as_real of the complex tensor (SEMANTICS §5.6).
  r.Bind(call.result, r.Emit("aten.view_as_real.default", {graph::Arg::Ref(complex)}));
}

void LowerComplexPart(Recorder& r, const OpCall& call) {
  const Value& pair = call.args.positional.at(0);
  const auto* name = runtime::DynCast<runtime::PyStr>(call.args.positional.at(1));
  const int64_t last = static_cast<int64_t>(runtime::TensorOf(pair).sizes.size()) - 1;
  r.Bind(call.result,
         r.Emit("aten.select.int", {r.ArgOf(pair), graph::Arg::Int(last),
                                    graph::Arg::Int(name->value() == "real" ? 0 : 1)}));
}

}  // namespace tdc::aot
