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

// The reference's own state on a Library: the names of the ops it defined, and the
// registrations made through it (each a (packet, attribute) pair), undone by _destroy.
constexpr std::string_view kOpDefs = "_tdc_op_defs";
constexpr std::string_view kRegistrations = "_tdc_registrations";

PyList& ListAttr(PyInstance& owner, std::string_view attr) {
  auto* list = DynCast<PyList>(owner.attrs->GetStr(attr));
  if (list == nullptr) RefuseNotModeled(fmt::format("a Library whose {} was replaced", attr));
  return *list;
}

// The packet torch.ops.<ns>.<op> of an op a Library defined, named "<ns>::<op>" (`api` names
// the registration for the refusal of anything else).
PyInstance& LibraryPacket(Interpreter& in, const LibraryTypes& types, const Value& op,
                          std::string_view api) {
  const auto* name = DynCast<PyStr>(op);
  const size_t sep = name != nullptr ? name->value().find("::") : std::string::npos;
  PyInstance* packet = nullptr;
  if (sep != std::string::npos) {
    packet = PacketIn(types, MakeNamespace(in, types, name->value().substr(0, sep)),
                      name->value().substr(sep + 2));
  }
  if (packet == nullptr || !packet->attrs->GetStr(markers::kDefinedByLibrary)) {
    RefuseNotModeled(fmt::format(
        "torch.library.{} of other than a torch.library.Library's op by its qualified name", api));
  }
  return *packet;
}

// Registers `value` as the op's `attr` through `lib` (null: for good, as torch's kept-alive
// FRAGMENT library does): the Library's _destroy takes it away again.
void Register(Interpreter& in, const LibraryTypes& types, PyInstance* lib, PyInstance& packet,
              std::string_view attr, const Value& value) {
  SetOnOp(types, packet, attr, value);
  if (lib != nullptr) {
    ListAttr(*lib, kRegistrations)
        .items()
        .push_back(in.heap().NewTuple(
            {Value(Ref<PyInstance>(&packet)), in.heap().Str(std::string(attr))}));
  }
}

// A kernel: Library.impl's leaves Dynamo on around it, register_kernel's turns it off.
void RegisterKernel(Interpreter& in, const LibraryTypes& types, PyInstance* lib, PyInstance& packet,
                    const Value& fn, bool disables_dynamo) {
  Register(in, types, lib, packet, "_fn", fn);
  Register(in, types, lib, packet, kKernelDisablesDynamo, in.heap().Bool(disables_dynamo));
}

// What a Library registered goes when it is destroyed or dies (torch's _destroy and its
// weakref.finalize, _del_library): its registrations, then the ops it defined, which the
// namespace forgets (_clear_torch_ops_cache). Both lists are emptied, so a second run does
// nothing. A kernel or fake kernel it took away stays gone: calling the op is refused rather
// than guessing what torch's dispatcher finds.
void UndoLibrary(Interpreter& in, const LibraryTypes& types, const std::string& ns_name,
                 PyList& op_defs, PyList& registrations) {
  for (const Value& entry : registrations.items()) {
    const auto& pair = *DynCast<PyTuple>(entry);
    SetOnOp(types, *DynCast<PyInstance>(pair.items()[0]), ProgramStr(pair.items()[1]), nullptr);
  }
  registrations.Clear();
  PyInstance& ns = MakeNamespace(in, types, ns_name);
  for (const Value& name : op_defs.items()) {
    if (PyInstance* packet = PacketIn(types, ns, ProgramStr(name))) {
      SetOnOp(types, *packet, kDestroyed, in.heap().True());
      ns.attrs->EraseStr(ProgramStr(name));
    }
  }
  op_defs.Clear();
}

}  // namespace

