// Calls Dynamo keeps opaque at both levels (issue 12; the seed guide's Dynamo-vs-AOT table):
// a custom op made by torch.library.custom_op, called through its CustomOpDef or through
// torch.ops.<ns>.<op>[.default], is one node in the Dynamo graph (`<ns>.<op>.default`, or
// `<ns>.<op>` for the packet) and one `<ns>.<op>.default` node in the ATen graph; its
// implementation runs eagerly (register_fake's
// function only gives shapes, which the real run gives too).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::optional<std::string> CustomOpTarget(const Value& callee) {
  const auto* op = DynCast<PyInstance>(callee);
  if (op == nullptr) return std::nullopt;
  auto text = [&](const char* attr) -> std::string {
    const auto* s = DynCast<PyStr>(op->attrs->GetStr(attr));
    return s != nullptr ? s->value() : "";
  };
  const PyType& type = *op->type;
  std::string qualified;  // ns::op
  std::string overload = ".default";
  if (type.module == "torch._library.custom_ops" && type.name == "CustomOpDef") {
    qualified = text("_namespace") + "::" + text("_name");
  } else if (type.module == "torch._ops" && type.name == "OpOverloadPacket") {
    qualified = text("_qualified_op_name");
    overload = "";  // Dynamo's node is the packet; AOT autograd resolves it
  } else if (type.module == "torch._ops" && type.name == "OpOverload" && text("_overloadname") == "default") {
    qualified = text("_name");
  }
  size_t sep = qualified.find("::");
  if (sep == std::string::npos || qualified.starts_with("aten::")) return std::nullopt;
  return fmt::format("{}.{}{}", qualified.substr(0, sep), qualified.substr(sep + 2), overload);
}

Value Dynamo::CustomOpCall(const Value& callee, CallArgs& args, const std::string& target) {
  CallArgs as_called = args;
  Value result;
  {
    // The implementation runs inside the op: no frame of it is offered to Dynamo.
    EagerRegion eager(*this, true);
    result = in_.CallDirect(callee, std::move(args));
  }
  Fragment fragment{{}, {}, "no ATen lowering was given"};
  if (aten_ != nullptr) {
    std::unique_ptr<FragmentRecorder> recorder = aten_->Start(TensorsOf(as_called));
    // At the ATen level a packet's call is its default overload's.
    const std::string overload = target.ends_with(".default") ? target : target + ".default";
    OpCallSite site;
    site.target = overload;
    site.opaque = true;
    recorder->Record(site, as_called, result);
    fragment = recorder->Finish(result);
  }
  Tracing()->graph.AddCall(graph::NodeOp::kCallFunction, target, as_called, result, std::move(fragment));
  return result;
}

}  // namespace tdc::dynamo
