#include "reference/aot/aot_lowering.h"

#include "reference/aot/recorder.h"

namespace tdc::aot {
namespace {

class Lowering final : public dynamo::AtenLowering {
 public:
  std::unique_ptr<dynamo::FragmentRecorder> Start(
      const std::vector<const runtime::PyTensor*>& inputs, dynamo::ForeignTensor foreign) override {
    return std::make_unique<Recorder>(inputs, foreign);
  }
};

}  // namespace

dynamo::AtenLowering& AotLowering() {
  static Lowering lowering;
  return lowering;
}

}  // namespace tdc::aot
