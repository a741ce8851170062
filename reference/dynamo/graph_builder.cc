#include "reference/dynamo/graph_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "reference/base/py_repr.h"
#include "reference/runtime/types.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

using runtime::DynCast;
using runtime::Inside;
using runtime::PyTensor;
using runtime::RefuseIfInside;
using runtime::WalkPath;

namespace {

// Each builder tags tensors with its own epoch, so a tag left by an earlier graph never
// reads as one of this graph's nodes.
uint64_t NextEpoch() {
  static uint64_t epoch = 0;
  return ++epoch;
}

}  // namespace

// The items of tuple, list or dict `v` read from `source`, with their own sources
// (`source[0]`; a dict's `source['k']` under a str or int key, as Dynamo's DictGetItemSource
// prints them; an item under any other key is left out, its source unknown), and the
// attributes of a class statement's instance (`source.w`).
namespace {

std::vector<std::pair<Value, std::string>> ItemsWithSources(const Value& v,
                                                            const std::string& source) {
  std::vector<std::pair<Value, std::string>> out;
  const std::vector<Value>* items = nullptr;
  if (const auto* tuple = DynCast<runtime::PyTuple>(v)) items = &tuple->items();
  if (const auto* list = DynCast<runtime::PyList>(v)) items = &list->items();
  if (items != nullptr) {
    for (size_t i = 0; i < items->size(); ++i)
      out.emplace_back((*items)[i], fmt::format("{}[{}]", source, i));
  }
  // A class statement's instance's attributes: `source.name` (Dynamo's AttrSource).
  if (const auto* instance = DynCast<runtime::PyInstance>(v);
      instance != nullptr && instance->type->user_defined) {
    for (const auto& [key, item] : instance->attrs->Items()) {
      out.emplace_back(item, fmt::format("{}.{}", source, DynCast<runtime::PyStr>(key)->value()));
    }
  }
  if (const auto* dict = DynCast<runtime::PyDict>(v)) {
    for (const auto& [key, item] : dict->Items()) {
      if (const auto* str = DynCast<runtime::PyStr>(key)) {
        out.emplace_back(item, fmt::format("{}[{}]", source, ReprStr(str->value())));
      } else if (const auto* i = DynCast<runtime::PyInt>(key)) {
        out.emplace_back(item, fmt::format("{}[{}]", source, i->value()));
      }
    }
  }
  return out;
}

// The items of `v`, a container reached from an input; refused when it holds itself, as
// Guards refuses it (guards.cc).
std::vector<std::pair<Value, std::string>> ItemsOnce(const Value& v, const std::string& source,
                                                     const WalkPath& above) {
  RefuseIfInside(above, v, "a container holding itself, read by a compiled frame (" + source + ")");
  return ItemsWithSources(v, source);
}

}  // namespace

GraphBuilder::GraphBuilder() : epoch_(NextEpoch()) {}

void GraphBuilder::AddInput(const Value& v, const std::string& source) {
  if (const auto* t = DynCast<PyTensor>(v)) {
    if (t->trace_tag.epoch == epoch_) {
      if (t->trace_tag.slot < 0) {
        inputs_[static_cast<size_t>(-t->trace_tag.slot - 1)].other_sources.push_back(source);
      }
      return;
    }
    t->trace_tag = {epoch_, -static_cast<int64_t>(inputs_.size()) - 1};
    inputs_.push_back({v, source, {}, -1, -1, {}});
    const runtime::Tensor& tensor = t->tensor();
    graph::Node& ph = inputs_.back().placeholder;
    ph.op = graph::NodeOp::kPlaceholder;
    ph.type = "tensor";
    ph.shape = tensor.sizes;
    ph.dtype = tensor.dtype;
    ph.requires_grad = tensor.requires_grad;
    ph.source = source;
    return;
  }
  std::vector<std::pair<Value, std::string>> items = ItemsOnce(v, source, walking_);
  Inside inside(walking_, v);
  for (const auto& [item, path] : items) AddInput(item, path);
}

void GraphBuilder::RenameInputs(const Value& v, const std::string& source,
                                std::vector<bool>& renamed) {
  renamed.resize(inputs_.size());
  if (const auto* t = DynCast<PyTensor>(v)) {
    if (t->trace_tag.epoch != epoch_ || t->trace_tag.slot >= 0) return;
    const size_t i = static_cast<size_t>(-t->trace_tag.slot - 1);
    if (renamed[i]) return;
    renamed[i] = true;
    inputs_[i].source = source;
    inputs_[i].placeholder.source = source;
    return;
  }
  std::vector<std::pair<Value, std::string>> items = ItemsOnce(v, source, walking_);
  Inside inside(walking_, v);
  for (const auto& [item, path] : items) RenameInputs(item, path, renamed);
}

