// torch.library.custom_op (its CustomOpDef and register_fake), torch.library.Library and the
// torch.ops namespaces they populate, and torch.cond, as eager torch 2.13.0 has them under
// TORCHDYNAMO_DISABLE=1: calling a custom op (or its OpOverloadPacket / OpOverload) calls the
// decorated function or the registered CPU kernel; torch.cond calls the branch its predicate
// selects.
#include <fmt/format.h>

#include <memory>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

struct LibraryTypes {
  Ref<PyType> custom_op_def, op_namespace, packet, overload;
};

Value MakeNamespace(Interpreter& in, const LibraryTypes& types, std::string_view name) {
  PyModule& ops = *in.process().modules()[ModuleId::kTorchOps];
  if (Value existing = ops.GetAttr(name)) return existing;
  Ref<PyInstance> ns = in.heap().NewInstance(types.op_namespace);
  ns->attrs->SetStr("name", in.heap().Str("torch.ops." + std::string(name)));
  ops.SetAttr(name, ns);
  return ns;
}

// torch.ops.<ns>.<op>: an OpOverloadPacket with its `default` OpOverload, both calling `fn`
// (null until a kernel is registered).
Ref<PyInstance> MakeOpPacket(Interpreter& in, const LibraryTypes& types, const std::string& ns_name,
                             const std::string& op_name, const Value& fn) {
  Value ns = MakeNamespace(in, types, ns_name);
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
  DynCast<PyInstance>(ns)->attrs->SetStr(op_name, packet);
  return packet;
}

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
  Ref<PyInstance> packet = MakeOpPacket(in, types, ns_name, op_name, fn);
  // CustomOpDef._opoverload: the same OpOverload
  def->attrs->SetStr("_opoverload", packet->attrs->GetStr("default"));
  return def;
}

// Set on a destroyed Library and on the ops it had defined.
constexpr std::string_view kDestroyed = "_tdc_destroyed";

// A Library op's CPU kernel. torch's dispatcher calls it as it is: Dynamo is not disabled
// around it, as custom_op's are, which the reference does not model.
Value CallLibraryKernel(Interpreter& in, const PyInstance& op, CallArgs args) {
  const std::string name = ProgramStr(op.attrs->GetStr("__name__"));
  Value kernel = op.attrs->GetStr("_fn");
  if (!kernel || op.attrs->GetStr(kDestroyed)) {
    RefuseNotModeled(fmt::format(
        "calling torch.library op {} without a CPU kernel or after its Library was destroyed "
        "(torch's NotImplementedError)",
        name));
  }
  if (in.process().compiler.eval_frame_callback) {
    RefuseNotModeled(
        fmt::format("a torch.library.Library kernel ({}) run with Dynamo's callback set", name));
  }
  return in.Call(kernel, std::move(args));
}

// The op's function, run with Dynamo's callback off: torch disables Dynamo around a custom
// op's implementation, so its frame is never offered (golden custom_op/disallowed_custom_op).
Value CallStored(Interpreter& in, CallArgs& args, std::string_view field) {
  Value self = args.positional[0];
  args.positional.erase(args.positional.begin());
  const PyInstance& op = *DynCast<PyInstance>(self);
  if (op.attrs->GetStr(markers::kDefinedByLibrary))
    return CallLibraryKernel(in, op, std::move(args));
  EvalFrameCallbackScope no_callback(in.process().compiler, nullptr);
  return in.Call(op.attrs->GetStr(field), std::move(args));
}

