#include "reference/dynamo/variable_repr.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/not_modeled.h"

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

std::string VariableClassOf(const Value& v) {
  const char* name = nullptr;
  if (Is<PyTensor>(v)) name = "tensor.TensorVariable";
  if (IsPythonConstant(v)) name = "constant.ConstantVariable";
  if (Is<PyList>(v)) name = "lists.ListVariable";
  // A tuple is refused: the runtime's torch.Size and torch.return_types values are tuples
  // too, which torch names SizeVariable and NamedTupleVariable.
  if (name == nullptr) {
    RefuseNotModeled(
        fmt::format("the VariableTracker class of a '{}' argument is not modeled", TypeName(v)));
  }
  return fmt::format("<class 'torch._dynamo.variables.{}'>", name);
}

bool IsPythonConstant(const Value& v) {
  return Is<PyNone>(v) || Is<PyBool>(v) || Is<PyInt>(v) || Is<PyFloat>(v) || Is<PyStr>(v);
}

}  // namespace tdc::dynamo
