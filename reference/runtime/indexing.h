// Python's `tensor[index]` (torch/csrc/autograd/python_variable_indexing.cpp,
// THPVariable_getitem, and ATen's TensorIndexing.h): the index's items applied dim by dim
// as views (select, slice, unsqueeze), then one advanced index (aten.index) when tensors
// or bools were among them. The steps are kept: AOT autograd's graph records them one node
// each (reference/aot/lower_indexing.cc).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INDEXING_H_
#define TDCONFORM_REFERENCE_RUNTIME_INDEXING_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// One item of an index as torch's Python binding reads it (at::indexing::TensorIndex).
struct TensorIndex {
  enum class Kind { kInteger, kSlice, kNone, kEllipsis, kBoolean, kTensor };
  Kind kind = Kind::kNone;
  int64_t integer = 0;   // kInteger
  bool boolean = false;  // kBoolean
  // kSlice, as __PySlice_Unpack gives them: None is 0 / INT64_MAX / 1.
  int64_t start = 0, stop = std::numeric_limits<int64_t>::max(), step = 1;
  Tensor tensor;  // kTensor (a Python sequence of ints already made one)
};

// One op the indexing ran, in order; each takes the previous one's result (the first
// takes self).
struct IndexingStep {
  enum class Kind { kSelect, kSlice, kUnsqueeze, kAlias, kIndex };
  Kind kind = Kind::kAlias;
  int64_t dim = 0;
  int64_t index = 0;                     // kSelect
  int64_t start = 0, end = 0, step = 1;  // kSlice
  // kIndex: per dim, the index item it takes its tensor from, or -1 for none (`:`).
  // A bool item's tensor is made by the indexing: `from_bool` marks it.
  std::vector<int64_t> from_item;
  std::vector<bool> from_bool;
};

struct Indexed {
  Tensor result;
  std::vector<IndexingStep> steps;
  bool advanced = false;  // an aten.index ran: the result is a copy, not a view
};

// `self[items...]`; `tuple` when the Python index was a tuple (torch takes other paths
// for a single int, slice, None, Ellipsis or bool). Errors are torch's, as TorchError.
Indexed ApplyIndex(const Tensor& self, const std::vector<TensorIndex>& items, bool tuple);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INDEXING_H_
