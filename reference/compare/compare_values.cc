// Comparing Values and Args (SCHEMA.md §6, §10): a different kind is one difference on
// the value itself; a tensor's dtype and shape come first, and when they differ the
// elements (and, for shapes, the strides) are not compared: they describe another layout.
#include <algorithm>

#include "reference/compare/differ.h"

namespace tdc::compare {
namespace {

using graph::DType;
using graph::ElementKind;
using graph::Tensor;
using graph::Value;
using graph::ValueKind;

void CompareElements(Differ& d, const JsonPath& at, const Tensor& expected, const Tensor& actual) {
  switch (graph::DTypeElementKind(expected.dtype)) {
    case ElementKind::kFloat:
      for (size_t i = 0; i < expected.floats.size(); ++i) {
        d.Close(at.Index(i), expected.floats[i], actual.floats[i], expected.dtype);
      }
      break;
    case ElementKind::kInt:
      for (size_t i = 0; i < expected.integers.size(); ++i) {
        d.Exact(at.Index(i), expected.integers[i], actual.integers[i]);
      }
      break;
    case ElementKind::kBool:
      for (size_t i = 0; i < expected.integers.size(); ++i) {
        d.Exact(at.Index(i), expected.integers[i] != 0, actual.integers[i] != 0);
      }
      break;
    case ElementKind::kComplex:
      break;  // Not encodable in schema v1; the reader rejects such tensors.
  }
}

// The strides that address elements: those of dimensions longer than 1, none for a tensor
// with no elements.
std::vector<int64_t> SignificantStrides(const Tensor& t) {
  std::vector<int64_t> significant;
  if (std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end()) return significant;
  for (size_t i = 0; i < t.shape.size() && i < t.strides.size(); ++i) {
    if (t.shape[i] != 1) significant.push_back(t.strides[i]);
  }
  return significant;
}

void CompareStrides(Differ& d, const JsonPath& at, const Tensor& expected, const Tensor& actual) {
  if (!d.options().significant_strides_only ||
      SignificantStrides(expected) != SignificantStrides(actual)) {
    d.Exact(at, expected.strides, actual.strides);  // reported as whole lists
  }
}

void CompareTensors(Differ& d, const JsonPath& at, const Tensor& expected, const Tensor& actual) {
  using enum Field;
  ExactField(d, at, kDtype, expected.dtype, actual.dtype);
  ExactField(d, at, kShape, expected.shape, actual.shape);
  bool same_shape = expected.shape == actual.shape;
  if (same_shape) InField(d, at, kStrides, expected, actual, CompareStrides);
  ExactField(d, at, kRequiresGrad, expected.requires_grad, actual.requires_grad);
  if (same_shape && expected.dtype == actual.dtype) {
    InField(d, at, kValues, expected, actual, CompareElements);
  }
}

void CompareDictEntries(Differ& d, const JsonPath& at, const graph::DictEntry& expected,
                        const graph::DictEntry& actual) {
  CompareValues(d, at.Index(0), expected.key, actual.key);
  CompareValues(d, at.Index(1), expected.value, actual.value);
}

}  // namespace

void CompareValues(Differ& d, const JsonPath& at, const Value& expected, const Value& actual) {
  if (expected.kind != actual.kind) {
    d.Report(at, RenderJson(graph::ToJson(expected)), RenderJson(graph::ToJson(actual)));
    return;
  }
  JsonPath in = at.Kind(expected.kind);
  switch (expected.kind) {
    case ValueKind::kTensor:
      CompareTensors(d, in, *expected.tensor, *actual.tensor);
      break;
    case ValueKind::kInt:
    case ValueKind::kRef:
      d.Exact(in, expected.integer, actual.integer);
      break;
    case ValueKind::kFloat:
      d.Close(in, expected.number, actual.number, DType::kFloat64);  // A Python float.
      break;
    case ValueKind::kBool:
      d.Exact(in, expected.boolean, actual.boolean);
      break;
    case ValueKind::kStr:
    case ValueKind::kDevice:
    case ValueKind::kCallable:
    case ValueKind::kRepr:
      d.Exact(in, expected.text, actual.text);
      break;
    case ValueKind::kNone:
    case ValueKind::kEllipsis:
      break;
    case ValueKind::kTuple:
    case ValueKind::kList:
    case ValueKind::kSlice:
      CompareLists(d, in, expected.items, actual.items, CompareValues);
      break;
    case ValueKind::kDict:
      CompareLists(d, in, expected.entries, actual.entries, CompareDictEntries);
      break;
    case ValueKind::kDtype:
      d.Exact(in, expected.dtype, actual.dtype);
      break;
    case ValueKind::kLayout:
      d.Exact(in, expected.layout, actual.layout);
      break;
    case ValueKind::kMemoryFormat:
      d.Exact(in, expected.memory_format, actual.memory_format);
      break;
  }
}

}  // namespace tdc::compare
