// The seam between Dynamo and the ATen level (DESIGN D5: the aot layer sits to the right
// of dynamo and implements this). While a frame is traced, every op that becomes a graph
// node is handed to a FragmentRecorder with its concrete arguments (shapes, strides and
// argument kinds decide the ATen ops), and so is every op an allow_in_graph body runs
// (AOT autograd traces through it). At the end of the frame, GraphBuilder splices the
// fragments of the nodes it keeps into the forward graph AOT autograd would hand its
// compiler. Recorders hold no references, so no object lives longer than it would.
#ifndef TDCONFORM_REFERENCE_DYNAMO_ATEN_LOWERING_H_
#define TDCONFORM_REFERENCE_DYNAMO_ATEN_LOWERING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/graph/graph.h"
#include "reference/runtime/interp/process.h"

namespace tdc::dynamo {

// The ATen nodes some traced code becomes, over its tensor inputs. In the nodes' args a
// ref k >= 0 names nodes[k] and a ref -(j + 1) the j-th input.
struct Fragment {
  std::vector<graph::Node> nodes;
  std::vector<int64_t> outputs;  // per tensor of the result (CollectTensors order), a ref
  // Non-empty: what in it has no lowering, as a noun phrase ("a call of torch.foo"); the run
  // is refused when the fragment reaches a kept node (DESIGN D13).
  std::string unsupported;
  // Per get_attr node of `nodes`, in order: the tensor constant it reads.
  std::vector<runtime::Value> constants;

  static Fragment Unsupported(std::string why) {
    Fragment f;
    f.unsupported = std::move(why);
    return f;
  }
};

class FragmentRecorder {
 public:
  virtual ~FragmentRecorder() = default;
  // One op the traced code ran (`site` as the observer was told of it).
  virtual void Record(const runtime::OpCallSite& site, const runtime::CallArgs& as_called,
                      const runtime::Value& result) = 0;
  // The fragment whose outputs are the tensors of `result`.
  virtual Fragment Finish(const runtime::Value& result) = 0;
};

// What a recorder does with a tensor that is neither an input nor made by a recorded op (a
// global the traced code reads).
enum class ForeignTensor {
  // make_fx lifts it as a tensor constant of the graph module (get_attr
  // `_tensor_constant<k>`, one node per use): a nonstrict_trace body, a single op.
  kConstant,
  // Dynamo's fake-tensor run of an allow_in_graph body raises when a real tensor meets a
  // fake one (torch 2.13.0: TorchRuntimeError, "Please convert all Tensors to FakeTensors
  // first"); that error is not modeled, so it is refused.
  kRefuse,
};

class AtenLowering {
 public:
  virtual ~AtenLowering() = default;
  // A recorder over these input tensors (the j-th is input j).
  virtual std::unique_ptr<FragmentRecorder> Start(
      const std::vector<const runtime::PyTensor*>& inputs, ForeignTensor foreign) = 0;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_ATEN_LOWERING_H_
