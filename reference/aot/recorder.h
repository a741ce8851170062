// The aot layer's FragmentRecorder (reference/dynamo/aten_lowering.h): each recorded op is
// lowered by its function in lowerings.def into ATen nodes over the tensors the recorder
// knows (by object identity: the inputs, then every result it has lowered).
#ifndef TDCONFORM_REFERENCE_AOT_RECORDER_H_
#define TDCONFORM_REFERENCE_AOT_RECORDER_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "reference/dynamo/aten_lowering.h"

namespace tdc::aot {

using runtime::CallArgs;
using runtime::Value;

class Recorder final : public dynamo::FragmentRecorder {
 public:
  Recorder(const std::vector<const runtime::PyTensor*>& inputs, dynamo::ForeignTensor foreign);

  void Record(const runtime::OpCallSite& site, const CallArgs& as_called,
              const Value& result) override;
  dynamo::Fragment Finish(const Value& result) override;

  // For the lowerings: `v` as a node argument (a tensor as a ref to its node), a new node
  // `target(args, kwargs)` (its ref), and the node a result tensor is.
  graph::Arg ArgOf(const Value& v);
  int64_t Emit(std::string target, std::vector<graph::Arg> args,
               graph::OrderedMap<graph::Arg> kwargs = {});
  // A get_attr node reading `tensor`, a tensor constant of the graph module (named when
  // graphs are assembled).
  int64_t EmitConstant(const Value& tensor);
  void Bind(const Value& tensor, int64_t ref);
  // The recorded code cannot be lowered: the fragment is unsupported.
  void Unsupported(std::string why);

 private:
  int64_t RefOf(const runtime::PyTensor& tensor);

  std::unordered_map<const runtime::PyTensor*, int64_t> refs_;
  dynamo::ForeignTensor foreign_;
  dynamo::Fragment fragment_;
};

}  // namespace tdc::aot

#endif  // TDCONFORM_REFERENCE_AOT_RECORDER_H_
