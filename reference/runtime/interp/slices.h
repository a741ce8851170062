// Python's slice objects (`a:b:c` in a subscript, `slice(a, b, c)`) and the Ellipsis
// singleton (`...`): instances of the builtin classes `slice` and `ellipsis`, read by
// tensor indexing and by Dynamo when it records an index as a graph argument.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_SLICES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_SLICES_H_

#include <optional>

#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;

// builtins.slice (callable as slice(stop) / slice(start, stop[, step])) and
// builtins.Ellipsis; called by InstallBuiltins.
void InstallSlices(Interpreter& in);

// A new slice object (a heap object; None for an absent part).
Value NewSlice(Interpreter& in, Value start, Value stop, Value step);
// The Ellipsis object.
Value EllipsisObject(Interpreter& in);

struct SliceParts {
  Value start, stop, step;
};
// The parts of a slice object, or nullopt for any other value.
std::optional<SliceParts> SliceOf(const Value& v);
bool IsEllipsis(const Value& v);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_SLICES_H_
