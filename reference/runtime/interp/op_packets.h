// torch.ops' namespaces, OpOverloadPackets and OpOverloads as the reference makes them for
// torch.library.custom_op's ops (apis_library.cc) and torch.library.Library's
// (apis_torch_library.cc), and how a call of one reaches its kernel.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_OP_PACKETS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_OP_PACKETS_H_

#include <memory>
#include <string>
#include <string_view>

#include "reference/runtime/interp/interpreter.h"

namespace tdc::runtime {

struct LibraryTypes {
  Ref<PyType> custom_op_def, op_namespace, packet, overload;
};

// Set on a destroyed Library and on the ops it had defined.
inline constexpr std::string_view kDestroyed = "_tdc_destroyed";
// True on a Library op whose kernel torch.library.register_kernel registered (torch runs it
// with Dynamo disabled, as a custom op's), False for Library.impl's.
inline constexpr std::string_view kKernelDisablesDynamo = "_tdc_kernel_disables_dynamo";

// torch.ops.<name>, made on first use (a refusal when the program replaced it).
PyInstance& MakeNamespace(Interpreter& in, const LibraryTypes& types, std::string_view name);

// `v` as an instance of `type`; anything else (the program can put any object where the
// reference keeps these) is refused, `what` naming the place.
PyInstance& InstanceOf(const Value& v, const Ref<PyType>& type, std::string_view what);

// The packet torch.ops.<ns>.<op> in namespace `ns`, or null when that is no packet.
PyInstance* PacketIn(const LibraryTypes& types, const PyInstance& ns, std::string_view op);

// Sets `attr` on a packet and on its default overload (null: takes it away).
void SetOnOp(const LibraryTypes& types, PyInstance& packet, std::string_view attr,
             const Value& value);

// torch.ops.<ns>.<op>: an OpOverloadPacket with its `default` OpOverload, both calling `fn`
// (null until a kernel is registered).
Ref<PyInstance> MakeOpPacket(Interpreter& in, const LibraryTypes& types, const std::string& ns_name,
                             const std::string& op_name, const Value& fn);

// A call of a packet, overload or CustomOpDef (args[0]): its kernel, stored in `field`.
Value CallStored(Interpreter& in, CallArgs& args, std::string_view field);

// torch.library.Library, impl, _scoped_library, register_fake and register_kernel
// (apis_torch_library.cc).
void InstallTorchLibrary(Interpreter& in, const std::shared_ptr<LibraryTypes>& types);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_OP_PACKETS_H_
