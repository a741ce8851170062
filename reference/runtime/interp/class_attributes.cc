// The attribute protocol of a class statement's classes and instances (SEMANTICS.md §7.4):
// getattr / setattr / delattr as CPython's object and type getattro do them, with the
// builtins' descriptors and the with statement's special-method look-up.
#include <fmt/format.h>

#include <string_view>

#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The class attribute `name` of `type` or a base (null when none has it).
Value FindOnClass(const PyType& type, std::string_view name) {
  for (const PyType* t = &type; t != nullptr; t = t->base.get()) {
    if (Value v = t->dict->GetStr(name)) return v;
  }
  return nullptr;
}

}  // namespace

Value DescriptorPart(const Value& descriptor, std::string_view part) {
  return DynCast<PyInstance>(descriptor)->attrs->GetStr(part);
}

bool IsClassMachinery(const Value& v) {
  return IsDescriptor(v, "staticmethod") || IsDescriptor(v, "classmethod") ||
         IsDescriptor(v, "property") || IsDescriptor(v, "super");
}

std::optional<Value> ClassStatementAttribute(Interpreter& in, const Value& object,
                                             std::string_view name) {
  const auto* instance = DynCast<PyInstance>(object);
  const PyType& type = instance != nullptr ? *instance->type : *DynCast<PyType>(object);
  Value found = FindOnClass(type, name);
  if (IsClassMachinery(found)) in.Use(found);  // the frame hook sees the descriptor used
  if (instance != nullptr) {
    if (IsDescriptor(found, "property")) {  // a data descriptor comes before the instance
      Value getter = DescriptorPart(found, "fget");
      if (Is<PyNone>(getter)) {
        Raise(in.heap(), ExcType::kAttributeError,
              fmt::format("property '{}' of '{}' object has no getter", name, type.name));
      }
      return in.Call(getter, {{object}, {}});
    }
    if (Value v = instance->attrs->GetStr(name)) return v;
  }
  if (!found) return std::nullopt;
  if (instance != nullptr) in.ClassAttributeRead(object, name);
  Value owner = instance != nullptr ? Value(instance->type) : object;
  if (Is<PyFunction>(found)) {
    return instance != nullptr ? Value(in.heap().NewMethod(found, object)) : found;
  }
  if (IsDescriptor(found, "staticmethod")) return DescriptorPart(found, "__func__");
  if (IsDescriptor(found, "classmethod")) {
    return in.heap().NewMethod(DescriptorPart(found, "__func__"), owner);
  }
  return found;
}

bool SetClassStatementAttribute(Interpreter& in, const Value& object, std::string_view name,
                                const Value* value) {
  if (auto* type = DynCast<PyType>(object); type != nullptr && type->user_defined) {
    if (type->traced) {
      RefuseNotModeled(fmt::format(
          "a store into class {} after Dynamo traced an instance of it is not modeled (torch "
          "guards the class attributes its trace read)",
          type->name));
    }
    if (value == nullptr) return type->dict->EraseStr(name);
    CheckClassAttribute(type->name, name, *value);
    type->dict->SetStr(name, *value);
    return true;
  }
  auto* instance = DynCast<PyInstance>(object);
  Value found = FindOnClass(*instance->type, name);
  if (IsDescriptor(found, "property")) {
    Value setter = DescriptorPart(found, "fset");
    if (value == nullptr || Is<PyNone>(setter)) {
      Raise(in.heap(), ExcType::kAttributeError,
            fmt::format("property '{}' of '{}' object has no {}", name, instance->type->name,
                        value == nullptr ? "deleter" : "setter"));
    }
    in.Call(setter, {{object, *value}, {}});
    return true;
  }
  if (value == nullptr) return instance->attrs->EraseStr(name);
  instance->attrs->SetStr(name, *value);
  return true;
}

std::pair<Value, Value> ContextMethods(Interpreter& in, const Value& manager) {
  in.Use(manager);
  const PyType& type = *DynCast<PyInstance>(manager)->type;
  Value enter = FindOnClass(type, "__enter__");
  Value exit = FindOnClass(type, "__exit__");
  if (!enter || !exit) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("'{}' object does not support the context manager protocol{}", type.name,
                      enter ? " (missed __exit__ method)" : ""));
  }
  return {in.heap().NewMethod(enter, manager), in.heap().NewMethod(exit, manager)};
}

}  // namespace tdc::runtime
