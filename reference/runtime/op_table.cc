#include "reference/runtime/op_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_kernels.h"

namespace tdc::runtime {
namespace {

const std::vector<OpInfo>& Table() {
  static const std::vector<OpInfo> table = {
#define TDC_OP(name, Kernel, function, method, python_operator, signature, traits) \
  OpInfo{#name,                                                                    \
         &kernels::Kernel,                                                         \
         function,                                                                 \
         method,                                                                   \
         python_operator,                                                          \
         ParseSignature(signature),                                                \
         static_cast<uint32_t>(traits)},
#include "reference/runtime/ops.def"
#undef TDC_OP
  };
  return table;
}

template <typename Field>
const OpInfo* FindBy(Field field, std::string_view value) {
  if (value.empty()) return nullptr;
  const auto& table = Table();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const OpInfo& op) { return op.*field == value; });
  return it == table.end() ? nullptr : &*it;
}

}  // namespace

size_t OpInfo::RequiredArity() const {
  return static_cast<size_t>(std::count_if(signature.params.begin(), signature.params.end(),
                                           [](const Param& p) { return !p.default_value; }));
}

std::span<const OpInfo> AllOps() { return Table(); }
const OpInfo* FindOp(std::string_view name) { return FindBy(&OpInfo::name, name); }
const OpInfo* FindFunction(std::string_view dotted_name) {
  return FindBy(&OpInfo::function, dotted_name);
}
const OpInfo* FindMethod(std::string_view method_name) {
  return FindBy(&OpInfo::method, method_name);
}
const OpInfo* FindPythonOperator(std::string_view dotted_name) {
  return FindBy(&OpInfo::python_operator, dotted_name);
}

OpValue CallOp(const OpInfo& op, Surface surface, std::vector<OpValue> positional,
               std::vector<std::pair<std::string, OpValue>> keywords) {
  std::string_view shown = surface == Surface::kMethod ? op.method : op.name;
  BoundArgs args = Bind(op.signature, shown, surface, std::move(positional), std::move(keywords));
  // A factory's requires_grad=True makes a leaf autograd tracks: its graphs (AOT autograd's
  // training graph) and its gradients are not modeled (D13).
  if (op.Has(kFactory) && args.Bool("requires_grad")) {
    RefuseNotModeled(fmt::format("{}(requires_grad=True) is not modeled", shown));
  }
  return op.kernel(args);
}

}  // namespace tdc::runtime
