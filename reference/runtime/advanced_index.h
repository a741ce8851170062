// aten.index.Tensor: advanced (integer-array and boolean-mask) indexing, a copy, as ATen's
// TensorAdvancedIndexing.cpp computes it (make_info, AdvancedIndex, the TensorIterator
// the CPU index kernel runs over), with torch's IndexError texts.
#ifndef TDCONFORM_REFERENCE_RUNTIME_ADVANCED_INDEX_H_
#define TDCONFORM_REFERENCE_RUNTIME_ADVANCED_INDEX_H_

#include <optional>
#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// `self[indices]` where indices[d] indexes dim d (nullopt: the whole dim, as `:`). Bool
// masks become the long indices of their true elements (so the result's size depends on
// data); int64 indices may be negative. The result is a new tensor laid out as
// TensorIterator lays out its output (dims ordered by the operands' strides).
Tensor Index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_ADVANCED_INDEX_H_
