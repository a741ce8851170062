#include "reference/dynamo/variable_repr.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reference/runtime/interp/py_ops.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::string VariableRepr(const Value& v) {
  return fmt::format("ConstantVariable({}: {})", TypeName(v), Repr(v));
}

std::string VariableList(const std::vector<Value>& values) {
  std::vector<std::string> parts;
  for (const Value& v : values) parts.push_back(VariableRepr(v));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

std::string VariableDict(const std::vector<std::pair<std::string, Value>>& keywords) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : keywords) parts.push_back(fmt::format("'{}': {}", k, VariableRepr(v)));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

bool IsPythonConstant(const Value& v) {
  return Is<PyNone>(v) || Is<PyBool>(v) || Is<PyInt>(v) || Is<PyFloat>(v) || Is<PyStr>(v);
}

}  // namespace tdc::dynamo
