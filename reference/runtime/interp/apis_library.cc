// torch.library.custom_op (its CustomOpDef, register_fake and register_kernel) and torch.cond,
// as eager torch 2.13.0 has them under TORCHDYNAMO_DISABLE=1: calling a custom op (or its
// OpOverloadPacket / OpOverload) calls the decorated function, or the kernel register_kernel
// put in its place; torch.cond calls the branch its predicate selects.
#include <fmt/format.h>

#include <memory>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/op_packets.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

// torch._library.custom_ops.custom_op's registration: the CustomOpDef and
// torch.ops.<ns>.<op>.
Value DefineCustomOp(Interpreter& in, const LibraryTypes& types, const std::string& qualname,
                     const Value& fn) {
  size_t sep = qualname.find("::");
  if (sep == std::string::npos) {
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("Expected there to be a namespace in {}, i.e. The operator name should look "
                      "something like "
                      "ns::foo",
                      qualname));
  }
  std::string ns_name = qualname.substr(0, sep);
  std::string op_name = qualname.substr(sep + 2);
  Ref<PyInstance> def = in.heap().NewInstance(types.custom_op_def);
  def->attrs->SetStr("_namespace", in.heap().Str(ns_name));
  def->attrs->SetStr("_name", in.heap().Str(op_name));
  def->attrs->SetStr("_init_fn", fn);
  def->attrs->SetStr("_fn", fn);  // the kernel calls reach (register_kernel replaces it)
  Ref<PyInstance> packet = MakeOpPacket(in, types, ns_name, op_name, fn);
  // CustomOpDef._opoverload: the same OpOverload
  def->attrs->SetStr("_opoverload", packet->attrs->GetStr("default"));
  return def;
}

std::shared_ptr<LibraryTypes> InstallCustomOp(Interpreter& in) {
  auto types = std::make_shared<LibraryTypes>();
  types->custom_op_def = LibraryClass(in, "CustomOpDef", "torch._library.custom_ops");
  types->op_namespace = LibraryClass(in, "_OpNamespace", "torch._ops");
  types->packet = LibraryClass(in, "OpOverloadPacket", "torch._ops");
  types->overload = LibraryClass(in, "OpOverload", "torch._ops");
  AddMethod(in, types->custom_op_def, "__call__",
            [&in](CallArgs& args) { return CallStored(in, args, "_fn"); });
  // register_kernel(device_types, fn=None, /): the CPU kernel every call of the op reaches from
  // now on (torch runs it with Dynamo disabled, as the op's function); a decorator returning
  // its function when fn is omitted.
  AddMethod(in, types->custom_op_def, "register_kernel", [&in, types](CallArgs& args) -> Value {
    if (args.positional.size() < 2 || args.positional.size() > 3 || !args.keywords.empty() ||
        !Is<PyStr>(args.positional[1]) || ProgramStr(args.positional[1]) != "cpu") {
      RefuseNotModeled("CustomOpDef.register_kernel other than register_kernel(\"cpu\"[, fn])");
    }
    Ref<PyInstance> def(&InstanceOf(args.positional[0], types->custom_op_def, "CustomOpDef"));
    auto inner = [&in, types, def](const Value& fn) {
      def->attrs->SetStr("_fn", fn);
      PyInstance& ns = MakeNamespace(in, *types, ProgramStr(def->attrs->GetStr("_namespace")));
      PyInstance* packet = PacketIn(*types, ns, ProgramStr(def->attrs->GetStr("_name")));
      if (packet == nullptr) {
        RefuseNotModeled("CustomOpDef.register_kernel after torch.ops.<ns>.<op> was replaced");
      }
      SetOnOp(*types, *packet, "_fn", fn);
      return fn;
    };
    if (args.positional.size() == 3) return inner(args.positional[2]);
    return apis::MakeLibFunction(in, apis::LibGlobals(in, "torch._library.custom_ops"),
                                 "CustomOpDef.register_kernel.<locals>.inner",
                                 [&in, inner](PyFunction&, CallArgs& call) -> Value {
                                   return inner(apis::BindParams(in, "inner", {{"fn"}}, call)[0]);
                                 });
  });
  AddMethod(in, types->custom_op_def, "register_fake", [&in, types](CallArgs& args) {
    if (args.positional.size() != 2) {
      Raise(in.heap(), ExcType::kTypeError,
            "CustomOpDef.register_fake() missing 1 required positional argument: 'fn'");
    }
    // Eager calls never run the fake implementation; register_fake returns fn.
    InstanceOf(args.positional[0], types->custom_op_def, "CustomOpDef.register_fake's self")
        .attrs->SetStr("_abstract_fn", args.positional[1]);
    return args.positional[1];
  });
  AddMethod(in, types->packet, "__call__",
            [&in](CallArgs& args) { return CallStored(in, args, "_fn"); });
  AddMethod(in, types->overload, "__call__",
            [&in](CallArgs& args) { return CallStored(in, args, "_fn"); });
  InstallAtenOps(in, types->op_namespace, types->packet, types->overload);
  MakeNamespace(in, *types, "aten");

  Value globals = apis::LibGlobals(in, "torch.library");
  Value custom_ops = apis::LibGlobals(in, "torch._library.custom_ops");
  in.process().modules()[ModuleId::kTorchLibrary]->SetAttr(
      "custom_op",
      apis::MakeLibFunction(
          in, globals, "custom_op", [&in, types, custom_ops](PyFunction&, CallArgs& args) {
            if (args.positional.size() > 2) {
              Raise(in.heap(), ExcType::kTypeError,
                    fmt::format(
                        "custom_op() takes from 1 to 2 positional arguments but {} were given",
                        args.positional.size()));
            }
            bool has_mutates = false;
            for (const auto& [k, v] : args.keywords) {
              if (k == "mutates_args")
                has_mutates = true;
              else if (k != "device_types" && k != "schema" && k != "tags") {
                Raise(in.heap(), ExcType::kTypeError,
                      fmt::format("custom_op() got an unexpected keyword argument '{}'", k));
              }
            }
            if (args.positional.empty()) {
              Raise(in.heap(), ExcType::kTypeError,
                    "custom_op() missing 1 required positional argument: 'name'");
            }
            if (!has_mutates) {
              Raise(in.heap(), ExcType::kTypeError,
                    "custom_op() missing 1 required keyword-only argument: 'mutates_args'");
            }
            const auto* name = DynCast<PyStr>(args.positional[0]);
            if (name == nullptr) {
              Raise(in.heap(), ExcType::kTypeError,
                    "custom_op() expects the name of the operator as a string");
            }
            std::string qualname = name->value();
            if (args.positional.size() == 2)
              return DefineCustomOp(in, *types, qualname, args.positional[1]);
            return Value(apis::MakeLibFunction(
                in, custom_ops, "custom_op.<locals>.inner",
                [&in, types, qualname](PyFunction&, CallArgs& call) {
                  if (call.positional.size() != 1) {
                    Raise(in.heap(), ExcType::kTypeError,
                          "inner() missing 1 required positional argument: 'fn'");
                  }
                  return DefineCustomOp(in, *types, qualname, call.positional[0]);
                }));
          }));
  return types;
}

