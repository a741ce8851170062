// torch.ops.aten.<op>.<overload>(...) called directly: already an ATen node. A packet
// call (torch.ops.aten.<op>(...)) is resolved to the overload its arguments select. A custom
// op's node is already its ATen node too.
#include <algorithm>

#include "reference/aot/lowering.h"
#include "reference/runtime/values.h"

namespace tdc::aot {
namespace {

// The overload a packet call reaches: pow by its exponent's kind, a binary op's Tensor
// overload (a Python number is wrapped), a unary op's default.
std::string PacketOverload(std::string_view op, const CallArgs& args) {
  const bool binary = args.positional.size() >= 2;
  if (op == "pow")
    return binary && runtime::Is<runtime::PyTensor>(args.positional[1]) ? "Tensor_Tensor"
                                                                        : "Tensor_Scalar";
  return binary ? "Tensor" : "default";
}

void EmitAsCalled(Recorder& r, const OpCall& call, std::string target) {
  std::vector<graph::Arg> args;
  for (const Value& v : call.args.positional) args.push_back(r.ArgOf(v));
  graph::OrderedMap<graph::Arg> kwargs;
  for (const auto& [name, v] : call.args.keywords) kwargs.emplace_back(name, r.ArgOf(v));
  r.Bind(call.result, r.Emit(std::move(target), std::move(args), std::move(kwargs)));
}

}  // namespace

void LowerAtenDirect(Recorder& r, const OpCall& call) {
  std::string target(call.site.target);
  if (std::count(target.begin(), target.end(), '.') == 1) {
    target += "." + PacketOverload(std::string_view(target).substr(5), call.args);
  }
  EmitAsCalled(r, call, std::move(target));
}

void LowerOpaque(Recorder& r, const OpCall& call) {
  EmitAsCalled(r, call, std::string(call.site.target));
}

}  // namespace tdc::aot
