// The aot layer's AtenLowering: what callers of dynamo::RunCompiled pass in
// CompileRunOptions::aten so that invocations carry ATen graphs.
#ifndef TDCONFORM_REFERENCE_AOT_AOT_LOWERING_H_
#define TDCONFORM_REFERENCE_AOT_AOT_LOWERING_H_

#include "reference/dynamo/aten_lowering.h"

namespace tdc::aot {

// Stateless; one instance serves every run.
dynamo::AtenLowering& AotLowering();

}  // namespace tdc::aot

#endif  // TDCONFORM_REFERENCE_AOT_AOT_LOWERING_H_
