// Attribute access and calls of non-function objects: modules, functions' attributes,
// tensors' properties and methods, instances of library classes, classes, bound methods.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_ATTRIBUTES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_ATTRIBUTES_H_

#include <optional>
#include <string_view>

#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;

// A method found on the object's class (CPython's LOAD_METHOD): the function to call
// with the object as its first argument, without making a bound method object.
std::optional<Value> LookupMethod(Interpreter& in, const Value& object, std::string_view name);
// Calls of bound methods, classes and callable instances; TypeError for the rest.
Value CallOther(Interpreter& in, const Value& callee, CallArgs args);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_ATTRIBUTES_H_
