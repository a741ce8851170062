#include "reference/runtime/interp/tensor_items.h"

#include <fmt/format.h>

#include "reference/runtime/exceptions.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

// _PyEval_SliceIndex: an int or bool bound, or None.
std::optional<int64_t> SliceBound(const Value& v) {
  if (Is<PyNone>(v)) return std::nullopt;
  if (const auto* i = DynCast<PyInt>(v)) return i->value();
  if (const auto* b = DynCast<PyBool>(v)) return b->value() ? 1 : 0;
  if (Is<PyTensor>(v)) RefuseNotModeled("a tensor as a slice bound");
  throw TorchError("TypeError",
                   "slice indices must be integers or None or have an __index__ method");
}

// __PySlice_Unpack.
TensorIndex SliceItem(const SliceParts& parts) {
  TensorIndex item;
  item.kind = TensorIndex::Kind::kSlice;
  std::optional<int64_t> step = SliceBound(parts.step);
  if (step && *step == 0) throw TorchError("ValueError", "slice step cannot be zero");
  item.step = step.value_or(1);
  std::optional<int64_t> start = SliceBound(parts.start), stop = SliceBound(parts.stop);
  item.start = start.value_or(item.step < 0 ? std::numeric_limits<int64_t>::max() : 0);
  item.stop = stop.value_or(item.step < 0 ? std::numeric_limits<int64_t>::min()
                                          : std::numeric_limits<int64_t>::max());
  return item;
}

// sequenceToVariable for a list of ints or of bools (torch.tensor of it).
Tensor ListIndex(const PyList& list) {
  std::vector<Scalar> values;
  bool all_bool = true;
  for (const Value& v : list.items()) {
    if (const auto* b = DynCast<PyBool>(v)) {
      values.push_back(Scalar::Bool(b->value()));
    } else if (const auto* i = DynCast<PyInt>(v)) {
      values.push_back(Scalar::Int(i->value()));
      all_bool = false;
    } else {
      RefuseNotModeled("a list index holding anything but ints and bools");
    }
  }
  if (values.empty()) RefuseNotModeled("an empty list as a tensor index");
  const auto n = static_cast<int64_t>(values.size());
  return TensorFromValues(all_bool ? DType::kBool : DType::kInt64, {n}, values);
}

TensorIndex ItemOf(const Value& v) {
  TensorIndex item;
  if (const auto* b = DynCast<PyBool>(v)) {
    item.kind = TensorIndex::Kind::kBoolean;
    item.boolean = b->value();
  } else if (const auto* i = DynCast<PyInt>(v)) {
    item.kind = TensorIndex::Kind::kInteger;
    item.integer = i->value();
  } else if (Is<PyNone>(v)) {
    item.kind = TensorIndex::Kind::kNone;
  } else if (IsEllipsis(v)) {
    item.kind = TensorIndex::Kind::kEllipsis;
  } else if (std::optional<SliceParts> parts = SliceOf(v)) {
    item = SliceItem(*parts);
  } else if (const auto* t = DynCast<PyTensor>(v)) {
    item.kind = TensorIndex::Kind::kTensor;
    item.tensor = t->tensor();
  } else if (const auto* list = DynCast<PyList>(v)) {
    item.kind = TensorIndex::Kind::kTensor;
    item.tensor = ListIndex(*list);
  } else if (Is<PyFloat>(v)) {
    throw TorchError("IndexError",
                     "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got float)");
  } else if (Is<PyStr>(v)) {
    throw TorchError("TypeError", "new(): invalid data type 'str'");
  } else {
    RefuseNotModeled(fmt::format("a tensor index of type {}", TypeName(v)));
  }
  return item;
}

}  // namespace

IndexKey IndexKeyOf(const Tensor& self, const Value& key) {
  IndexKey out;
  if (const auto* tuple = DynCast<PyTuple>(key)) {
    out.tuple = true;
    out.values = tuple->items();
  } else {
    out.values = {key};
    // A tensor or a list takes the tuple path (wrapTuple); the simple types do not.
    out.tuple = Is<PyTensor>(key) || Is<PyList>(key);
  }
  for (size_t i = 0; i < out.values.size(); ++i) {
    try {
      out.items.push_back(ItemOf(out.values[i]));
    } catch (const TorchError&) {
      // torch reads each item as it applies it, after counting the dims all items take:
      // an earlier item's error, or too many indices, would come first.
      if (i > 0 || self.dim() == 0)
        RefuseNotModeled("an invalid item after others in a tensor index");
      throw;
    }
  }
  return out;
}

bool TraceableIndex(const IndexKey& key) {
  for (size_t i = 0; i < key.items.size(); ++i) {
    const TensorIndex& item = key.items[i];
    if (item.kind == TensorIndex::Kind::kBoolean || Is<PyList>(key.values[i])) return false;
    if (item.kind != TensorIndex::Kind::kTensor) continue;
    if (item.tensor.dim() == 0 || item.tensor.dtype == DType::kBool ||
        item.tensor.dtype == DType::kUInt8) {
      return false;
    }
  }
  return true;
}

Value TensorGetItem(Interpreter& in, const Value& container, const Value& key) {
  in.Use(key);
  auto* tensor = DynCast<PyTensor>(container);
  const PyTensor& self = *tensor;
  OpObserver* observer = in.process().compiler.op_observer;
  const bool traced = observer != nullptr && observer->RecordsOps();
  Indexed indexed;
  try {
    IndexKey index = IndexKeyOf(self.tensor(), key);
    if (traced && !TraceableIndex(index)) {
      RefuseNotModeled(
          "tensor indexing with a bool, a mask, a 0-dim tensor or a list under torch.compile");
    }
    indexed = ApplyIndex(self.tensor(), index.items, index.tuple);
  } catch (const TorchError& e) {
    // Under Dynamo an IndexError carries the user code's traceback (with the subscript's
    // position), any other error is a TorchRuntimeError: neither is modeled.
    if (traced)
      RefuseNotModeled(
          fmt::format("torch's {} from tensor indexing under torch.compile", e.type()));
    throw ToPyError(in.heap(), e);
  }
  Tensor result = std::move(indexed.result);
  result.requires_grad =
      in.process().grad_enabled && self.tensor().requires_grad && IsFloating(result.dtype);
  Ref<PyTensor> base;
  if (!indexed.advanced) base = self.base() ? self.base() : Ref<PyTensor>(tensor);
  Value out = in.heap().NewTensor(std::move(result), std::move(base));
  // An accessor: torch's remove_unused_graphargs drops every operator.getitem node nothing
  // uses (probed: `d = x[None]` read only for d.shape leaves no node, `x.sin()` would).
  NotifyTensorOp(in, {false, "operator.getitem", true, nullptr}, {{container, key}, {}}, out);
  return out;
}

}  // namespace tdc::runtime
