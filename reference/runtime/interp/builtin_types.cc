#include "reference/runtime/interp/builtin_types.h"

namespace tdc::runtime {
namespace {

struct KindType {
  ObjectKind kind;
  const char* name;
  const char* module;
};

// type(v).__name__ and __module__ for each runtime kind with a builtin class.
constexpr KindType kKindTypes[] = {
    {ObjectKind::kNone, "NoneType", "builtins"},
    {ObjectKind::kInt, "int", "builtins"},
    {ObjectKind::kBool, "bool", "builtins"},  // after int: its base
    {ObjectKind::kFloat, "float", "builtins"},
    {ObjectKind::kStr, "str", "builtins"},
    {ObjectKind::kTuple, "tuple", "builtins"},
    {ObjectKind::kList, "list", "builtins"},
    {ObjectKind::kDict, "dict", "builtins"},
    {ObjectKind::kCell, "cell", "builtins"},
    {ObjectKind::kFunction, "function", "builtins"},
    {ObjectKind::kBuiltin, "builtin_function_or_method", "builtins"},
    {ObjectKind::kModule, "module", "builtins"},
    {ObjectKind::kType, "type", "builtins"},
    {ObjectKind::kMethod, "method", "builtins"},
    {ObjectKind::kTensor, "Tensor", "torch"},
    {ObjectKind::kDType, "dtype", "torch"},
};

}  // namespace

BuiltinTypes::BuiltinTypes(Heap& heap) {
  object_ = heap.NewType("object", "builtins");
  for (const KindType& k : kKindTypes) {
    Ref<PyType> type = heap.NewType(k.name, k.module);
    type->instance_kind = k.kind;
    type->base = k.kind == ObjectKind::kBool ? by_kind_.at(ObjectKind::kInt) : object_;
    by_kind_.emplace(k.kind, std::move(type));
  }
  torch_size_ = heap.NewType("Size", "torch");
  torch_size_->instance_kind = ObjectKind::kTuple;
  torch_size_->base = by_kind_.at(ObjectKind::kTuple);
  for (size_t i = 0; i < kExcTypeCount; ++i) {  // exceptions.def order: bases come first
    auto type = static_cast<ExcType>(i);
    Ref<PyType> cls =
        heap.NewType(std::string(ExcTypeName(type)), std::string(ExcTypeModule(type)));
    cls->exception = type;
    cls->base =
        ExcBase(type) == type ? object_ : exceptions_.at(static_cast<size_t>(ExcBase(type)));
    exceptions_.push_back(std::move(cls));
  }
}

const Ref<PyType>& BuiltinTypes::Of(const Value& v) const {
  if (const auto* e = DynCast<PyException>(v)) return ForException(e->type());
  if (const auto* i = DynCast<PyInstance>(v)) return i->type;
  if (const auto* t = DynCast<PyTuple>(v); t != nullptr && t->torch_size()) return torch_size_;
  return by_kind_.at(v->kind());
}

}  // namespace tdc::runtime
