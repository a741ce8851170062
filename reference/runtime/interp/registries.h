// Dynamo's callable registries (torch._dynamo.trace_rules' _allowed_callable_ids,
// _disallowed_callable_ids, _nonstrict_trace_callable_ids, _leaf_function_ids): sets of object ids,
// one set of each per Process, filled by allow_in_graph, disallow_in_graph and nonstrict_trace
// (apis_registries.cc, apis_markers.cc) and read by Dynamo. An allow_in_graph'd function's id
// leaves the allowed set when it dies (its weakref.finalize). forbid_in_graph marks the callable
// itself (attribute `_dynamo_forbidden`), as torch does.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_REGISTRIES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_REGISTRIES_H_

#include <map>
#include <set>

#include "reference/runtime/object.h"

namespace tdc::runtime {

// Process state (process.h owns one), like the module-level sets of torch it models.
struct DynamoRegistries {
  std::set<ObjectId> allowed;
  std::set<ObjectId> disallowed;
  std::set<ObjectId> nonstrict_trace;
  // torch._dynamo.decorators.leaf_function's wrappers (_leaf_function_ids; each is in
  // `allowed` too, as in torch).
  std::set<ObjectId> leaf_function;
  // substitute_in_graph's registrations (torch's polyfill handlers): the id of an original
  // and of the `wrapped` function returned for it, each mapped to `wrapped`, whose
  // __torch_dynamo_polyfill__ Dynamo calls in their place. Held for the process's life, as
  // torch's handler dict holds both functions.
  std::map<ObjectId, Value> polyfills;
  // Whether allow_in_graph's finalizer deregisters the id (Dynamo's rule
  // R-allow-finalizer switches it off; the finalizer and its deaths stay).
  bool allow_finalizer_deregisters = true;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_REGISTRIES_H_
