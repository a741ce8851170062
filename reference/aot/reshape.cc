#include "reference/aot/reshape.h"

#include "reference/aot/args.h"
#include "reference/runtime/views.h"

namespace tdc::aot {

Traced EmitReshape(Recorder& r, const Traced& t, const runtime::Shape& shape) {
  runtime::Tensor result = runtime::Reshape(t.tensor, shape);
  if (result.SharesStorageWith(t.tensor)) {
    return {graph::Arg::Ref(r.Emit("aten.view.default", {t.ref, IntList(shape)})), result};
  }
  int64_t clone = r.Emit("aten.clone.default", {t.ref}, {{"memory_format", ContiguousFormat()}});
  return {graph::Arg::Ref(
              r.Emit("aten._unsafe_view.default", {graph::Arg::Ref(clone), IntList(shape)})),
          result};
}

}  // namespace tdc::aot
