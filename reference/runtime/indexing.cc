#include "reference/runtime/indexing.h"

#include "reference/runtime/advanced_index.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/views.h"

namespace tdc::runtime {
namespace {

bool IsMask(const Tensor& t) { return t.dtype == DType::kBool || t.dtype == DType::kUInt8; }

// count_specified_dimensions: the dims the items consume (a mask as many as it has).
int64_t SpecifiedDims(const std::vector<TensorIndex>& items) {
  int64_t count = 0;
  for (const TensorIndex& item : items) {
    switch (item.kind) {
      case TensorIndex::Kind::kTensor:
        count += IsMask(item.tensor) ? item.tensor.dim() : 1;
        break;
      case TensorIndex::Kind::kInteger:
      case TensorIndex::Kind::kSlice:
        ++count;
        break;
      case TensorIndex::Kind::kNone:
      case TensorIndex::Kind::kEllipsis:
      case TensorIndex::Kind::kBoolean:
        break;
    }
  }
  return count;
}

IndexingStep StepOf(IndexingStep::Kind kind, int64_t dim = 0) {
  IndexingStep step;
  step.kind = kind;
  step.dim = dim;
  return step;
}

class Indexer {
 public:
  Indexer(const Tensor& self, bool tuple) : self_(self), result_(self), tuple_(tuple) {}

  void Select(int64_t index, int64_t real_dim) {
    if (result_.dim() == 0 && index == 0 && dim_ == 0) {
      throw TorchError("IndexError",
                       "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                       "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    }
    // torch reads a size past the tensor's dims (undefined behaviour in ATen).
    if (dim_ >= result_.dim()) RefuseNotModeled("an int index past the last dim of a tensor");
    const int64_t size = result_.sizes[dim_];
    if (!(size > -1 - index && size > index)) {
      throw TorchError("IndexError",
                       "index " + std::to_string(index) + " is out of bounds for dimension " +
                           std::to_string(real_dim) + " with size " + std::to_string(size));
    }
    IndexingStep step = StepOf(IndexingStep::Kind::kSelect, dim_);
    step.index = index;
    Push(step, runtime::Select(result_, dim_, index));
  }

  void Slice(const TensorIndex& item) {
    if (item.step <= 0) throw TorchError("ValueError", "step must be greater than zero");
    // Inside a tuple, a slice of the whole dim is no op at all (applySlice).
    if (tuple_ && result_.dim() > dim_ && item.start == 0 && item.stop >= result_.sizes[dim_] &&
        item.step == 1) {
      ++dim_;
      KeepDims(1);
      return;
    }
    IndexingStep step = StepOf(IndexingStep::Kind::kSlice, dim_);
    step.start = item.start;
    step.end = item.stop;
    step.step = item.step;
    Push(step, runtime::Slice(result_, dim_, item.start, item.stop, item.step));
    ++dim_;
    KeepDims(1);
  }

  void Unsqueeze() {
    Push(StepOf(IndexingStep::Kind::kUnsqueeze, dim_), runtime::Unsqueeze(result_, dim_));
    ++dim_;
    KeepDims(1);
  }

  // recordTensorIndex: the first tensor indexes dim_ (the list grows to reach it), each
  // later one the next place; a mask moves dim_ past all the dims it covers.
  void Record(const Tensor& t, int64_t item, bool from_bool) {
    if (indices_.empty()) Pad(dim_);
    indices_.push_back(t);
    from_item_.push_back(item);
    from_bool_.push_back(from_bool);
    dim_ += IsMask(t) ? t.dim() : 1;
  }

  // After the first tensor, each dim a slice, None or `...` keeps is a place of its own.
  void KeepDims(int64_t n) {
    if (!indices_.empty()) Pad(n);
  }

  // boolToIndexingTensor: True selects the one element of a new size-1 dim, False none.
  void Boolean(bool value, int64_t item) {
    Push(StepOf(IndexingStep::Kind::kUnsqueeze, dim_), runtime::Unsqueeze(result_, dim_));
    Tensor index = EmptyTensor(DType::kInt64, {value ? 1 : 0});
    Record(index, item, true);
  }

  void Ellipsis(int64_t specified) {
    dim_ += self_.dim() - specified;
    KeepDims(self_.dim() - specified);
  }

  Indexed Finish() {
    Indexed out;
    out.steps = std::move(steps_);
    if (indices_.empty()) {
      if (out.steps.empty()) out.steps.push_back(StepOf(IndexingStep::Kind::kAlias));
      out.result = runtime::Alias(result_);
      return out;
    }
    IndexingStep step = StepOf(IndexingStep::Kind::kIndex);
    step.from_item = from_item_;
    step.from_bool = from_bool_;
    out.steps.push_back(step);
    out.result = Index(result_, indices_);
    out.advanced = true;
    return out;
  }

 private:
  void Pad(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      indices_.push_back(std::nullopt);
      from_item_.push_back(-1);
      from_bool_.push_back(false);
    }
  }

  void Push(IndexingStep step, Tensor result) {
    steps_.push_back(std::move(step));
    result_ = std::move(result);
  }

  const Tensor& self_;
  Tensor result_;
  bool tuple_;
  int64_t dim_ = 0;
  std::vector<IndexingStep> steps_;
  std::vector<std::optional<Tensor>> indices_;
  std::vector<int64_t> from_item_;
  std::vector<bool> from_bool_;
};

}  // namespace

Indexed ApplyIndex(const Tensor& self, const std::vector<TensorIndex>& items, bool tuple) {
  const int64_t specified = SpecifiedDims(items);
  if (tuple && specified > self.dim()) {
    throw TorchError("IndexError",
                     "too many indices for tensor of dimension " + std::to_string(self.dim()));
  }
  Indexer indexer(self, tuple);
  for (size_t i = 0; i < items.size(); ++i) {
    const TensorIndex& item = items[i];
    const auto at = static_cast<int64_t>(i);
    switch (item.kind) {
      case TensorIndex::Kind::kInteger:
        indexer.Select(item.integer, at);
        break;
      case TensorIndex::Kind::kSlice:
        indexer.Slice(item);
        break;
      case TensorIndex::Kind::kNone:
        indexer.Unsqueeze();
        break;
      case TensorIndex::Kind::kEllipsis:
        indexer.Ellipsis(specified);
        break;
      case TensorIndex::Kind::kBoolean:
        indexer.Boolean(item.boolean, at);
        break;
      case TensorIndex::Kind::kTensor:
        if (item.tensor.dim() == 0 && !IsMask(item.tensor) && !IsFloating(item.tensor.dtype)) {
          indexer.Select(Item(item.tensor).AsInt(), at);
        } else if (item.tensor.dim() == 0 && IsMask(item.tensor)) {
          indexer.Boolean(Item(item.tensor).AsBool(), at);
        } else {
          indexer.Record(item.tensor, at, false);
        }
        break;
    }
  }
  return indexer.Finish();
}

}  // namespace tdc::runtime
