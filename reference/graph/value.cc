#include "reference/graph/value.h"

namespace tdc::graph {

int64_t Tensor::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Value Value::None() { return Value{}; }

Value Value::Int(int64_t v) {
  Value value;
  value.kind = ValueKind::kInt;
  value.integer = v;
  return value;
}

Value Value::Float(double v) {
  Value value;
  value.kind = ValueKind::kFloat;
  value.number = v;
  return value;
}

Value Value::Bool(bool v) {
  Value value;
  value.kind = ValueKind::kBool;
  value.boolean = v;
  return value;
}

Value Value::Str(std::string v) {
  Value value;
  value.kind = ValueKind::kStr;
  value.text = std::move(v);
  return value;
}

Value Value::Ref(int64_t node_index) {
  Value value;
  value.kind = ValueKind::kRef;
  value.integer = node_index;
  return value;
}

Value Value::Sequence(ValueKind kind, std::vector<Value> items) {
  Value value;
  value.kind = kind;
  value.items = std::move(items);
  return value;
}

Value Value::OfTensor(Tensor t) {
  Value value;
  value.kind = ValueKind::kTensor;
  value.tensor = std::make_shared<const Tensor>(std::move(t));
  return value;
}

}  // namespace tdc::graph
