// The ATen lowering of one op (issue 9): the nodes AOT autograd's forward graph has for a
// Dynamo node, decided by the op, its arguments' kinds and the shapes and strides of its
// tensors. One small function per op (lowerings.def); they emit into a Recorder.
#ifndef TDCONFORM_REFERENCE_AOT_LOWERING_H_
#define TDCONFORM_REFERENCE_AOT_LOWERING_H_

#include <string_view>

#include "reference/aot/recorder.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/tensor.h"

namespace tdc::aot {

// One op as Dynamo saw it: where it was called, the arguments as passed (the receiver
// first for a method), and its result.
struct OpCall {
  const runtime::OpCallSite& site;
  const CallArgs& args;
  const Value& result;

  // The argument given for parameter `name` of the op's signature, or null when it was
  // not given (for keyword-only parameters and those before any variadic int list).
  Value Given(std::string_view name) const;
  // The arguments bound to the signature, defaults filled in (runtime::Bind).
  runtime::BoundArgs Bound() const;
  const runtime::Tensor& Result() const;
};

// Emits the ATen nodes of `call` into `r` and binds its result tensors.
void Lower(Recorder& r, const OpCall& call);

// Calls that reach no ops.def row: torch.ops.aten.<op>[.<overload>] called directly, the
// builtins max / min of two tensors (torch.maximum / minimum nodes), and `.real` / `.imag`
// of a complex result (builtins.getattr).
void LowerAtenDirect(Recorder& r, const OpCall& call);
// A custom op: its node as called (`<ns>.<op>.default`).
void LowerOpaque(Recorder& r, const OpCall& call);
void LowerExtreme(Recorder& r, const OpCall& call);
void LowerComplexPart(Recorder& r, const OpCall& call);
// Tensor indexing, `operator.getitem` of a tensor (lower_indexing.cc).
void LowerTensorIndex(Recorder& r, const OpCall& call);

// The lowering functions (lowerings.def names one per op).
#define TDC_LOWERING(op, function) void function(Recorder& r, const OpCall& call);
#include "reference/aot/lowerings.def"
#undef TDC_LOWERING

}  // namespace tdc::aot

#endif  // TDCONFORM_REFERENCE_AOT_LOWERING_H_
