#include "reference/runtime/interp/process.h"

namespace tdc::runtime {

Process::Process()
    : types_(heap_), modules_(MakeModules(heap_)), builtins_(heap_.NewModule("builtins")) {}

// The heap goes first among the members (declared after `compiler`): the compiler state's
// Values (substitute_in_graph's registrations) must go before it.
Process::~Process() { compiler.registries.polyfills.clear(); }

}  // namespace tdc::runtime
