// Tensor indexing (operator.getitem of a tensor): AOT autograd records the ops torch's
// indexing ran, one node each (reference/runtime/indexing.h): aten.select.int(self, dim,
// index), aten.slice.Tensor(self, dim, start, end[, step]) with start and end as
// __PySlice_Unpack gave them (None is 0 / 2**63-1) and step only when not 1,
// aten.unsqueeze.default, aten.alias.default (nothing else ran), then
// aten.index.Tensor(self, [None | index, ...]). Golden indexing/basic_views.
#include <fmt/format.h>

#include "reference/aot/lowering.h"
#include "reference/runtime/interp/tensor_items.h"

namespace tdc::aot {

void LowerTensorIndex(Recorder& r, const OpCall& call) {
  const Value& self = call.args.positional.at(0);
  const runtime::IndexKey key =
      runtime::IndexKeyOf(runtime::TensorOf(self), call.args.positional.at(1));
  if (!runtime::TraceableIndex(key))
    return r.Unsupported("an index with a bool, a mask, a 0-dim tensor or a list");
  const runtime::Indexed indexed =
      runtime::ApplyIndex(runtime::TensorOf(self), key.items, key.tuple);
  graph::Arg at = r.ArgOf(self);
  using Kind = runtime::IndexingStep::Kind;
  for (const runtime::IndexingStep& step : indexed.steps) {
    int64_t node = 0;
    switch (step.kind) {
      case Kind::kSelect:
        node =
            r.Emit("aten.select.int", {at, graph::Arg::Int(step.dim), graph::Arg::Int(step.index)});
        break;
      case Kind::kSlice: {
        std::vector<graph::Arg> args = {at, graph::Arg::Int(step.dim), graph::Arg::Int(step.start),
                                        graph::Arg::Int(step.end)};
        if (step.step != 1) args.push_back(graph::Arg::Int(step.step));
        node = r.Emit("aten.slice.Tensor", std::move(args));
        break;
      }
      case Kind::kUnsqueeze:
        node = r.Emit("aten.unsqueeze.default", {at, graph::Arg::Int(step.dim)});
        break;
      case Kind::kAlias:
        node = r.Emit("aten.alias.default", {at});
        break;
      case Kind::kIndex: {
        std::vector<graph::Arg> indices;
        for (int64_t item : step.from_item) {
          indices.push_back(item < 0 ? graph::Arg::None()
                                     : r.ArgOf(key.values.at(static_cast<size_t>(item))));
        }
        node = r.Emit("aten.index.Tensor",
                      {at, graph::Arg::Sequence(graph::ValueKind::kList, std::move(indices))});
        break;
      }
    }
    at = graph::Arg::Ref(node);
  }
  r.Bind(call.result, at.integer);
}

}  // namespace tdc::aot
