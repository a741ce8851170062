// Values (fixtures/SCHEMA.md §6): what a program returns, recorded in `outs`; and graph
// arguments (§7 Arg), which are Values without tensors plus node references, slices,
// layouts and memory formats. Values are immutable descriptions once built.
#ifndef TDCONFORM_REFERENCE_GRAPH_VALUE_H_
#define TDCONFORM_REFERENCE_GRAPH_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "reference/graph/vocabulary.h"

namespace tdc::graph {

// Names in document order, compared as maps: `outs`, kwargs, `compiled`, counters.
template <typename T>
using OrderedMap = std::vector<std::pair<std::string, T>>;

// A strided tensor's observable state. Elements are in row-major (logical) order,
// whatever the strides; `strides` has one entry per dimension.
struct Tensor {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  bool requires_grad = false;
  // Exactly one holds the elements, chosen by DTypeElementKind(dtype): `floats` for
  // kFloat, `integers` for kInt and kBool (0 or 1).
  std::vector<double> floats;
  std::vector<int64_t> integers;

  // The product of `shape` (1 for a scalar tensor).
  int64_t NumElements() const;
};

struct DictEntry;

// One Value or Arg: `kind` says which members hold it; the rest stay default.
struct Value {
  ValueKind kind = ValueKind::kNone;
  int64_t integer = 0;               // kInt; kRef: the referenced node's index
  double number = 0;                 // kFloat
  bool boolean = false;              // kBool
  std::string text;                  // kStr, kDevice, kCallable, kRepr
  DType dtype = DType::kFloat32;     // kDtype
  Layout layout = Layout::kStrided;  // kLayout
  MemoryFormat memory_format = MemoryFormat::kContiguousFormat;  // kMemoryFormat
  std::shared_ptr<const Tensor> tensor;                          // kTensor
  std::vector<Value> items;        // kTuple, kList; kSlice: start, stop, step
  std::vector<DictEntry> entries;  // kDict, in insertion order

  static Value None();
  static Value Int(int64_t v);
  static Value Float(double v);
  static Value Bool(bool v);
  static Value Str(std::string v);
  static Value Ref(int64_t node_index);
  static Value Sequence(ValueKind kind, std::vector<Value> items);  // tuple, list, slice
  static Value OfTensor(Tensor t);
};

struct DictEntry {
  Value key;
  Value value;
};

// A graph node argument is a Value read in the argument context (value_kinds.def).
using Arg = Value;

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_VALUE_H_