// torch.cond(pred, true_fn, false_fn, operands=()): eagerly, the selected branch called
// with the operands.
Value EagerCond(Interpreter& in, CallArgs& args, std::string_view name) {
  Value pred = ArgOrKeyword(args, 0, "pred");
  Value true_fn = ArgOrKeyword(args, 1, "true_fn");
  Value false_fn = ArgOrKeyword(args, 2, "false_fn");
  Value operands = ArgOrKeyword(args, 3, "operands");
  if (!pred || !true_fn || !false_fn) {
    Raise(
        in.heap(), ExcType::kTypeError,
        fmt::format("{}() missing required positional arguments: 'pred', 'true_fn' and 'false_fn'",
                    name));
  }
  if (const auto* t = DynCast<PyTensor>(pred); t != nullptr && t->tensor().numel() != 1) {
    Raise(in.heap(), ExcType::kRuntimeError,
          fmt::format("Expected pred to be bool or single-element tensor, but got {}.",
                      ProgramRepr(pred)));
  }
  CallArgs call;
  if (operands) call.positional = in.Iterate(operands);
  return in.Call(Truth(in, pred) ? true_fn : false_fn, std::move(call));
}

void InstallCond(Interpreter& in) {
  Value torch_globals = apis::LibGlobals(in, "torch");
  in.process().modules()[ModuleId::kTorch]->SetAttr(
      "cond", apis::MakeLibFunction(in, torch_globals, "cond", [&in](PyFunction&, CallArgs& args) {
        return EagerCond(in, args, "cond");
      }));
  // torch.ops.higher_order.cond: the CondOp HigherOrderOperator.
  Ref<PyType> namespace_type = LibraryClass(in, "_HigherOrderNamespace", "torch._ops");
  Ref<PyType> cond_op = LibraryClass(in, "CondOp", "torch._higher_order_ops.cond");
  AddMethod(in, cond_op, "__call__", [&in](CallArgs& args) {
    args.positional.erase(args.positional.begin());
    return EagerCond(in, args, "cond");
  });
  Ref<PyInstance> higher_order = in.heap().NewInstance(namespace_type);
  Ref<PyInstance> cond = in.heap().NewInstance(cond_op);
  cond->attrs->SetStr("_name", in.heap().Intern("cond"));
  higher_order->attrs->SetStr("cond", cond);
  in.process().modules()[ModuleId::kTorchOps]->SetAttr("higher_order", higher_order);
}

}  // namespace

void InstallLibraryApis(Interpreter& in) {
  InstallTorchLibrary(in, InstallCustomOp(in));
  InstallCond(in);
}

}  // namespace tdc::runtime