std::shared_ptr<LibraryTypes> InstallCustomOp(Interpreter& in) {
  auto types = std::make_shared<LibraryTypes>();
  types->custom_op_def = LibraryClass(in, "CustomOpDef", "torch._library.custom_ops");
  types->op_namespace = LibraryClass(in, "_OpNamespace", "torch._ops");
  types->packet = LibraryClass(in, "OpOverloadPacket", "torch._ops");
  types->overload = LibraryClass(in, "OpOverload", "torch._ops");
  AddMethod(in, types->custom_op_def, "__call__",
            [&in](CallArgs& args) { return CallStored(in, args, "_init_fn"); });
  AddMethod(in, types->custom_op_def, "register_fake", [&in](CallArgs& args) {
    if (args.positional.size() != 2) {
      Raise(in.heap(), ExcType::kTypeError,
            "CustomOpDef.register_fake() missing 1 required positional argument: 'fn'");
    }
    // Eager calls never run the fake implementation; register_fake returns fn.
    DynCast<PyInstance>(args.positional[0])->attrs->SetStr("_abstract_fn", args.positional[1]);
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

// torch.library.Library(ns, kind, dispatch_key=""): define(schema) adds torch.ops.<ns>.<op>,
// impl(op_name, fn, dispatch_key) gives it its CPU kernel, _destroy() takes torch.ops.<ns>.<op>
// away again; torch.library.impl(lib, name, dispatch_key) is impl as a decorator (the legacy
// form). Modeled as far as PyTorch's own tests use it: DEF and FRAGMENT libraries, a
// schema's operator name (its types matter to the dispatcher only), the CPU key. The rest is
// refused.
void InstallLibraryClass(Interpreter& in, const std::shared_ptr<LibraryTypes>& types) {
  PyModule& library_module = *in.process().modules()[ModuleId::kTorchLibrary];
  Ref<PyType> library = LibraryClass(in, "Library", "torch.library");
  library->construct = [&in, library](CallArgs& args) -> Value {
    std::vector<Value> bound =
        apis::BindParams(in, "Library.__init__", {{"ns"}, {"kind"}, {"dispatch_key", true}}, args);
    const auto* ns = DynCast<PyStr>(bound[0]);
    const auto* kind = DynCast<PyStr>(bound[1]);
    if (ns == nullptr || kind == nullptr ||
        (kind->value() != "DEF" && kind->value() != "FRAGMENT") ||
        (bound[2] && ProgramStr(bound[2]) != "") || ns->value() == "aten") {
      RefuseNotModeled(
          "torch.library.Library other than Library(<namespace>, \"DEF\" or \"FRAGMENT\") of a "
          "namespace other than aten");
    }
    Ref<PyInstance> lib = in.heap().NewInstance(library);
    lib->attrs->SetStr("ns", bound[0]);
    lib->attrs->SetStr("kind", bound[1]);
    lib->attrs->SetStr("dispatch_key", in.heap().Str(""));
    lib->attrs->SetStr("_op_defs", in.heap().NewList({}));
    return lib;
  };
  auto alive = [&in](const Value& self) -> PyInstance& {
    auto& lib = *DynCast<PyInstance>(self);
    if (lib.attrs->GetStr(kDestroyed))
      Raise(in.heap(), ExcType::kAssertionError, "Library object has been destroyed");
    return lib;
  };
  AddMethod(in, library, "define", [&in, types, alive](CallArgs& args) -> Value {
    std::vector<Value> bound = apis::BindParams(
        in, "Library.define",
        {{"self"}, {"schema"}, {"alias_analysis", true}, {"tags", true, true}}, args);
    PyInstance& lib = alive(bound[0]);
    const auto* schema = DynCast<PyStr>(bound[1]);
    const size_t open = schema != nullptr ? schema->value().find('(') : std::string::npos;
    const std::string name = open != std::string::npos ? schema->value().substr(0, open) : "";
    if (name.empty() || name.find_first_of(".: ") != std::string::npos ||
        schema->value().find(") -> ") == std::string::npos || bound[2] || bound[3]) {
      RefuseNotModeled("Library.define of a schema other than \"<name>(<args>) -> <returns>\"");
    }
    const std::string ns = ProgramStr(lib.attrs->GetStr("ns"));
    if (Value existing = MakeNamespace(in, *types, ns);
        DynCast<PyInstance>(existing)->attrs->GetStr(name)) {
      RefuseNotModeled(fmt::format("Library.define of {}::{}, which is defined already", ns, name));
    }
    Ref<PyInstance> packet = MakeOpPacket(in, *types, ns, name, nullptr);
    packet->attrs->SetStr(markers::kDefinedByLibrary, bound[0]);
    DynCast<PyInstance>(packet->attrs->GetStr("default"))
        ->attrs->SetStr(markers::kDefinedByLibrary, bound[0]);
    DynCast<PyList>(lib.attrs->GetStr("_op_defs"))
        ->items()
        .push_back(in.heap().Str(ns + "::" + name));
    return in.heap().Str(name);  // the name as the schema gives it (probed)
  });
  AddMethod(in, library, "impl", [&in, types, alive](CallArgs& args) -> Value {
    std::vector<Value> bound = apis::BindParams(in, "Library.impl",
                                                {{"self"},
                                                 {"op_name"},
                                                 {"fn"},
                                                 {"dispatch_key", true},
                                                 {"with_keyset", true, true},
                                                 {"allow_override", true, true}},
                                                args);
    PyInstance& lib = alive(bound[0]);
    const std::string ns = ProgramStr(lib.attrs->GetStr("ns"));
    const auto* op_name = DynCast<PyStr>(bound[1]);
    Value packet =
        op_name != nullptr
            ? DynCast<PyInstance>(MakeNamespace(in, *types, ns))->attrs->GetStr(op_name->value())
            : Value();
    if (!packet || !DynCast<PyInstance>(packet)->attrs->GetStr(markers::kDefinedByLibrary) ||
        !bound[3] || ProgramStr(bound[3]) != "CPU" || bound[4] || bound[5]) {
      RefuseNotModeled(
          "Library.impl other than a CPU kernel for an op a Library defined, named without its "
          "namespace");
    }
    if (!apis::IsCallable(in, bound[2])) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("Input function is required to be a callable but found type {}",
                        apis::TypeRepr(in, bound[2])));
    }
    DynCast<PyInstance>(packet)->attrs->SetStr("_fn", bound[2]);
    DynCast<PyInstance>(DynCast<PyInstance>(packet)->attrs->GetStr("default"))
        ->attrs->SetStr("_fn", bound[2]);
    return in.heap().None();
  });
  AddMethod(in, library, "_destroy", [&in, types](CallArgs& args) -> Value {
    auto& lib = *DynCast<PyInstance>(args.positional.at(0));
    lib.attrs->SetStr(kDestroyed, in.heap().True());
    // _clear_torch_ops_cache: the namespace forgets each op the Library defined.
    PyInstance& ns =
        *DynCast<PyInstance>(MakeNamespace(in, *types, ProgramStr(lib.attrs->GetStr("ns"))));
    for (const Value& qualname : DynCast<PyList>(lib.attrs->GetStr("_op_defs"))->items()) {
      const std::string text = ProgramStr(qualname);
      const std::string name = text.substr(text.find("::") + 2);
      if (Value packet = ns.attrs->GetStr(name)) {
        DynCast<PyInstance>(packet)->attrs->SetStr(kDestroyed, in.heap().True());
        ns.attrs->EraseStr(name);
      }
    }
    return in.heap().None();
  });
  library_module.SetAttr("Library", library);
  Value globals = apis::LibGlobals(in, "torch.library");
  library_module.SetAttr(
      "impl",
      apis::MakeLibFunction(
          in, globals, "impl", [&in, library, globals](PyFunction&, CallArgs& args) -> Value {
            const auto* lib =
                args.positional.empty() ? nullptr : DynCast<PyInstance>(args.positional[0]);
            if (lib == nullptr || lib->type != library || args.positional.size() > 3 ||
                !args.keywords.empty()) {
              RefuseNotModeled(
                  "torch.library.impl other than impl(<Library>, <name>, <dispatch key>)");
            }
            CallArgs registration = args;
            return apis::MakeLibFunction(
                in, globals, "_.<locals>.wrap",
                [&in, registration](PyFunction&, CallArgs& call) -> Value {
                  Value f = apis::BindParams(in, "wrap", {{"f"}}, call)[0];
                  CallArgs impl{
                      {registration.positional.begin() + 1, registration.positional.end()}, {}};
                  impl.positional.insert(impl.positional.begin() + 1, f);
                  in.Call(in.GetAttr(registration.positional[0], "impl"), std::move(impl));
                  return f;
                });
          }));
}

}  // namespace

void InstallLibraryApis(Interpreter& in) {
  InstallLibraryClass(in, InstallCustomOp(in));
  InstallCond(in);
}

}  // namespace tdc::runtime
