// How Dynamo shows a traced call's arguments in its messages: each argument's
// VariableTracker repr (only constants' are modeled: IsPythonConstant says which).
#ifndef TDCONFORM_REFERENCE_DYNAMO_VARIABLE_REPR_H_
#define TDCONFORM_REFERENCE_DYNAMO_VARIABLE_REPR_H_

#include <string>
#include <utility>
#include <vector>

#include "reference/runtime/values.h"

namespace tdc::dynamo {

// ConstantVariable(str: 'x'), for a constant argument.
std::string VariableRepr(const runtime::Value& v);
// [ConstantVariable(...), ...] and {'k': ConstantVariable(...), ...}.
std::string VariableList(const std::vector<runtime::Value>& values);
std::string VariableDict(const std::vector<std::pair<std::string, runtime::Value>>& keywords);
// The VariableTracker class an argument becomes ("<class 'torch._dynamo.variables.lists.
// ListVariable'>"), for a tensor, a constant or a list; refused for the rest.
std::string VariableClassOf(const runtime::Value& v);
// None, bool, int, float or str: the arguments whose VariableTracker the reference prints.
bool IsPythonConstant(const runtime::Value& v);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_VARIABLE_REPR_H_
