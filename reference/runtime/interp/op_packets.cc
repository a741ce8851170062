#include "reference/runtime/interp/op_packets.h"

#include <fmt/format.h>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// A Library op's CPU kernel. torch's dispatcher calls it as it is: Dynamo is not disabled
// around one Library.impl registered, as it is around custom_op's and register_kernel's, and
// the reference does not model a kernel's frames offered to Dynamo.
Value CallLibraryKernel(Interpreter& in, const PyInstance& op, CallArgs args) {
  const std::string name = ProgramStr(op.attrs->GetStr("__name__"));
  Value kernel = op.attrs->GetStr("_fn");
  if (!kernel || op.attrs->GetStr(kDestroyed)) {
    RefuseNotModeled(fmt::format(
        "calling torch.library op {} without a CPU kernel or after its Library was destroyed "
        "(torch's NotImplementedError)",
        name));
  }
  if (op.attrs->GetStr(kKernelDisablesDynamo) == in.heap().True()) {
    EvalFrameCallbackScope no_callback(in.process().compiler, nullptr);
    return in.Call(kernel, std::move(args));
  }
  if (in.process().compiler.eval_frame_callback) {
    RefuseNotModeled(
        fmt::format("a torch.library.Library kernel ({}) run with Dynamo's callback set", name));
  }
  return in.Call(kernel, std::move(args));
}

}  // namespace

PyInstance& MakeNamespace(Interpreter& in, const LibraryTypes& types, std::string_view name) {
  PyModule& ops = *in.process().modules()[ModuleId::kTorchOps];
  if (Value existing = ops.GetAttr(name)) {
    return InstanceOf(existing, types.op_namespace, fmt::format("torch.ops.{}", name));
  }
  Ref<PyInstance> ns = in.heap().NewInstance(types.op_namespace);
  ns->attrs->SetStr("name", in.heap().Str("torch.ops." + std::string(name)));
  ops.SetAttr(name, ns);
  return *ns;
}

PyInstance& InstanceOf(const Value& v, const Ref<PyType>& type, std::string_view what) {
  auto* instance = DynCast<PyInstance>(v);
  if (instance == nullptr || instance->type != type) {
    RefuseNotModeled(fmt::format("{} replaced by a {} (the reference keeps a {} there)", what,
                                 v ? std::string(TypeName(v)) : "missing value",
                                 type->QualifiedName()));
  }
  return *instance;
}

PyInstance* PacketIn(const LibraryTypes& types, const PyInstance& ns, std::string_view op) {
  auto* packet = DynCast<PyInstance>(ns.attrs->GetStr(op));
  return packet != nullptr && packet->type == types.packet ? packet : nullptr;
}

void SetOnOp(const LibraryTypes& types, PyInstance& packet, std::string_view attr,
             const Value& value) {
  PyInstance& overload =
      InstanceOf(packet.attrs->GetStr("default"), types.overload, "an op packet's `default`");
  for (PyInstance* op : {&packet, &overload}) {
    if (value) {
      op->attrs->SetStr(attr, value);
    } else {
      op->attrs->EraseStr(attr);
    }
  }
}

Ref<PyInstance> MakeOpPacket(Interpreter& in, const LibraryTypes& types, const std::string& ns_name,
                             const std::string& op_name, const Value& fn) {
  PyInstance& ns = MakeNamespace(in, types, ns_name);
  Ref<PyInstance> packet = in.heap().NewInstance(types.packet);
  packet->attrs->SetStr("_qualified_op_name", in.heap().Str(ns_name + "::" + op_name));
  packet->attrs->SetStr("__name__", in.heap().Str(op_name));
  // A packet's __qualname__ is its pybind11 function's (probed on the torch 2.13.0 CPU
  // wheel); functools.wraps copies it into disable()'s wrapper.
  packet->attrs->SetStr(
      "__qualname__",
      in.heap().Str(
          "pybind11_detail_function_record_v1_system_libstdcpp_gxx_abi_1xxx_use_cxx11_abi_1." +
          op_name));
  packet->attrs->SetStr("__module__", in.heap().Str("torch._ops." + ns_name));
  if (fn) packet->attrs->SetStr("_fn", fn);
  packet->repr = fmt::format("<OpOverloadPacket(op='{}.{}')>", ns_name, op_name);
  Ref<PyInstance> overload = in.heap().NewInstance(types.overload);
  overload->attrs->SetStr("_name", in.heap().Str(ns_name + "::" + op_name));
  overload->attrs->SetStr("_overloadname", in.heap().Intern("default"));
  overload->attrs->SetStr("__name__", in.heap().Str(op_name + ".default"));
  overload->attrs->SetStr("__qualname__", in.heap().Str(ns_name + "::" + op_name));
  overload->attrs->SetStr("__module__", in.heap().Str("torch._ops." + ns_name));
  if (fn) overload->attrs->SetStr("_fn", fn);
  overload->repr = fmt::format("<OpOverload(op='{}.{}', overload='default')>", ns_name, op_name);
  packet->attrs->SetStr("default", overload);
  ns.attrs->SetStr(op_name, packet);
  return packet;
}

// The op's function, run with Dynamo's callback off: torch disables Dynamo around a custom
// op's implementation, so its frame is never offered (golden custom_op/disallowed_custom_op).
Value CallStored(Interpreter& in, CallArgs& args, std::string_view field) {
  Value self = args.positional[0];
  args.positional.erase(args.positional.begin());
  const auto* op_instance = DynCast<PyInstance>(self);
  if (op_instance == nullptr) RefuseNotModeled("an op's __call__ called on another object");
  const PyInstance& op = *op_instance;
  if (op.attrs->GetStr(markers::kDefinedByLibrary))
    return CallLibraryKernel(in, op, std::move(args));
  EvalFrameCallbackScope no_callback(in.process().compiler, nullptr);
  return in.Call(op.attrs->GetStr(field), std::move(args));
}

}  // namespace tdc::runtime
