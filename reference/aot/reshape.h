// Reshapes inside lowerings (matmul's folding and batching, torch.reshape): a view when
// the strides allow one, else a contiguous clone and an _unsafe_view, as ATen's reshape.
#ifndef TDCONFORM_REFERENCE_AOT_RESHAPE_H_
#define TDCONFORM_REFERENCE_AOT_RESHAPE_H_

#include "reference/aot/recorder.h"
#include "reference/runtime/tensor.h"

namespace tdc::aot {

// A node's ref together with the tensor it computes (its sizes and strides decide).
struct Traced {
  graph::Arg ref;
  runtime::Tensor tensor;
};

// `t` reshaped to `shape` (no -1): its nodes, and the result.
Traced EmitReshape(Recorder& r, const Traced& t, const runtime::Shape& shape);

}  // namespace tdc::aot

#endif  // TDCONFORM_REFERENCE_AOT_RESHAPE_H_
