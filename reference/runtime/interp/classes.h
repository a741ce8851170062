// The program's own classes (class statements): what the rest of the reference asks of them.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "reference/runtime/types.h"

namespace tdc::runtime {

// Whether `v` is a class a class statement made, an instance of one, or a method bound to
// such an instance (Dynamo does not model tracing them yet: the classes issue).
bool IsOfUserClass(const Value& v);
// What such a value is, for messages: "a class statement's class (C)", "... instance (of C)",
// "a bound method of a class statement's instance (of C)".
std::string DescribeUserClassValue(const Value& v);

bool IsUserInstance(const Value& v);
// `__name__`: a special name (CPython's dunder), which the runtime models case by case.
bool IsSpecialName(std::string_view name);
// Refuses binding `name` to `value` in a class statement's class the runtime would not read
// as CPython does (a special name it does not call, a value it would not bind).
void CheckClassAttribute(const std::string& class_name, std::string_view name, const Value& value);
// An object of the builtins' class `type_name` (staticmethod, classmethod, property, super).
bool IsDescriptor(const Value& v, std::string_view type_name);
// Its part `part` (`__func__`; `fget`, `fset`; `__thisclass__`, `__self__`).
Value DescriptorPart(const Value& descriptor, std::string_view part);
// The builtins' staticmethod, classmethod, property and super objects.
bool IsClassMachinery(const Value& v);

class Interpreter;
// The builtin `name` when it is one of super (two arguments, or none in a method of a class
// statement's class), staticmethod, classmethod and property, installing the four on the
// first such look-up (most programs make no class: the fixed cost of a run stays theirs);
// null for any other name.
Value ClassBuiltin(Interpreter& in, std::string_view name);

// getattr of a class statement's class or instance as CPython's object / type getattro
// does it: a property before the instance's own attributes, then the class chain (functions
// bound to the instance, staticmethod and classmethod unwrapped or bound); nullopt when
// nothing has `name`.
std::optional<Value> ClassStatementAttribute(Interpreter& in, const Value& object,
                                             std::string_view name);
// setattr (`value`) or delattr (null) on one: a property's setter, its "no setter" /
// "no deleter" AttributeError; false when delattr finds nothing to delete.
bool SetClassStatementAttribute(Interpreter& in, const Value& object, std::string_view name,
                                const Value* value);
// The bound __enter__ and __exit__ a with statement calls, looked up on the class, with
// CPython 3.11's TypeError when one is missing.
std::pair<Value, Value> ContextMethods(Interpreter& in, const Value& manager);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_