GraphBuilder::Input* GraphBuilder::RenamableInput(const Value& v) {
  const auto* t = DynCast<PyTensor>(v);
  if (t == nullptr || t->trace_tag.epoch != epoch_ || t->trace_tag.slot >= 0) return nullptr;
  Input& input = inputs_[static_cast<size_t>(-t->trace_tag.slot - 1)];
  if (input.realized_at >= 0 || input.other_sources.empty()) return nullptr;
  return &input;
}

bool GraphBuilder::Renamable(const Value& v) { return RenamableInput(v) != nullptr; }

void GraphBuilder::ReadThrough(const Value& v, const std::string& source) {
  Input* found = RenamableInput(v);
  if (found == nullptr) return;
  Input& input = *found;
  if (input.source == source) return;
  if (std::find(input.other_sources.begin(), input.other_sources.end(), source) ==
      input.other_sources.end()) {
    return;
  }
  input.other_sources.push_back(std::exchange(input.source, source));
  input.placeholder.source = source;
}

void GraphBuilder::UseAllInputs() {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (inputs_[i].index >= 0) continue;
    inputs_[i].index = static_cast<int64_t>(placeholders_.size());
    if (inputs_[i].realized_at < 0) inputs_[i].realized_at = realizations_++;
    placeholders_.push_back(i);
  }
}

void GraphBuilder::Realize(const Value& v) {
  const auto* t = DynCast<PyTensor>(v);
  if (t == nullptr || t->trace_tag.epoch != epoch_ || t->trace_tag.slot >= 0) return;
  Input& input = inputs_[static_cast<size_t>(-t->trace_tag.slot - 1)];
  if (input.realized_at < 0) input.realized_at = realizations_++;
}

int64_t GraphBuilder::RefOf(const PyTensor& tensor) {
  if (tensor.trace_tag.epoch != epoch_) {
    // A tensor the frame did not receive and no node made (a global, a closure cell):
    // an input whose source the reference does not name.
    AddInput(Value(const_cast<PyTensor*>(&tensor)), "<unknown source>");
  }
  int64_t slot = tensor.trace_tag.slot;
  if (slot >= 0) return slot;
  Input& input = inputs_[static_cast<size_t>(-slot - 1)];
  if (input.index < 0) {
    input.index = static_cast<int64_t>(placeholders_.size());
    if (input.realized_at < 0) input.realized_at = realizations_++;
    placeholders_.push_back(static_cast<size_t>(-slot - 1));
  }
  return -input.index - 1;
}

graph::Arg GraphBuilder::ToArg(const Value& v) {
  return ArgOf(v, [this](const PyTensor& t) { return RefOf(t); });
}

void GraphBuilder::Tag(const Value& result, int64_t call_index) {
  const auto* t = DynCast<PyTensor>(result);
  if (t == nullptr) return;
  if (t->trace_tag.epoch == epoch_) retags_.emplace_back(result, t->trace_tag);
  t->trace_tag = {epoch_, call_index};
}

graph::Arg GraphBuilder::AddGetAttr(const std::string& name) {
  auto taken = [&](const std::string& candidate) {
    return std::any_of(calls_.begin(), calls_.end(), [&](const graph::Node& n) {
      return n.op == graph::NodeOp::kGetAttr && n.target == candidate;
    });
  };
  std::string target = name;
  for (int i = 0; taken(target); ++i) target = fmt::format("{}_{}", name, i);
  graph::Node node;
  node.op = graph::NodeOp::kGetAttr;
  node.target = std::move(target);
  calls_.push_back(std::move(node));
  accessors_.push_back(true);  // kept when the call using it is
  opaque_.emplace_back();
  aten_.push_back({});
  return graph::Arg::Ref(static_cast<int64_t>(calls_.size()) - 1);
}

void GraphBuilder::AddCall(graph::NodeOp op, std::string target, const CallArgs& args,
                           const Value& result, Fragment fragment, bool accessor,
                           std::vector<graph::Arg> leading, std::optional<OpaqueCall> opaque) {
  AtenSide side{std::move(fragment), {}, -1, 0};
  for (const PyTensor* t : TensorsOf(args)) side.inputs.push_back(RefOf(*t));
  aten_.push_back(std::move(side));
  graph::Node node;
  node.op = op;
  node.target = std::move(target);
  node.args = std::move(leading);
  for (const Value& v : args.positional) node.args.push_back(ToArg(v));
  for (const auto& [name, v] : args.keywords) node.kwargs.emplace_back(name, ToArg(v));
  calls_.push_back(std::move(node));
  accessors_.push_back(accessor);
  opaque_.push_back(std::move(opaque));
  int64_t index = static_cast<int64_t>(calls_.size()) - 1;
  Tag(result, index);
  size_t aten_tensor_items = 0;  // the fragment's outputs are the tuple's tensors, in order
  if (const auto* tuple = DynCast<runtime::PyTuple>(result)) {
    for (size_t i = 0; i < tuple->items().size(); ++i) {
      if (!runtime::Is<PyTensor>(tuple->items()[i])) continue;
      graph::Node item;
      item.op = graph::NodeOp::kCallFunction;
      item.target = "operator.getitem";
      item.args = {graph::Arg::Ref(index), graph::Arg::Int(static_cast<int64_t>(i))};
      calls_.push_back(std::move(item));
      accessors_.push_back(true);
      opaque_.emplace_back();
      aten_.push_back({{}, {}, index, aten_tensor_items++});
      Tag(tuple->items()[i], static_cast<int64_t>(calls_.size()) - 1);
    }
  }
}

