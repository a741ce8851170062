// Views and layout ops: sizes and dims as the program gave them (-1 kept), except where
// ATen's reshape of a non-contiguous input resolves the shape (a view when the strides
// allow it, else a clone and an _unsafe_view) and
// contiguous() of an already contiguous tensor (no node at all).
#include "reference/aot/args.h"
#include "reference/aot/lowering.h"
#include "reference/aot/reshape.h"

namespace tdc::aot {
namespace {

graph::Arg Self(Recorder& r, const OpCall& call) { return r.ArgOf(call.Given("self")); }

void EmitWithInts(Recorder& r, const OpCall& call, const char* target, const char* param) {
  r.Bind(call.result, r.Emit(target, {Self(r, call), IntList(call.Bound().Ints(param))}));
}

}  // namespace

void LowerView(Recorder& r, const OpCall& call) {
  EmitWithInts(r, call, "aten.view.default", "size");
}
void LowerPermute(Recorder& r, const OpCall& call) {
  EmitWithInts(r, call, "aten.permute.default", "dims");
}
void LowerExpand(Recorder& r, const OpCall& call) {
  EmitWithInts(r, call, "aten.expand.default", "size");
}

void LowerReshape(Recorder& r, const OpCall& call) {
  const runtime::Tensor& self = runtime::TensorOf(call.Given("self"));
  // A contiguous input is viewed with the shape as given, another viewable one with the
  // shape resolved.
  if (self.IsContiguous()) return EmitWithInts(r, call, "aten.view.default", "shape");
  if (call.Result().SharesStorageWith(self)) {
    return r.Bind(call.result,
                  r.Emit("aten.view.default", {Self(r, call), IntList(call.Result().sizes)}));
  }
  int64_t clone =
      r.Emit("aten.clone.default", {Self(r, call)}, {{"memory_format", ContiguousFormat()}});
  r.Bind(call.result, r.Emit("aten._unsafe_view.default",
                             {graph::Arg::Ref(clone), IntList(call.Result().sizes)}));
}

void LowerTranspose(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  r.Bind(call.result,
         r.Emit("aten.transpose.int", {Self(r, call), graph::Arg::Int(bound.Int("dim0")),
                                       graph::Arg::Int(bound.Int("dim1"))}));
}

void LowerSqueeze(Recorder& r, const OpCall& call) {
  runtime::BoundArgs bound = call.Bound();
  if (bound.IsNone("dim"))
    return r.Bind(call.result, r.Emit("aten.squeeze.default", {Self(r, call)}));
  r.Bind(call.result,
         r.Emit("aten.squeeze.dim", {Self(r, call), graph::Arg::Int(bound.Int("dim"))}));
}

void LowerUnsqueeze(Recorder& r, const OpCall& call) {
  r.Bind(call.result, r.Emit("aten.unsqueeze.default",
                             {Self(r, call), graph::Arg::Int(call.Bound().Int("dim"))}));
}

void LowerContiguous(Recorder& r, const OpCall& call) {
  // Already contiguous: the result is the input itself (Recorder knows that object).
  if (call.result == call.Given("self")) return;
  r.Bind(call.result,
         r.Emit("aten.clone.default", {Self(r, call)}, {{"memory_format", ContiguousFormat()}}));
}

void LowerClone(Recorder& r, const OpCall& call) {
  r.Bind(call.result, r.Emit("aten.clone.default", {Self(r, call)}));
}

void LowerCat(Recorder& r, const OpCall& call) {
  std::vector<graph::Arg> args = {r.ArgOf(call.Given("tensors"))};
  args.front().kind = graph::ValueKind::kList;  // a tuple of tensors is a Tensor[] too
  int64_t dim = call.Bound().Int("dim");
  if (dim != 0) args.push_back(graph::Arg::Int(dim));
  r.Bind(call.result, r.Emit("aten.cat.default", std::move(args)));
}

}  // namespace tdc::aot
