// The bridge between the interpreter's objects and the op table: converting a call's
// Values to OpValues, running the op, and wrapping its result as Python objects (a view
// keeps its base's object alive, SEMANTICS §6 I8).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_VALUES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_VALUES_H_

#include "reference/runtime/interp/process.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;

// A call's arguments as the op table takes them (tensors, numbers, dtypes, sequences of
// them). An argument the table has no kind for (a str, as in device="cpu"; a function) is
// refused as not modeled, naming `op_name` and the argument (D13): torch accepts some such
// arguments and rejects others with messages the reference does not reproduce.
struct OpArgs {
  std::vector<OpValue> positional;
  std::vector<std::pair<std::string, OpValue>> keywords;
};
OpArgs ToOpArgs(std::string_view op_name, const CallArgs& args);
// Runs `op` on a Python call's arguments (the receiver first for a method).
Value CallTensorOp(Interpreter& in, const OpInfo& op, Surface surface, CallArgs args);
// CallTensorOp for a call the program made through `site`: the op observer, when there is
// one, is told of it with the arguments as passed.
Value CallTensorOpAt(Interpreter& in, const OpCallSite& site, const OpInfo& op, Surface surface,
                     CallArgs args);
// Tells the op observer, when there is one, that `site(*as_called)` gave `result`.
void NotifyTensorOp(Interpreter& in, const OpCallSite& site, const CallArgs& as_called,
                    const Value& result);
// A new tensor object for a tensor no input aliases.
Value WrapTensor(Interpreter& in, Tensor t);
const Tensor& TensorOf(const Value& v);
// A Python bool, int or float as a Scalar (bool, int64, float64).
Scalar ScalarOf(const Value& v);
// A Python number for a Scalar.
Value NumberValue(Interpreter& in, const Scalar& s);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_VALUES_H_
