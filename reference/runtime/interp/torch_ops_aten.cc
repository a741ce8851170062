// torch.ops.aten: the ATen operators of ops.def called directly, as torch 2.13.0's
// _OpNamespace makes them on first access: `torch.ops.aten.add` is an OpOverloadPacket,
// `torch.ops.aten.add.Tensor` an OpOverload (the overloads of aten_overloads.def). Each
// computes with its ops.def row and is one graph node named `aten.add` / `aten.add.Tensor`
// (SEMANTICS §8.6). ATen ops sit below Dynamo: disallow_in_graph does not reach them.
#include <fmt/format.h>

#include <sstream>

#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/interp/tensor_values.h"

namespace tdc::runtime {
namespace {

struct AtenOverloads {
  std::string_view op;
  std::string_view overloads;  // space-separated
};

constexpr AtenOverloads kAtenOverloads[] = {
#define TDC_ATEN_OVERLOADS(op, overloads) {#op, overloads},
#include "reference/runtime/aten_overloads.def"
#undef TDC_ATEN_OVERLOADS
};

const AtenOverloads* FindAtenOp(std::string_view op) {
  for (const AtenOverloads& row : kAtenOverloads) {
    if (row.op == op) return &row;
  }
  return nullptr;
}

bool HasOverload(const AtenOverloads& row, std::string_view overload) {
  std::istringstream words{std::string(row.overloads)};
  std::string word;
  while (words >> word) {
    if (word == overload) return true;
  }
  return false;
}

// The callable behind a packet or an overload: the op row, named `target` in graphs.
Value AtenFunction(Interpreter& in, const OpInfo& op, std::string target) {
  return MakeBuiltin(in, target, [&in, &op, target](CallArgs& args) {
    Surface surface = op.function.empty() ? Surface::kMethod : Surface::kFunction;
    return CallTensorOpAt(in, {false, target}, op, surface, std::move(args));
  });
}

Value MakeOverload(Interpreter& in, const Ref<PyType>& overload_type, const OpInfo& op,
                   std::string_view name, std::string_view overload) {
  Ref<PyInstance> result = in.heap().NewInstance(overload_type);
  result->attrs->SetStr("_name", in.heap().Str(fmt::format("aten::{}", name)));
  result->attrs->SetStr("_overloadname", in.heap().Str(std::string(overload)));
  result->attrs->SetStr("__name__", in.heap().Str(fmt::format("{}.{}", name, overload)));
  result->attrs->SetStr("_fn", AtenFunction(in, op, fmt::format("aten.{}.{}", name, overload)));
  result->repr = fmt::format("<OpOverload(op='aten.{}', overload='{}')>", name, overload);
  return result;
}

Value MakePacket(Interpreter& in, const Ref<PyType>& packet_type, const OpInfo& op,
                 std::string_view name) {
  Ref<PyInstance> packet = in.heap().NewInstance(packet_type);
  packet->attrs->SetStr("_qualified_op_name", in.heap().Str(fmt::format("aten::{}", name)));
  packet->attrs->SetStr("__name__", in.heap().Str(std::string(name)));
  packet->attrs->SetStr("_fn", AtenFunction(in, op, fmt::format("aten.{}", name)));
  packet->repr = fmt::format("<OpOverloadPacket(op='aten.{}')>", name);
  return packet;
}

const std::string& StrArg(const CallArgs& args, size_t i) {
  return DynCast<PyStr>(args.positional.at(i))->value();
}

}  // namespace

void InstallAtenOps(Interpreter& in, const Ref<PyType>& namespace_type,
                    const Ref<PyType>& packet_type, const Ref<PyType>& overload_type) {
  // _OpNamespace.__getattr__: aten's ops are made (and cached) on first access; a
  // custom op's namespace holds its ops already.
  AddMethod(in, namespace_type, "__getattr__", [&in, packet_type](CallArgs& args) -> Value {
    auto* ns = DynCast<PyInstance>(args.positional.at(0));
    const std::string& op_name = StrArg(args, 1);
    const auto* ns_name = DynCast<PyStr>(ns->attrs->GetStr("name"));
    const AtenOverloads* row = FindAtenOp(op_name);
    if (ns_name == nullptr || ns_name->value() != "torch.ops.aten" || row == nullptr ||
        op_name.starts_with("__")) {
      std::string short_name =
          ns_name != nullptr ? ns_name->value().substr(ns_name->value().rfind('.') + 1) : "";
      Raise(in.heap(), ExcType::kAttributeError,
            fmt::format("'_OpNamespace' '{}' object has no attribute '{}'", short_name, op_name));
    }
    Value packet = MakePacket(in, packet_type, *FindOp(op_name), op_name);
    ns->attrs->SetStr(op_name, packet);
    return packet;
  });
  // OpOverloadPacket.__getattr__: its overloads, made on first access.
  AddMethod(in, packet_type, "__getattr__", [&in, overload_type](CallArgs& args) -> Value {
    auto* packet = DynCast<PyInstance>(args.positional.at(0));
    const std::string& overload = StrArg(args, 1);
    const auto* name = DynCast<PyStr>(packet->attrs->GetStr("__name__"));
    const AtenOverloads* row = name != nullptr ? FindAtenOp(name->value()) : nullptr;
    if (row == nullptr || !HasOverload(*row, overload)) {
      Raise(in.heap(), ExcType::kAttributeError,
            fmt::format("The underlying op of '{}' has no overload name '{}'",
                        name != nullptr ? "aten." + name->value() : std::string("?"), overload));
    }
    Value result = MakeOverload(in, overload_type, *FindOp(name->value()), name->value(), overload);
    packet->attrs->SetStr(overload, result);
    return result;
  });
}

}  // namespace tdc::runtime
