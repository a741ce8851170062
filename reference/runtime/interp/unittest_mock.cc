// unittest.mock's patch.dict as a context manager, as CPython 3.11's _patch_dict has it: on
// entering it saves the dict, updates it with the values (clearing it first when asked) and
// returns it; on leaving it puts back what it saved. The dict is a dict or os.environ
// (os_environ.h). patch itself, its other forms and patch.dict as a decorator are refused.
#include <fmt/format.h>

#include <map>
#include <memory>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/os_environ.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

// What an entered _patch_dict saved (CPython's self._original, kept after __exit__ as
// CPython keeps it), by the instance. An instance made where a dead one was drops its entry.
struct Saved {
  Ref<PyDict> dict;        // a dict's copy
  EnvironChanges environ;  // os.environ's
};
using SavedByPatch = std::map<const Object*, Saved>;

// _patch_dict(in_dict, values=(), clear=False, **kwargs): self.values = dict(values), then
// updated with the keywords.
Value Construct(Interpreter& in, const Ref<PyType>& type, SavedByPatch& saved, CallArgs& args) {
  RefuseInCompiledRegion(in, "unittest.mock.patch.dict");
  CallArgs own{args.positional, {}};
  CallArgs extra;
  for (auto& [name, value] : args.keywords) {
    if (name == "in_dict" || name == "values" || name == "clear") {
      own.keywords.emplace_back(name, value);
    } else {
      extra.keywords.emplace_back(name, value);
    }
  }
  std::vector<Value> a = apis::BindParams(in, "_patch_dict.__init__",
                                          {{"in_dict"}, {"values", true}, {"clear", true}}, own);
  Ref<PyDict> values = in.heap().NewDict();
  if (a[1]) {
    const auto* given = DynCast<PyDict>(a[1]);
    if (given == nullptr)
      RefuseNotModeled("unittest.mock.patch.dict with values other than a dict");
    for (auto& [k, v] : given->Items()) values->Set(k, v);
  }
  for (auto& [name, value] : extra.keywords) values->SetStr(name, value);
  Ref<PyInstance> self = in.heap().NewInstance(type);
  saved.erase(self.get());
  self->attrs->SetStr("in_dict", a[0]);
  self->attrs->SetStr("values", values);
  self->attrs->SetStr("clear", a[2] ? a[2] : in.heap().False());
  return Value(self);
}

// The patch `args` is called on, with the dict it patches checked as CPython's would find it
// (the program may have set its attributes since): a dict or os.environ, values in a dict.
struct Patch {
  const PyInstance* self;
  Value in_dict;
};
Patch PatchOf(Interpreter& in, const Ref<PyType>& type, const CallArgs& args) {
  const auto* self = args.positional.empty() ? nullptr : DynCast<PyInstance>(args.positional[0]);
  if (self == nullptr || self->type != type || !args.keywords.empty() ||
      args.positional.size() > 4) {
    RefuseNotModeled("a unittest.mock.patch.dict method called on another object or arguments");
  }
  Value in_dict = self->attrs->GetStr("in_dict");
  if (!in_dict || (!Is<PyDict>(in_dict) && !IsEnviron(in, in_dict))) {
    RefuseNotModeled(
        "unittest.mock.patch.dict of something other than a dict or os.environ (CPython imports "
        "a str's target; other mappings are not modeled)");
  }
  return {self, in_dict};
}

Value Enter(Interpreter& in, const Ref<PyType>& type, SavedByPatch& saved, CallArgs& args) {
  RefuseInCompiledRegion(in, "unittest.mock.patch.dict");
  const Patch patch = PatchOf(in, type, args);
  const auto* values = DynCast<PyDict>(patch.self->attrs->GetStr("values"));
  Value clear_flag = patch.self->attrs->GetStr("clear");
  if (values == nullptr || !clear_flag) {
    RefuseNotModeled("unittest.mock.patch.dict whose values or clear the program replaced");
  }
  const bool clear = Truth(in, clear_flag);
  if (auto* dict = DynCast<PyDict>(patch.in_dict)) {
    Ref<PyDict> copy = in.heap().NewDict();
    for (auto& [k, v] : dict->Items()) copy->Set(k, v);
    saved[patch.self] = {copy, {}};
    if (clear) {
      for (auto& [k, v] : dict->Items()) dict->Erase(k);
    }
    for (auto& [k, v] : values->Items()) dict->Set(k, v);
  } else {
    if (clear) RefuseNotModeled("unittest.mock.patch.dict(os.environ, clear=True) is not modeled");
    saved[patch.self] = {nullptr, SaveEnviron(in)};
    for (auto& [k, v] : values->Items()) SetEnvironVariable(in, k, v);
  }
  return patch.in_dict;
}

// _unpatch_dict: the dict cleared and given back what was saved (only after an entry).
Value Exit(Interpreter& in, const Ref<PyType>& type, SavedByPatch& saved, CallArgs& args) {
  RefuseInCompiledRegion(in, "unittest.mock.patch.dict");
  const Patch patch = PatchOf(in, type, args);
  auto it = saved.find(patch.self);
  if (it == saved.end()) return in.heap().False();
  const Saved& original = it->second;
  auto* dict = DynCast<PyDict>(patch.in_dict);
  if ((dict != nullptr) != static_cast<bool>(original.dict)) {
    RefuseNotModeled("unittest.mock.patch.dict whose in_dict the program replaced while entered");
  }
  if (dict != nullptr) {
    for (auto& [k, v] : dict->Items()) dict->Erase(k);
    for (auto& [k, v] : original.dict->Items()) dict->Set(k, v);
  } else {
    RestoreEnviron(in, original.environ);
  }
  return in.heap().False();
}

}  // namespace

void InstallUnittestMock(Interpreter& in) {
  Value globals = apis::LibGlobals(in, "unittest.mock");
  Ref<PyType> patch_dict = LibraryClass(in, "_patch_dict", "unittest.mock");
  patch_dict->object_repr = true;
  auto saved = std::make_shared<SavedByPatch>();
  PyType* raw = patch_dict.get();
  patch_dict->construct = [&in, raw, saved](CallArgs& args) {
    return Construct(in, Ref<PyType>(raw), *saved, args);
  };
  AddMethod(in, patch_dict, "__enter__", [&in, raw, saved](CallArgs& args) {
    return Enter(in, Ref<PyType>(raw), *saved, args);
  });
  AddMethod(in, patch_dict, "__exit__",
            [&in, raw, saved](CallArgs& args) { return Exit(in, Ref<PyType>(raw), *saved, args); });
  AddMethod(in, patch_dict, "__call__", [](CallArgs&) -> Value {
    RefuseNotModeled("unittest.mock.patch.dict as a decorator is not modeled");
  });
  RefuseOtherAttributes(in, patch_dict);

  auto refused = [&in, &globals](std::string_view qualname) {
    std::string what = fmt::format("unittest.mock.{} is not modeled", qualname);
    return apis::MakeLibFunction(
        in, globals, qualname, [what](PyFunction&, CallArgs&) -> Value { RefuseNotModeled(what); });
  };
  // patch's attributes, as mock.py sets them: patch.dict is the class.
  Ref<PyFunction> patch = refused("patch");
  patch->SetAttr("dict", patch_dict);
  patch->SetAttr("object", refused("_patch_object"));
  patch->SetAttr("multiple", refused("_patch_multiple"));
  patch->SetAttr("stopall", refused("_patch_stopall"));
  patch->SetAttr("TEST_PREFIX", in.heap().Intern("test"));
  in.process().modules()[ModuleId::kUnittestMock]->SetAttr("patch", patch);
}

}  // namespace tdc::runtime
