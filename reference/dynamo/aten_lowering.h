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
  std::string unsupported;       // non-empty: no lowering for something in it (why)
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

class AtenLowering {
 public:
  virtual ~AtenLowering() = default;
  // A recorder over these input tensors (the j-th is input j).
  virtual std::unique_ptr<FragmentRecorder> Start(
      const std::vector<const runtime::PyTensor*>& inputs) = 0;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_ATEN_LOWERING_H_
