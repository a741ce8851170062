// Comparisons of runtime values as CPython 3.11 and torch make them: identity, membership,
// equality and ordering (containers item by item), tensor operands through the op table
// with torch's reflected forms for a Python number on the left.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_number.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::runtime {
namespace {

using lang::CompareOp;

int Compare3(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

bool OrderHolds(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kLt:
      return c < 0;
    case CompareOp::kLtE:
      return c <= 0;
    case CompareOp::kGt:
      return c > 0;
    case CompareOp::kGtE:
      return c >= 0;
    case CompareOp::kEq:
    case CompareOp::kNotEq:
    case CompareOp::kIs:
    case CompareOp::kIsNot:
    case CompareOp::kIn:
    case CompareOp::kNotIn:
      break;
  }
  return false;
}

std::string_view CompareSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLtE:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGtE:
      return ">=";
    case CompareOp::kEq:
    case CompareOp::kNotEq:
    case CompareOp::kIs:
    case CompareOp::kIsNot:
    case CompareOp::kIn:
    case CompareOp::kNotIn:
      break;
  }
  return "==";
}

// Python's ordering of two non-tensor values: -1, 0, 1; nullopt when not ordered.
std::optional<int> Order(Interpreter& in, const Value& a, const Value& b, CompareOp op) {
  CheckStackLeft();
  std::optional<Num> na = NumberOf(a), nb = NumberOf(b);
  if (na && nb) {
    if (!na->is_float && !nb->is_float) return na->i < nb->i ? -1 : (na->i > nb->i ? 1 : 0);
    double x = na->AsDouble(), y = nb->AsDouble();
    if (std::isnan(x) || std::isnan(y)) return 2;  // no order holds
    return Compare3(x, y);
  }
  if (Is<PyStr>(a) && Is<PyStr>(b)) {
    int c = DynCast<PyStr>(a)->value().compare(DynCast<PyStr>(b)->value());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  const std::vector<Value>* x = nullptr;
  const std::vector<Value>* y = nullptr;
  if (Is<PyList>(a) && Is<PyList>(b))
    x = &DynCast<PyList>(a)->items(), y = &DynCast<PyList>(b)->items();
  if (Is<PyTuple>(a) && Is<PyTuple>(b))
    x = &DynCast<PyTuple>(a)->items(), y = &DynCast<PyTuple>(b)->items();
  if (x != nullptr) {
    for (size_t i = 0; i < std::min(x->size(), y->size()); ++i) {
      // CPython compares the items it reaches with ==, a tensor's then read for its truth.
      if (HoldsTensor((*x)[i]) || HoldsTensor((*y)[i]))
        RefuseNotModeled("ordering containers holding tensors is not modeled");
      if (PyEquals((*x)[i], (*y)[i])) continue;
      std::optional<int> c = Order(in, (*x)[i], (*y)[i], op);
      if (!c) return std::nullopt;
      return c;
    }
    return x->size() < y->size() ? -1 : (x->size() > y->size() ? 1 : 0);
  }
  return std::nullopt;
}

bool Contains(Interpreter& in, const Value& container, const Value& item) {
  if (const auto* d = DynCast<PyDict>(container)) return d->Contains(item);
  if (const auto* s = DynCast<PyStr>(container)) {
    const auto* sub = DynCast<PyStr>(item);
    if (sub == nullptr) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("'in <string>' requires string as left operand, not {}", TypeName(item)));
    }
    return s->value().find(sub->value()) != std::string::npos;
  }
  if (std::optional<Value> method = LookupMethod(in, container, "__contains__"))
    return Truth(in, in.Call(*method, {{container, item}, {}}));
  for (const Value& v : in.Iterate(container)) {
    if (ItemEquals(in, v, item)) return true;
  }
  return false;
}
}  // namespace

