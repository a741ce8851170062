// The os module's environ (os_environ.h): an instance of os._Environ whose methods are
// those of os.py and collections.abc's Mapping and MutableMapping in CPython 3.11, with
// their TypeError and KeyError texts. Its contents, its length and its iteration are the
// machine's, so reading them is refused, as is any use of it in a compiled region (Dynamo
// breaks the graph at os.putenv there; what it guards on a read is not modeled).
#include "reference/runtime/interp/os_environ.h"

#include <fmt/format.h>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

constexpr std::string_view kDynamoDisable = "TORCHDYNAMO_DISABLE";

// os._Environ.encodekey / encodevalue: a str, or CPython's TypeError.
const std::string& EncodeStr(Interpreter& in, const Value& v) {
  const auto* s = DynCast<PyStr>(v);
  if (s == nullptr)
    Raise(in.heap(), ExcType::kTypeError, fmt::format("str expected, not {}", TypeName(v)));
  return s->value();
}

[[noreturn]] void RaiseKeyError(Interpreter& in, const Value& key) {
  throw PyError(in.heap().NewException(ExcType::kKeyError, in.heap().NewTuple({key})));
}

// The variable's value (nullopt: not set), or a refusal when it is the machine's.
std::optional<std::string> Lookup(Interpreter& in, const Value& key) {
  const std::string& name = EncodeStr(in, key);
  const auto& changes = in.process().environ_changes;
  if (auto it = changes.find(name); it != changes.end()) return it->second;
  if (name == kDynamoDisable) {
    if (in.process().compiler.make_compile_wrapper) return std::nullopt;
    return "1";
  }
  RefuseNotModeled(fmt::format(
      "os.environ[{}] (a variable the program did not set: its value is the machine's) is not "
      "modeled",
      Repr(key)));
}

std::vector<Value> Bind(Interpreter& in, std::string_view qualname,
                        const std::vector<apis::Param>& params, const CallArgs& args) {
  RefuseInCompiledRegion(in, "os.environ");
  return apis::BindParams(in, qualname, params, args);
}

void InstallEnvironMethods(Interpreter& in, const Ref<PyType>& type) {
  AddMethod(in, type, "__getitem__", [&in](CallArgs& args) -> Value {
    std::vector<Value> a = Bind(in, "_Environ.__getitem__", {{"self"}, {"key"}}, args);
    std::optional<std::string> value = Lookup(in, a[1]);
    if (!value) RaiseKeyError(in, a[1]);
    return in.heap().Str(*value);
  });
  AddMethod(in, type, "__setitem__", [&in](CallArgs& args) -> Value {
    std::vector<Value> a = Bind(in, "_Environ.__setitem__", {{"self"}, {"key"}, {"value"}}, args);
    SetEnvironVariable(in, a[1], a[2]);
    return in.heap().None();
  });
  AddMethod(in, type, "__delitem__", [&in](CallArgs& args) -> Value {
    std::vector<Value> a = Bind(in, "_Environ.__delitem__", {{"self"}, {"key"}}, args);
    if (!Lookup(in, a[1])) RaiseKeyError(in, a[1]);
    in.process().environ_changes[EncodeStr(in, a[1])] = std::nullopt;
    return in.heap().None();
  });
  AddMethod(in, type, "__contains__", [&in](CallArgs& args) -> Value {
    std::vector<Value> a = Bind(in, "Mapping.__contains__", {{"self"}, {"key"}}, args);
    return in.heap().Bool(Lookup(in, a[1]).has_value());
  });
  AddMethod(in, type, "get", [&in](CallArgs& args) -> Value {
    std::vector<Value> a = Bind(in, "Mapping.get", {{"self"}, {"key"}, {"default", true}}, args);
    if (std::optional<std::string> value = Lookup(in, a[1])) return in.heap().Str(*value);
    return a[2] ? a[2] : in.heap().None();
  });
  AddMethod(in, type, "pop", [&in](CallArgs& args) -> Value {
    std::vector<Value> a =
        Bind(in, "MutableMapping.pop", {{"self"}, {"key"}, {"default", true}}, args);
    std::optional<std::string> value = Lookup(in, a[1]);
    if (!value) {
      if (!a[2]) RaiseKeyError(in, a[1]);
      return a[2];
    }
    in.process().environ_changes[EncodeStr(in, a[1])] = std::nullopt;
    return in.heap().Str(*value);
  });
  // What depends on the machine's variables: the length, iteration, the text, comparison.
  for (std::string_view name :
       {"__len__", "__iter_items__", "__eq__", "__ne__", "__or__", "__ror__", "__ior__"}) {
    AddMethod(in, type, name, [](CallArgs&) -> Value {
      RefuseNotModeled(
          "the length, iteration or comparison of os.environ (the machine's variables) is not "
          "modeled");
    });
  }
  RefuseOtherAttributes(in, type);
}

}  // namespace

bool IsEnviron(Interpreter& in, const Value& v) {
  return v == in.process().modules()[ModuleId::kOs]->GetAttr("environ");
}

EnvironChanges SaveEnviron(Interpreter& in) {
  RefuseInCompiledRegion(in, "os.environ");
  return in.process().environ_changes;
}

void RestoreEnviron(Interpreter& in, EnvironChanges saved) {
  RefuseInCompiledRegion(in, "os.environ");
  in.process().environ_changes = std::move(saved);
}

void SetEnvironVariable(Interpreter& in, const Value& key, const Value& value) {
  RefuseInCompiledRegion(in, "os.environ");
  const std::string& name = EncodeStr(in, key);
  const std::string& text = EncodeStr(in, value);
  // os.putenv's ValueErrors ("illegal environment variable name", "embedded null byte").
  if (name.empty() || name.find_first_of(std::string_view("=\0", 2)) != std::string::npos ||
      text.find('\0') != std::string::npos) {
    RefuseNotModeled("os.environ[...] = ... with an empty name, or '=' or a NUL in it");
  }
  in.process().environ_changes[name] = text;
}

bool DynamoDisabledByEnviron(Interpreter& in) {
  const auto& changes = in.process().environ_changes;
  auto it = changes.find(kDynamoDisable);
  const bool disabled =
      it == changes.end() ? !in.process().compiler.make_compile_wrapper : it->second == "1";
  if (!disabled && !in.process().compiler.make_compile_wrapper) {
    RefuseNotModeled(
        "torch.compile after the program changed TORCHDYNAMO_DISABLE in the eager run (which is "
        "torch under TORCHDYNAMO_DISABLE=1) is not modeled");
  }
  return disabled;
}

void InstallOs(Interpreter& in) {
  Ref<PyType> type = LibraryClass(in, "_Environ", "os");
  InstallEnvironMethods(in, type);
  Ref<PyInstance> environ = in.heap().NewInstance(type);
  environ->repr_not_modeled = true;
  in.process().modules()[ModuleId::kOs]->SetAttr("environ", environ);
}

}  // namespace tdc::runtime
