// torch.library.Library(ns, kind, dispatch_key=""): define(schema) adds torch.ops.<ns>.<op>,
// impl(op_name, fn, dispatch_key) gives it its CPU kernel, _destroy() takes torch.ops.<ns>.<op>
// away again; torch.library.impl(lib, name, dispatch_key) is impl as a decorator (the legacy
// form); torch.library._scoped_library(ns, kind) a Library destroyed when its with block ends;
// torch.library.register_fake and register_kernel(qualname, "cpu") for a Library's op.
// Modeled as far as PyTorch's own tests use it: DEF and FRAGMENT libraries, a schema's
// operator name (its types matter to the dispatcher only), the CPU key. The rest is refused.
#include <fmt/format.h>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/op_packets.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The packet torch.ops.<ns>.<op> of an op a Library defined, named "<ns>::<op>" (`api` names
// the registration for the refusal of anything else).
PyInstance& LibraryPacket(Interpreter& in, const LibraryTypes& types, const Value& op,
                          std::string_view api) {
  const auto* name = DynCast<PyStr>(op);
  const size_t sep = name != nullptr ? name->value().find("::") : std::string::npos;
  Value packet;
  if (sep != std::string::npos) {
    packet = DynCast<PyInstance>(MakeNamespace(in, types, name->value().substr(0, sep)))
                 ->attrs->GetStr(name->value().substr(sep + 2));
  }
  const auto* instance = DynCast<PyInstance>(packet);
  if (instance == nullptr || instance->type != types.packet ||
      !instance->attrs->GetStr(markers::kDefinedByLibrary)) {
    RefuseNotModeled(fmt::format(
        "torch.library.{} of other than a torch.library.Library's op by its qualified name", api));
  }
  return *DynCast<PyInstance>(packet);
}

// Sets `attr` on a packet and on its default overload.
void SetOnOp(PyInstance& packet, std::string_view attr, const Value& value) {
  packet.attrs->SetStr(attr, value);
  DynCast<PyInstance>(packet.attrs->GetStr("default"))->attrs->SetStr(attr, value);
}

}  // namespace

void InstallTorchLibrary(Interpreter& in, const std::shared_ptr<LibraryTypes>& types) {
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
    SetOnOp(*MakeOpPacket(in, *types, ns, name, nullptr), markers::kDefinedByLibrary, bound[0]);
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
    SetOnOp(*DynCast<PyInstance>(packet), "_fn", bound[2]);
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
  // _scoped_library(*args, **kwargs): a context manager whose __enter__ makes the Library and
  // whose __exit__ destroys it (a contextlib generator in torch).
  Ref<PyType> scoped = LibraryClass(in, "_GeneratorContextManager", "contextlib");
  AddMethod(in, scoped, "__enter__", [&in, library](CallArgs& args) -> Value {
    auto& manager = *DynCast<PyInstance>(args.positional.at(0));
    CallArgs make{DynCast<PyTuple>(manager.attrs->GetStr("_tdc_args"))->items(), {}};
    Value lib = in.Call(library, std::move(make));
    manager.attrs->SetStr("_tdc_library", lib);
    return lib;
  });
  AddMethod(in, scoped, "__exit__", [&in](CallArgs& args) -> Value {
    auto& manager = *DynCast<PyInstance>(args.positional.at(0));
    in.Call(in.GetAttr(manager.attrs->GetStr("_tdc_library"), "_destroy"), CallArgs{});
    return in.heap().False();
  });
  library_module.SetAttr(
      "_scoped_library",
      apis::MakeLibFunction(
          in, globals, "_scoped_library", [&in, scoped](PyFunction&, CallArgs& args) -> Value {
            if (!args.keywords.empty()) {
              RefuseNotModeled("torch.library._scoped_library with keywords");
            }
            Ref<PyInstance> manager = in.heap().NewInstance(scoped);
            manager->attrs->SetStr("_tdc_args", in.heap().NewTuple(args.positional));
            return manager;
          }));
  // register_fake(op, fn=None, /, *, lib=None, ...): the op's fake kernel, which Dynamo runs
  // where the reference runs the kernel itself (only whether there is one matters here); a
  // decorator returning its function when fn is omitted.
  library_module.SetAttr(
      "register_fake",
      apis::MakeLibFunction(
          in, globals, "register_fake",
          [&in, types, globals](PyFunction&, CallArgs& args) -> Value {
            std::vector<Value> bound = apis::BindParams(in, "register_fake",
                                                        {{"op"},
                                                         {"func", true},
                                                         {"lib", true, true},
                                                         {"_stacklevel", true, true},
                                                         {"allow_override", true, true}},
                                                        args);
            PyInstance& packet = LibraryPacket(in, *types, bound[0], "register_fake");
            Ref<PyInstance> op(&packet);
            auto registered = [op](const Value& fn) {
              SetOnOp(*op, markers::kLibraryFake, fn);
              return fn;
            };
            if (bound[1]) return registered(bound[1]);
            return apis::MakeLibFunction(
                in, globals, "register_fake.<locals>.register",
                [&in, registered](PyFunction&, CallArgs& call) -> Value {
                  return registered(apis::BindParams(in, "register", {{"func"}}, call)[0]);
                });
          }));
  // register_kernel(op, device_types, fn=None, /, *, lib=None): the op's CPU kernel, run with
  // Dynamo disabled; the decorator (fn omitted) returns None, as torch's _impl does.
  library_module.SetAttr(
      "register_kernel",
      apis::MakeLibFunction(
          in, globals, "register_kernel",
          [&in, types, globals](PyFunction&, CallArgs& args) -> Value {
            std::vector<Value> bound = apis::BindParams(
                in, "register_kernel",
                {{"op"}, {"device_types"}, {"func", true}, {"lib", true, true}}, args);
            PyInstance& packet = LibraryPacket(in, *types, bound[0], "register_kernel");
            if (!Is<PyStr>(bound[1]) || ProgramStr(bound[1]) != "cpu") {
              RefuseNotModeled("torch.library.register_kernel for a device other than \"cpu\"");
            }
            Ref<PyInstance> op(&packet);
            auto registered = [&in, op](const Value& fn) -> Value {
              SetOnOp(*op, "_fn", fn);
              SetOnOp(*op, kKernelDisablesDynamo, in.heap().True());
              return in.heap().None();
            };
            if (bound[2]) return registered(bound[2]);
            return apis::MakeLibFunction(
                in, globals, "_impl.<locals>.register_",
                [&in, registered](PyFunction&, CallArgs& call) -> Value {
                  return registered(apis::BindParams(in, "register_", {{"func"}}, call)[0]);
                });
          }));
}

}  // namespace tdc::runtime
