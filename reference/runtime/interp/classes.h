// The program's own classes (class statements): what the rest of the reference asks of them.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_

#include <string>

#include "reference/runtime/types.h"

namespace tdc::runtime {

// Whether `v` is a class a class statement made, an instance of one, or a method bound to
// such an instance (Dynamo does not model tracing them yet: the classes issue).
bool IsOfUserClass(const Value& v);
// What such a value is, for messages: "a class statement's class (C)", "... instance (of C)",
// "a bound method of a class statement's instance (of C)".
std::string DescribeUserClassValue(const Value& v);

class Interpreter;
// The builtin super (two arguments, or none in a method of a class statement's class).
void InstallSuper(Interpreter& in);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_CLASSES_H_