void InstallTorchLibrary(Interpreter& in, const std::shared_ptr<LibraryTypes>& types) {
  PyModule& library_module = *in.process().modules()[ModuleId::kTorchLibrary];
  Ref<PyType> library = LibraryClass(in, "Library", "torch.library");
  RefuseOtherAttributes(in, library);
  library->construct = [&in, library, types](CallArgs& args) -> Value {
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
    Ref<PyList> op_defs = in.heap().NewList({});
    Ref<PyList> registrations = in.heap().NewList({});
    lib->attrs->SetStr(kOpDefs, op_defs);
    lib->attrs->SetStr(kRegistrations, registrations);
    in.heap().AddFinalizer(lib, [&in, types, ns = ns->value(), op_defs, registrations] {
      UndoLibrary(in, *types, ns, *op_defs, *registrations);
    });
    return lib;
  };
  auto alive = [&in, library](const Value& self) -> PyInstance& {
    PyInstance& lib = InstanceOf(self, library, "a Library method's self");
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
    if (MakeNamespace(in, *types, ns).attrs->GetStr(name)) {
      RefuseNotModeled(fmt::format("Library.define of {}::{}, which is defined already", ns, name));
    }
    SetOnOp(*types, *MakeOpPacket(in, *types, ns, name, nullptr), markers::kDefinedByLibrary,
            in.heap().True());
    ListAttr(lib, kOpDefs).items().push_back(in.heap().Str(name));
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
    const auto* op_name = DynCast<PyStr>(bound[1]);
    PyInstance* packet =
        op_name != nullptr
            ? PacketIn(*types, MakeNamespace(in, *types, ProgramStr(lib.attrs->GetStr("ns"))),
                       op_name->value())
            : nullptr;
    if (packet == nullptr || !packet->attrs->GetStr(markers::kDefinedByLibrary) || !bound[3] ||
        ProgramStr(bound[3]) != "CPU" || bound[4] || bound[5]) {
      RefuseNotModeled(
          "Library.impl other than a CPU kernel for an op a Library defined, named without its "
          "namespace");
    }
    if (!apis::IsCallable(in, bound[2])) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("Input function is required to be a callable but found type {}",
                        apis::TypeRepr(in, bound[2])));
    }
    RegisterKernel(in, *types, &lib, *packet, bound[2], false);
    return in.heap().None();
  });
  AddMethod(in, library, "_destroy", [&in, types, library](CallArgs& args) -> Value {
    PyInstance& lib = InstanceOf(args.positional.at(0), library, "Library._destroy's self");
    lib.attrs->SetStr(kDestroyed, in.heap().True());
    UndoLibrary(in, *types, ProgramStr(lib.attrs->GetStr("ns")), ListAttr(lib, kOpDefs),
                ListAttr(lib, kRegistrations));
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
  RefuseOtherAttributes(in, scoped);
  AddMethod(in, scoped, "__enter__", [&in, library, scoped](CallArgs& args) -> Value {
    PyInstance& manager = InstanceOf(args.positional.at(0), scoped, "a _scoped_library");
    const auto* arguments = DynCast<PyTuple>(manager.attrs->GetStr("_tdc_args"));
    if (arguments == nullptr || manager.attrs->GetStr("_tdc_library")) {
      RefuseNotModeled("a _scoped_library entered twice or changed");
    }
    Value lib = in.Call(library, CallArgs{arguments->items(), {}});
    manager.attrs->SetStr("_tdc_library", lib);
    return lib;
  });
  AddMethod(in, scoped, "__exit__", [&in, library, scoped](CallArgs& args) -> Value {
    PyInstance& manager = InstanceOf(args.positional.at(0), scoped, "a _scoped_library");
    Value lib = manager.attrs->GetStr("_tdc_library");
    InstanceOf(lib, library, "a _scoped_library's Library (left before it was entered?)");
    in.Call(in.GetAttr(lib, "_destroy"), CallArgs{});
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
  // The Library a registration is made through (`lib=`), or null.
  auto through = [library](const Value& lib) -> PyInstance* {
    if (!lib || Is<PyNone>(lib)) return nullptr;
    return &InstanceOf(lib, library, "a registration's lib=");
  };
  // register_fake(op, fn=None, /, *, lib=None, ...): the op's fake kernel, which Dynamo runs
  // where the reference runs the kernel itself (only whether there is one matters here); a
  // decorator returning its function when fn is omitted.
  library_module.SetAttr(
      "register_fake",
      apis::MakeLibFunction(
          in, globals, "register_fake",
          [&in, types, globals, through](PyFunction&, CallArgs& args) -> Value {
            std::vector<Value> bound = apis::BindParams(in, "register_fake",
                                                        {{"op"},
                                                         {"func", true},
                                                         {"lib", true, true},
                                                         {"_stacklevel", true, true},
                                                         {"allow_override", true, true}},
                                                        args);
            Ref<PyInstance> op(&LibraryPacket(in, *types, bound[0], "register_fake"));
            Ref<PyInstance> lib(through(bound[2]));
            auto registered = [&in, types, op, lib](const Value& fn) {
              Register(in, *types, lib.get(), *op, markers::kLibraryFake, fn);
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
          [&in, types, globals, through](PyFunction&, CallArgs& args) -> Value {
            std::vector<Value> bound = apis::BindParams(
                in, "register_kernel",
                {{"op"}, {"device_types"}, {"func", true}, {"lib", true, true}}, args);
            Ref<PyInstance> op(&LibraryPacket(in, *types, bound[0], "register_kernel"));
            if (!Is<PyStr>(bound[1]) || ProgramStr(bound[1]) != "cpu") {
              RefuseNotModeled("torch.library.register_kernel for a device other than \"cpu\"");
            }
            Ref<PyInstance> lib(through(bound[3]));
            auto registered = [&in, types, op, lib](const Value& fn) -> Value {
              RegisterKernel(in, *types, lib.get(), *op, fn, true);
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
