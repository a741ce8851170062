#include "reference/aot/lowering.h"

#include <fmt/format.h>

#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/values.h"

namespace tdc::aot {
namespace {

using Function = void (*)(Recorder&, const OpCall&);

struct Row {
  std::string_view op;
  Function lower;
};

constexpr Row kLowerings[] = {
#define TDC_LOWERING(op, function) {#op, &function},
#include "reference/aot/lowerings.def"
#undef TDC_LOWERING
};

}  // namespace

Value OpCall::Given(std::string_view name) const {
  const auto& params = site.op->signature.params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name != name) continue;
    if (!params[i].keyword_only && i < args.positional.size()) return args.positional[i];
    for (const auto& [key, v] : args.keywords) {
      if (key == name) return v;
    }
    return nullptr;
  }
  return nullptr;
}

runtime::BoundArgs OpCall::Bound() const {
  runtime::OpArgs converted = runtime::ToOpArgs(site.op->name, args);
  return runtime::Bind(site.op->signature, site.op->name,
                       site.method ? runtime::Surface::kMethod : runtime::Surface::kFunction,
                       std::move(converted.positional), std::move(converted.keywords));
}

const runtime::Tensor& OpCall::Result() const { return runtime::TensorOf(result); }

void Lower(Recorder& r, const OpCall& call) {
  std::string_view target = call.site.target;
  if (call.site.opaque) return LowerOpaque(r, call);
  if (target.starts_with("aten.")) return LowerAtenDirect(r, call);
  if (target == "torch.maximum" || target == "torch.minimum") return LowerExtreme(r, call);
  if (target == "builtins.getattr") return LowerComplexPart(r, call);
  if (target == "operator.getitem") return LowerTensorIndex(r, call);
  if (call.site.op != nullptr) {
    for (const Row& row : kLowerings) {
      if (row.op == call.site.op->name) return row.lower(r, call);
    }
  }
  r.Unsupported(fmt::format("a call of {}", target));
}

}  // namespace tdc::aot
