// The guards of a cache entry (spec §1.2 step 5, SEMANTICS §8.2 R-cache-hit): per frame
// value, tensors by dtype, rank, sizes and strides, Python constants by value, anything
// else by identity; and the failure reason torch's guard check gives for a value that
// fails them (the fail_on_recompile stance's message, spec §2.14).
#ifndef TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_
#define TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_

#include <optional>
#include <string>
#include <vector>

#include "reference/runtime/tensor.h"
#include "reference/runtime/values.h"

namespace tdc::dynamo {

struct GuardedValue {
  size_t index = 0;   // its position among the frame's values
  std::string name;   // the source as torch's messages name it (L['args'][0] -> args[0])
  std::string guard;  // what a later value must equal for a cache hit
  struct TensorMeta {
    runtime::DType dtype;
    runtime::Shape sizes, strides;
  };
  std::optional<TensorMeta> tensor;  // metadata only: no storage kept alive
};

// A global name the trace read a callable through: `name` in `globals` must still bind the
// object with id `id` (torch's ID_MATCH on G['name']: by id, so a reused id passes).
struct GlobalGuard {
  const runtime::PyDict* globals;  // a module's namespace, alive for the whole program
  std::string name;
  runtime::ObjectId id;
  bool Holds() const;
};
// The guards on the names in `globals` that bind `callee`.
std::vector<GlobalGuard> GlobalGuardsOf(const runtime::PyDict& globals, const runtime::Value& callee);

// `v`, the frame's `index`-th value, read from `source` (L['x']).
GuardedValue Guard(const runtime::Value& v, const std::string& source, size_t index);
// The local a guard's value was read from (args[0] -> args), and whether reading it is
// what guards it: a resume function's ___stack values are always read.
std::string LocalOf(const GuardedValue& g);
// The first guard of `cached` that `now` fails, as torch words it (`tensor 'x' size
// mismatch at index 0. expected 4, actual 7`); empty when `now` passes.
std::string GuardFailure(const GuardedValue& cached, const runtime::Value& now);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_