Value CompareOperation(Interpreter& in, lang::CompareOp op, const Value& a, const Value& b) {
  in.Use(a);
  in.Use(b);
  Heap& h = in.heap();
  switch (op) {
    case lang::CompareOp::kIs:
      return h.Bool(a == b);
    case lang::CompareOp::kIsNot:
      return h.Bool(a != b);
    case lang::CompareOp::kIn:
      return h.Bool(Contains(in, b, a));
    case lang::CompareOp::kNotIn:
      return h.Bool(!Contains(in, b, a));
    case lang::CompareOp::kEq:
    case lang::CompareOp::kNotEq:
    case lang::CompareOp::kLt:
    case lang::CompareOp::kLtE:
    case lang::CompareOp::kGt:
    case lang::CompareOp::kGtE:
      break;
  }
  if (Is<PyTensor>(a) || Is<PyTensor>(b)) {
    // A Python number on the left compares from the tensor's side, reflected.
    bool flip = !Is<PyTensor>(a);
    lang::CompareOp eff = op;
    if (flip) {
      if (op == lang::CompareOp::kLt)
        eff = lang::CompareOp::kGt;
      else if (op == lang::CompareOp::kGt)
        eff = lang::CompareOp::kLt;
      else if (op == lang::CompareOp::kLtE)
        eff = lang::CompareOp::kGtE;
      else if (op == lang::CompareOp::kGtE)
        eff = lang::CompareOp::kLtE;
    }
    const char* name = eff == lang::CompareOp::kEq      ? "operator.eq"
                       : eff == lang::CompareOp::kNotEq ? "operator.ne"
                       : eff == lang::CompareOp::kLt    ? "operator.lt"
                       : eff == lang::CompareOp::kLtE   ? "operator.le"
                       : eff == lang::CompareOp::kGt    ? "operator.gt"
                                                        : "operator.ge";
    const Value& t = flip ? b : a;
    const Value& other = flip ? a : b;
    if (!Is<PyTensor>(other) && !NumberOf(other)) {
      if (op == lang::CompareOp::kEq) return h.False();
      if (op == lang::CompareOp::kNotEq) return h.True();
    }
    Value result =
        CallTensorOp(in, *FindPythonOperator(name), Surface::kFunction, {{t, other}, {}});
    NotifyTensorOp(in, {false, name, false, FindPythonOperator(name)}, {{a, b}, {}}, result);
    return result;
  }
  if (op == lang::CompareOp::kEq || op == lang::CompareOp::kNotEq) {
    // CPython compares containers' items with ==, a tensor's then read for its truth.
    if (HoldsTensor(a) || HoldsTensor(b)) {
      RefuseNotModeled("== or != between containers holding tensors is not modeled");
    }
    const bool equal = a == b || PyEquals(a, b);
    return h.Bool(op == lang::CompareOp::kEq ? equal : !equal);
  }
  std::optional<int> c = Order(in, a, b, op);
  if (!c) {
    Raise(h, ExcType::kTypeError,
          fmt::format("'{}' not supported between instances of '{}' and '{}'", CompareSymbol(op),
                      TypeName(a), TypeName(b)));
  }
  return h.Bool(*c != 2 && OrderHolds(op, *c));
}

bool ItemEquals(Interpreter& in, const Value& a, const Value& b) {
  if (Is<PyTensor>(a) || Is<PyTensor>(b)) {
    // Dynamo compares with == even the same tensor, into a tensor a branch then reads
    // (probed: `y in [x, y]` is data-dependent there).
    const OpObserver* observer = in.process().compiler.op_observer;
    if (observer != nullptr && observer->RecordsOps()) {
      RefuseNotModeled(
          "comparing a tensor as a container's item in traced code (`in`, list.index, "
          "list.count) is not modeled");
    }
    return a == b || Truth(in, CompareOperation(in, lang::CompareOp::kEq, a, b));
  }
  if (HoldsTensor(a) || HoldsTensor(b))
    RefuseNotModeled("comparing containers holding tensors is not modeled");
  return a == b || PyEquals(a, b);
}

}  // namespace tdc::runtime
