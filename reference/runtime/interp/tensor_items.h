// `tensor[key]` in a program: the key's Python values read as torch's binding reads them
// (python_variable_indexing.cpp: ints, slices, None, Ellipsis, bools, tensors, lists of
// ints), the indexing run (reference/runtime/indexing.h) and its result wrapped (a view
// keeps its base). Shared with the aot layer, which lowers the same steps.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_ITEMS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_ITEMS_H_

#include <vector>

#include "reference/runtime/indexing.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;

// The key as index items: `tuple` when it was a tuple. A key torch rejects raises its
// error (TorchError); one the reference does not model is refused.
struct IndexKey {
  std::vector<TensorIndex> items;
  std::vector<Value> values;  // the Python value of each item
  bool tuple = false;
};
IndexKey IndexKeyOf(const Tensor& self, const Value& key);

// Whether Dynamo's graph can hold this index as the reference models it: no bool (a mask's
// result size depends on data; a Python bool's ATen lowering is not modeled), no 0-dim
// tensor (its value is read), no list (lifted as a constant at the ATen level).
bool TraceableIndex(const IndexKey& key);

// `container[key]` for a tensor container, Dynamo told of it as operator.getitem.
Value TensorGetItem(Interpreter& in, const Value& container, const Value& key);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_TENSOR_ITEMS_H_
