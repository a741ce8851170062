// torch._dynamo.config as the reference models it (DESIGN D3, D13): the keys it has, each
// with torch 2.13.0's default, the values the compile mode models for each, and
// config.patch. A config key torch has and the table lacks is refused when read or written
// (torch_names.def lists torch's keys); a key torch does not have raises torch's
// AttributeError. Under Dynamo a write of a value the reference does not model is refused
// (the profile's own settings, D3, are made before the program runs and are not writes);
// in the eager run (TORCHDYNAMO_DISABLE=1) nothing reads the config, so any value is kept.
#include <fmt/format.h>

#include <optional>

#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {
namespace {

// Which written values the compile mode models for a key.
enum class Modeled {
  kDefaultOnly,  // nothing in the reference reads the key: only torch's default is right
  kAnyBool,      // the reference reads it wherever it matters (nested_graph_breaks)
  kProfileOnly,  // the profiles set it (automatic_dynamic_shapes = False, D3)
  kPositiveInt,  // the reference reads it (recompile_limit: the code cache's limit)
};

struct ConfigKey {
  const char* name;
  enum class Default { kFalse, kTrue, kInt } kind;
  int64_t int_default;
  Modeled modeled;
  // The key torch's config module makes this one an alias of (Config(alias=...)): a write
  // of either is a write of both.
  const char* alias = nullptr;
};

// One row per key the runtime has: torch 2.13.0's defaults (torch/_dynamo/config.py).
constexpr ConfigKey kConfigKeys[] = {
    {"disable", ConfigKey::Default::kFalse, 0, Modeled::kDefaultOnly},
    // suppress_errors: read where an error comes out of a frame's conversion (Dynamo's
    // eval_frame.cc), where the reference refuses what torch would suppress.
    {"suppress_errors", ConfigKey::Default::kFalse, 0, Modeled::kAnyBool},
    // verbose: the Unsupported tail and the graph-break log's duplicate checker (Dynamo's
    // messages.cc, graph_break.cc).
    {"verbose", ConfigKey::Default::kFalse, 0, Modeled::kAnyBool},
    {"cache_size_limit", ConfigKey::Default::kInt, 8, Modeled::kPositiveInt, "recompile_limit"},
    {"recompile_limit", ConfigKey::Default::kInt, 8, Modeled::kPositiveInt, "cache_size_limit"},
    {"accumulated_recompile_limit", ConfigKey::Default::kInt, 256, Modeled::kPositiveInt},
    // Read where the recompile limit is hit (Dynamo's eval_frame.cc).
    {"fail_on_recompile_limit_hit", ConfigKey::Default::kFalse, 0, Modeled::kAnyBool},
    {"capture_scalar_outputs", ConfigKey::Default::kFalse, 0, Modeled::kDefaultOnly},
    {"capture_dynamic_output_shape_ops", ConfigKey::Default::kFalse, 0, Modeled::kDefaultOnly},
    {"error_on_recompile", ConfigKey::Default::kFalse, 0, Modeled::kDefaultOnly},
    {"automatic_dynamic_shapes", ConfigKey::Default::kTrue, 0, Modeled::kProfileOnly},
    {"assume_static_by_default", ConfigKey::Default::kTrue, 0, Modeled::kDefaultOnly},
    {"specialize_int", ConfigKey::Default::kFalse, 0, Modeled::kDefaultOnly},
    {"nested_graph_breaks", ConfigKey::Default::kFalse, 0, Modeled::kAnyBool},
};

const ConfigKey* FindKey(std::string_view name) {
  for (const ConfigKey& key : kConfigKeys) {
    if (key.name == name) return &key;
  }
  return nullptr;
}

Value DefaultOf(Heap& h, const ConfigKey& key) {
  switch (key.kind) {
    case ConfigKey::Default::kFalse:
      return h.False();
    case ConfigKey::Default::kTrue:
      return h.True();
    case ConfigKey::Default::kInt:
      return h.Int(key.int_default);
  }
  return nullptr;
}

// Whether the compile mode models `value` for `key` (a bool is no int here: True == 1).
bool ModelsValue(Interpreter& in, const ConfigKey& key, const Value& value) {
  switch (key.modeled) {
    case Modeled::kAnyBool:
      return Is<PyBool>(value);
    case Modeled::kProfileOnly:
      return Is<PyBool>(value) && !Truth(in, value);
    case Modeled::kPositiveInt:
      return Is<PyInt>(value) && DynCast<PyInt>(value)->value() >= 1;  // a bool is no PyInt
    case Modeled::kDefaultOnly:
      break;
  }
  Value fallback = DefaultOf(in.heap(), key);
  return TypeOf(in, value) == TypeOf(in, fallback) && PyEquals(value, fallback);
}

// The saved values of a patch's keys, restored by __exit__.
Value Patched(Interpreter& in, const Value& self, std::string_view attr) {
  return DynCast<PyInstance>(self)->attrs->GetStr(attr);
}

// torch._dynamo.config.patch(arg1=None, arg2=None, **kwargs): a ConfigPatch that sets the
// keys on __enter__ (each write checked as any other) and restores them on __exit__, and
// decorates a function to do so around each call.
void InstallPatch(Interpreter& in, PyModule& config) {
  Value globals = apis::LibGlobals(in, "torch.utils._config_module");
  Ref<PyType> type = LibraryClass(in, "ConfigPatch", "torch.utils._config_module");
  Value config_value{Ref<PyModule>(&config)};
  AddMethod(in, type, "__enter__", [&in, config_value](CallArgs& args) {
    const Value& self = args.positional[0];
    auto* changes = DynCast<PyDict>(Patched(in, self, "changes"));
    Ref<PyDict> prior = in.heap().NewDict();
    for (const auto& [key, value] : changes->Items()) {
      prior->Set(key, in.GetAttr(config_value, Str(key)));
      in.SetAttr(config_value, Str(key), value);
    }
    DynCast<PyInstance>(self)->attrs->SetStr("prior", prior);
    return in.heap().None();
  });
  AddMethod(in, type, "__exit__", [&in, config_value](CallArgs& args) {
    auto* prior = DynCast<PyDict>(Patched(in, args.positional[0], "prior"));
    if (prior != nullptr) {
      for (const auto& [key, value] : prior->Items()) in.SetAttr(config_value, Str(key), value);
    }
    return in.heap().None();
  });
  Ref<PyType> cls = type;
  auto make = [&in, cls](Value changes) {
    Ref<PyInstance> patch = in.heap().NewInstance(cls);
    patch->attrs->SetStr("changes", std::move(changes));
    return Value(patch);
  };
  AddMethod(in, type, "__call__", [&in, make, globals](CallArgs& args) {
    Value changes = Patched(in, args.positional.at(0), "changes");
    return ContextDecorator(
        in, Ref<PyDict>(DynCast<PyDict>(globals)), [make, changes]() { return make(changes); },
        args.positional.at(1));
  });
  config.SetAttr("patch", MakeBuiltin(in, "patch", [&in, make](CallArgs& args) {
                   Ref<PyDict> changes = in.heap().NewDict();
                   Value arg1 = ArgOrKeyword(args, 0, "arg1");
                   Value arg2 = ArgOrKeyword(args, 1, "arg2");
                   if (arg1 && Is<PyStr>(arg1)) {
                     changes->Set(arg1, arg2 ? arg2 : in.heap().None());
                   } else if (arg1 && Is<PyDict>(arg1)) {
                     for (const auto& [k, v] : DynCast<PyDict>(arg1)->Items()) changes->Set(k, v);
                   } else if (arg1 && !Is<PyNone>(arg1)) {
                     RefuseNotModeled(
                         "torch._dynamo.config.patch with a first argument other than a "
                         "key or a dict is not modeled");
                   }
                   for (const auto& [k, v] : args.keywords) {
                     if (k != "arg1" && k != "arg2") changes->SetStr(k, v);
                   }
                   return make(changes);
                 }));
}

}  // namespace

const char* CheckConfigWrite(Interpreter& in, std::string_view name, const Value& value) {
  if (!TorchModuleHas("torch._dynamo.config", name)) {
    Raise(in.heap(), ExcType::kAttributeError,
          fmt::format("torch._dynamo.config.{} does not exist", name));
  }
  const ConfigKey* key = FindKey(name);
  if (key == nullptr) RefuseNotModeled(fmt::format("torch._dynamo.config.{} is not modeled", name));
  if (in.process().compiler.make_compile_wrapper && !ModelsValue(in, *key, value)) {
    // (eager: nothing reads it)
    RefuseNotModeled(
        fmt::format("torch._dynamo.config.{} = {} is not modeled under Dynamo", name, Repr(value)));
  }
  return key->alias;
}

void InstallDynamoConfig(Interpreter& in) {
  PyModule& config = *in.process().modules()[ModuleId::kTorchDynamoConfig];
  for (const ConfigKey& key : kConfigKeys) config.SetAttr(key.name, DefaultOf(in.heap(), key));
  InstallPatch(in, config);
}

}  // namespace tdc::runtime
