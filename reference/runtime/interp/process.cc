#include "reference/runtime/interp/process.h"

namespace tdc::runtime {

Process::Process()
    : types_(heap_), modules_(MakeModules(heap_)), builtins_(heap_.NewModule("builtins")) {}

Process::~Process() = default;

}  // namespace tdc::runtime