bool GraphBuilder::HoldsComputed(const Value& v) const {
  std::vector<const PyTensor*> tensors;
  CollectTensors(v, tensors);
  return std::any_of(tensors.begin(), tensors.end(), [&](const PyTensor* t) {
    return t->trace_tag.epoch == epoch_ && t->trace_tag.slot >= 0 &&
           static_cast<size_t>(t->trace_tag.slot) < calls_.size();
  });
}

std::optional<size_t> GraphBuilder::NodeOf(const Value& v) const {
  const auto* t = DynCast<PyTensor>(v);
  if (t == nullptr || t->trace_tag.epoch != epoch_ || t->trace_tag.slot < 0 ||
      static_cast<size_t>(t->trace_tag.slot) >= calls_.size()) {
    return std::nullopt;
  }
  return static_cast<size_t>(t->trace_tag.slot);
}

bool GraphBuilder::HoldsTraced(const Value& v) const {
  std::vector<const PyTensor*> tensors;
  CollectTensors(v, tensors);
  return std::any_of(tensors.begin(), tensors.end(),
                     [&](const PyTensor* t) { return t->trace_tag.epoch == epoch_; });
}

void GraphBuilder::Rollback(const Mark& mark) {
  for (size_t i = retags_.size(); i > mark.retags; --i) {
    DynCast<PyTensor>(retags_[i - 1].first)->trace_tag = retags_[i - 1].second;
  }
  retags_.resize(mark.retags);
  calls_.resize(mark.calls);
  accessors_.resize(mark.calls);
  opaque_.resize(mark.calls);
  aten_.resize(mark.calls);
  for (size_t i = mark.placeholders; i < placeholders_.size(); ++i)
    inputs_[placeholders_[i]].index = -1;
  placeholders_.resize(mark.placeholders);
  for (Input& input : inputs_) {
    if (input.realized_at >= mark.realizations) input.realized_at = -1;
  }
  realizations_ = mark.realizations;
}

GraphBuilder::PlaceholderOrder GraphBuilder::OrderPlaceholders() const {
  PlaceholderOrder order{placeholders_, std::vector<int64_t>(placeholders_.size())};
  std::stable_sort(order.inputs.begin(), order.inputs.end(), [&](size_t a, size_t b) {
    return inputs_[a].realized_at < inputs_[b].realized_at;
  });
  for (size_t i = 0; i < order.inputs.size(); ++i) {
    order.position[static_cast<size_t>(inputs_[order.inputs[i]].index)] = static_cast<int64_t>(i);
  }
  return order;
}

graph::Arg GraphBuilder::Remap(graph::Arg arg, const std::vector<int64_t>& call_index,
                               const PlaceholderOrder& order) const {
  if (arg.kind == graph::ValueKind::kRef) {
    arg.integer = arg.integer < 0 ? order.position[static_cast<size_t>(-arg.integer - 1)]
                                  : call_index[static_cast<size_t>(arg.integer)] +
                                        static_cast<int64_t>(placeholders_.size());
  }
  for (graph::Arg& item : arg.items) item = Remap(std::move(item), call_index, order);
  return arg;
}

namespace {

void MarkRefs(const graph::Arg& arg, std::vector<bool>& used) {
  if (arg.kind == graph::ValueKind::kRef && arg.integer >= 0)
    used[static_cast<size_t>(arg.integer)] = true;
  for (const graph::Arg& item : arg.items) MarkRefs(item, used);
}

}  // namespace

std::vector<bool> GraphBuilder::KeptCalls(const std::vector<int64_t>& outputs) const {
  std::vector<bool> used(calls_.size(), false);
  for (int64_t ref : outputs) {
    if (ref >= 0) used[static_cast<size_t>(ref)] = true;
  }
  std::vector<bool> kept(calls_.size(), false);
  for (size_t i = calls_.size(); i-- > 0;) {
    kept[i] = !accessors_[i] || used[i];
    if (!kept[i]) continue;
    for (const graph::Arg& arg : calls_[i].args) MarkRefs(arg, used);
    for (const auto& [name, arg] : calls_[i].kwargs) MarkRefs(arg, used);
  }
  return kept;
}

