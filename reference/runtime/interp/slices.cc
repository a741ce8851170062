#include "reference/runtime/interp/slices.h"

#include <fmt/format.h>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_ops.h"

namespace tdc::runtime {
namespace {

bool IsInstanceOf(const Value& v, std::string_view type_name) {
  const auto* instance = DynCast<PyInstance>(v);
  return instance != nullptr && instance->type->module == "builtins" &&
         instance->type->name == type_name;
}

}  // namespace

void InstallSlices(Interpreter& in) {
  Ref<PyType> slice = in.heap().NewType("slice", "builtins");
  slice->construct = [&in](CallArgs& a) {
    if (!a.keywords.empty())
      Raise(in.heap(), ExcType::kTypeError, "slice() takes no keyword arguments");
    if (a.positional.empty() || a.positional.size() > 3) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("slice expected at {} 1 argument{}, got {}",
                        a.positional.empty() ? "least" : "most", a.positional.empty() ? "" : "s",
                        a.positional.size()));
    }
    Value none = in.heap().None();
    if (a.positional.size() == 1) return NewSlice(in, none, a.positional[0], none);
    return NewSlice(in, a.positional[0], a.positional[1],
                    a.positional.size() == 3 ? a.positional[2] : none);
  };
  in.process().builtins()->SetAttr("slice", slice);
  Ref<PyType> ellipsis = in.heap().NewType("ellipsis", "builtins");
  // The one instance lives as long as the builtins module that holds it.
  in.process().builtins()->SetAttr("Ellipsis", in.heap().NewInstance(ellipsis));
}

Value NewSlice(Interpreter& in, Value start, Value stop, Value step) {
  Ref<PyInstance> s =
      in.heap().NewInstance(RefCast<PyType>(in.process().builtins()->GetAttr("slice")));
  s->attrs->SetStr("start", std::move(start));
  s->attrs->SetStr("stop", std::move(stop));
  s->attrs->SetStr("step", std::move(step));
  return s;
}

Value EllipsisObject(Interpreter& in) { return in.process().builtins()->GetAttr("Ellipsis"); }

std::optional<SliceParts> SliceOf(const Value& v) {
  if (!IsInstanceOf(v, "slice")) return std::nullopt;
  const PyDict& attrs = *DynCast<PyInstance>(v)->attrs;
  return SliceParts{attrs.GetStr("start"), attrs.GetStr("stop"), attrs.GetStr("step")};
}

bool IsEllipsis(const Value& v) { return IsInstanceOf(v, "ellipsis"); }

}  // namespace tdc::runtime
