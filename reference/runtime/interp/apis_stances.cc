// (placeholder: filled by the eager-API work of issue 5)
#include "reference/runtime/interp/library.h"

namespace tdc::runtime {

void InstallStanceApis(Interpreter& in) { (void)in; }

}  // namespace tdc::runtime