// torch 2.13.0's OutputGraph.cleanup_graph, step for step: walking adjacent nodes from the
// grad mode the graph ends in (each node flips it), a `_set_grad_enabled(m)` that flips the
// tracked mode followed at once by one flipping it back is erased with it. What an exit and
// the next block's entry leave between two ops goes (golden
// graph_break/s52_nested_sequential_try_with_graph_break).
std::vector<bool> GraphBuilder::ErasedGradModePairs() const {
  std::vector<bool> erased(calls_.size(), false);
  auto mode_set = [&](size_t i) -> std::optional<bool> {
    if (calls_[i].target != kSetGradEnabled || erased[i]) return std::nullopt;
    return calls_[i].args.front().boolean;
  };
  std::optional<bool> grad_enabled;
  for (size_t i = calls_.size(); i-- > 0 && !grad_enabled;) {
    if (calls_[i].target == kSetGradEnabled) grad_enabled = calls_[i].args.front().boolean;
  }
  for (size_t i = 0; grad_enabled && i + 1 < calls_.size(); ++i) {
    std::optional<bool> first = mode_set(i);
    if (first != !*grad_enabled) continue;
    grad_enabled = first;
    std::optional<bool> second = mode_set(i + 1);
    if (second != !*grad_enabled) continue;
    grad_enabled = second;
    erased[i] = erased[i + 1] = true;
  }
  return erased;
}

FinishedGraphs GraphBuilder::Finish(const std::vector<Value>& live, bool outputs_inputs,
                                    bool grad_enabled) {
  std::vector<int64_t> outputs;
  std::vector<Value> output_tensors;
  for (const Value& v : live) {
    std::vector<const PyTensor*> tensors;
    CollectTensors(v, tensors);
    for (const PyTensor* t : tensors) {
      if (t->trace_tag.epoch != epoch_) continue;
      bool computed =
          t->trace_tag.slot >= 0 && static_cast<size_t>(t->trace_tag.slot) < calls_.size();
      if (!computed && !(outputs_inputs && t->trace_tag.slot < 0)) continue;
      int64_t ref = RefOf(*t);
      if (std::find(outputs.begin(), outputs.end(), ref) != outputs.end()) continue;
      outputs.push_back(ref);
      output_tensors.emplace_back(const_cast<PyTensor*>(t));
    }
  }
  std::vector<bool> kept = KeptCalls(outputs);
  std::vector<bool> erased = ErasedGradModePairs();
  for (size_t i = 0; i < kept.size(); ++i) kept[i] = kept[i] && !erased[i];
  std::vector<int64_t> call_index(calls_.size(), -1);
  int64_t next = 0;
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (kept[i]) call_index[i] = next++;
  }
  const PlaceholderOrder order = OrderPlaceholders();
  graph::Graph g;
  FinishedGraphs out;
  for (size_t input : order.inputs) {
    g.nodes.push_back(inputs_[input].placeholder);
    out.inputs.push_back(inputs_[input].tensor);
    out.opaque.emplace_back();
  }
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (!kept[i]) continue;
    graph::Node node = calls_[i];
    for (graph::Arg& arg : node.args) arg = Remap(std::move(arg), call_index, order);
    for (auto& [name, arg] : node.kwargs) arg = Remap(std::move(arg), call_index, order);
    g.nodes.push_back(std::move(node));
    out.opaque.push_back(opaque_[i]);
  }
  std::vector<graph::Arg> refs;
  for (int64_t ref : outputs) refs.push_back(Remap(graph::Arg::Ref(ref), call_index, order));
  graph::Node output;
  output.op = graph::NodeOp::kOutput;
  output.args.push_back(graph::Arg::Sequence(graph::ValueKind::kTuple, std::move(refs)));
  g.nodes.push_back(std::move(output));
  out.opaque.emplace_back();
  out.dynamo = std::move(g);
  out.outputs = std::move(output_tensors);
  bool training =
      grad_enabled && std::any_of(placeholders_.begin(), placeholders_.end(), [&](size_t input) {
        return inputs_[input].placeholder.requires_grad == true;
      });
  if (training) {
    out.aten_unsupported =
        "a frame with an input that requires grad (AOT autograd's training graph, a forward "
        "with saved tensors)";
    return out;
  }
  graph::Graph aten = FinishAten(kept, outputs, order, out.aten_unsupported, out.aten_constants);
  if (out.aten_unsupported.empty()) out.aten = std::move(aten);
  return out;
}

}  // namespace tdc::dynamo
