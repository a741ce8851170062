// Operators, comparisons, items, types and imports on runtime values. Tensor operands go
// through the op table (the `operator` column of ops.def), with torch's reflected forms
// for a Python number on the left.
#include "reference/runtime/interp/py_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reference/runtime/elementwise.h"
#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {
namespace {

using lang::BinaryOp;
using lang::CompareOp;

// A Python number (bool counts as int).
struct Num {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
  double AsDouble() const { return is_float ? f : static_cast<double>(i); }
};

std::optional<Num> NumberOf(const Value& v) {
  if (const auto* b = DynCast<PyBool>(v)) return Num{false, b->value() ? 1 : 0, 0};
  if (const auto* i = DynCast<PyInt>(v)) return Num{false, i->value(), 0};
  if (const auto* f = DynCast<PyFloat>(v)) return Num{true, 0, f->value()};
  return std::nullopt;
}

std::string_view OperatorSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMult:
      return "*";
    case BinaryOp::kMatMult:
      return "@";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kPow:
      return "** or pow()";
    case BinaryOp::kLShift:
      return "<<";
    case BinaryOp::kRShift:
      return ">>";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kFloorDiv:
      return "//";
  }
  return "?";
}

// The `operator` function of ops.def that a tensor binary operator reaches.
std::string_view TensorOperator(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "operator.add";
    case BinaryOp::kSub:
      return "operator.sub";
    case BinaryOp::kMult:
      return "operator.mul";
    case BinaryOp::kDiv:
      return "operator.truediv";
    case BinaryOp::kPow:
      return "operator.pow";
    case BinaryOp::kMatMult:
      return "operator.matmul";
    case BinaryOp::kLShift:
      return "operator.lshift";
    case BinaryOp::kRShift:
      return "operator.rshift";
    case BinaryOp::kMod:
    case BinaryOp::kBitOr:
    case BinaryOp::kBitXor:
    case BinaryOp::kBitAnd:
    case BinaryOp::kFloorDiv:
      break;
  }
  return "";
}

[[noreturn]] void Unsupported(Interpreter& in, BinaryOp op, const Value& a, const Value& b) {
  // CPython formats there (printf-style `"%d" % n`), which the runtime does not model.
  if (op == BinaryOp::kMod && Is<PyStr>(a)) {
    RefuseNotModeled("printf-style string formatting (str % values) is not modeled");
  }
  Raise(in.heap(), ExcType::kTypeError,
        fmt::format("unsupported operand type(s) for {}: '{}' and '{}'", OperatorSymbol(op),
                    TypeName(a), TypeName(b)));
}

double FloorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}

Value IntOperation(Interpreter& in, BinaryOp op, int64_t a, int64_t b) {
  Heap& h = in.heap();
  switch (op) {
    case BinaryOp::kAdd:
      return IntAdd(h, a, b);
    case BinaryOp::kSub:
      return IntSub(h, a, b);
    case BinaryOp::kMult:
      return IntMul(h, a, b);
    case BinaryOp::kDiv:
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "division by zero");
      return h.Float(static_cast<double>(a) / static_cast<double>(b));
    case BinaryOp::kFloorDiv: {
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "integer division or modulo by zero");
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return h.Int(q);
    }
    case BinaryOp::kMod: {
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "integer modulo by zero");
      int64_t m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return h.Int(m);
    }
    case BinaryOp::kPow: {
      if (b < 0) return h.Float(std::pow(static_cast<double>(a), static_cast<double>(b)));
      Value result = h.Int(1);
      for (int64_t k = 0; k < b; ++k) result = IntMul(h, DynCast<PyInt>(result)->value(), a);
      return result;
    }
    case BinaryOp::kBitAnd:
      return h.Int(a & b);
    case BinaryOp::kBitOr:
      return h.Int(a | b);
    case BinaryOp::kBitXor:
      return h.Int(a ^ b);
    case BinaryOp::kLShift:
      if (b < 0) Raise(h, ExcType::kValueError, "negative shift count");
      if (b >= 63 || (a != 0 && (a << b) >> b != a))
        RefuseNotModeled("int outside the reference's int64 range");
      return h.Int(a << b);
    case BinaryOp::kRShift:
      if (b < 0) Raise(h, ExcType::kValueError, "negative shift count");
      return h.Int(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
    case BinaryOp::kMatMult:
      break;
  }
  return nullptr;
}

Value FloatOperation(Interpreter& in, BinaryOp op, double a, double b) {
  Heap& h = in.heap();
  switch (op) {
    case BinaryOp::kAdd:
      return h.Float(a + b);
    case BinaryOp::kSub:
      return h.Float(a - b);
    case BinaryOp::kMult:
      return h.Float(a * b);
    case BinaryOp::kDiv:
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "float division by zero");
      return h.Float(a / b);
    case BinaryOp::kFloorDiv:
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "float floor division by zero");
      return h.Float(std::floor(a / b));
    case BinaryOp::kMod:
      if (b == 0) Raise(h, ExcType::kZeroDivisionError, "float modulo");
      return h.Float(FloorMod(a, b));
    case BinaryOp::kPow:
      if (a == 0 && b < 0)
        Raise(h, ExcType::kZeroDivisionError, "0.0 cannot be raised to a negative power");
      return h.Float(std::pow(a, b));
    case BinaryOp::kMatMult:
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
    case BinaryOp::kBitOr:
    case BinaryOp::kBitXor:
    case BinaryOp::kBitAnd:
      break;
  }
  return nullptr;
}

std::vector<Value> Repeated(const std::vector<Value>& items, int64_t times) {
  std::vector<Value> out;
  for (int64_t k = 0; k < times; ++k) out.insert(out.end(), items.begin(), items.end());
  return out;
}

Value SequenceOperation(Interpreter& in, BinaryOp op, const Value& a, const Value& b) {
  Heap& h = in.heap();
  if (op == BinaryOp::kAdd) {
    if (Is<PyStr>(a) && Is<PyStr>(b))
      return h.Str(DynCast<PyStr>(a)->value() + DynCast<PyStr>(b)->value());
    if (Is<PyList>(a) && Is<PyList>(b)) {
      std::vector<Value> items = DynCast<PyList>(a)->items();
      for (const Value& v : DynCast<PyList>(b)->items()) items.push_back(v);
      return h.NewList(std::move(items));
    }
    if (Is<PyTuple>(a) && Is<PyTuple>(b)) {
      std::vector<Value> items = DynCast<PyTuple>(a)->items();
      for (const Value& v : DynCast<PyTuple>(b)->items()) items.push_back(v);
      // torch.Size's __add__ and __radd__ make a torch.Size.
      return h.NewTuple(std::move(items),
                        DynCast<PyTuple>(a)->torch_size() || DynCast<PyTuple>(b)->torch_size());
    }
  }
  if (op == BinaryOp::kMult) {
    const Value& seq = NumberOf(a) ? b : a;
    std::optional<Num> n = NumberOf(NumberOf(a) ? a : b);
    if (n && !n->is_float) {
      if (const auto* s = DynCast<PyStr>(seq)) {
        std::string out;
        for (int64_t k = 0; k < n->i; ++k) out += s->value();
        return h.Str(out);
      }
      if (const auto* l = DynCast<PyList>(seq)) return h.NewList(Repeated(l->items(), n->i));
      // torch.Size's __mul__ makes a torch.Size.
      if (const auto* t = DynCast<PyTuple>(seq))
        return h.NewTuple(Repeated(t->items(), n->i), t->torch_size());
    }
  }
  return nullptr;
}

// Tensor operators; `a` or `b` is a tensor.
Value TensorOperation(Interpreter& in, BinaryOp op, const Value& a, const Value& b) {
  std::string_view name = TensorOperator(op);
  // torch gives tensors these too (remainder, floor_divide, the shifts and bitwise ops, on
  // either side of a number): refused, never the TypeError torch would not raise (D13).
  if (name.empty()) {
    RefuseNotModeled(fmt::format("the tensor operator {} is not modeled", OperatorSymbol(op)));
  }
  const OpInfo& info = *FindPythonOperator(name);
  if (Is<PyTensor>(a)) return CallTensorOp(in, info, Surface::kFunction, {{a, b}, {}});
  if (!NumberOf(a)) Unsupported(in, op, a, b);
  // A Python number on the left: torch's reflected methods (torch/_tensor.py).
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kMult:
      return CallTensorOp(in, info, Surface::kFunction, {{b, a}, {}});
    case BinaryOp::kDiv: {  // __rtruediv__: self.reciprocal() * other
      Value reciprocal = WrapTensor(
          in, Binary(runtime::BinaryOp::kDiv, Arg::Python(Scalar::Int(1)), Arg::Of(TensorOf(b))));
      return CallTensorOp(in, *FindOp("mul"), Surface::kFunction, {{reciprocal, a}, {}});
    }
    case BinaryOp::kSub:
      return WrapTensor(
          in, Binary(runtime::BinaryOp::kSub, Arg::Python(ScalarOf(a)), Arg::Of(TensorOf(b))));
    case BinaryOp::kPow:
      return WrapTensor(
          in, Binary(runtime::BinaryOp::kPow, Arg::Python(ScalarOf(a)), Arg::Of(TensorOf(b))));
    // Tensor.__rlshift__ / __rrshift__: torch.bitwise_left_shift(2, x), another ATen op.
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
      RefuseNotModeled(
          fmt::format("a Python number on the left of the tensor operator {} is not "
                      "modeled",
                      OperatorSymbol(op)));
    case BinaryOp::kMatMult:
    case BinaryOp::kMod:
    case BinaryOp::kBitOr:
    case BinaryOp::kBitXor:
    case BinaryOp::kBitAnd:
    case BinaryOp::kFloorDiv:
      break;
  }
  Unsupported(in, op, a, b);
}

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

// The truth of a value once any tensor data read is recorded.
bool TruthOfValue(Interpreter& in, const Value& v) {
  // A library class's __len__ (torch._dynamo.utils.counters' Counter): empty is false.
  if (Is<PyInstance>(v)) {
    if (std::optional<Value> len = LookupMethod(in, v, "__len__"))
      return IsTruthy(in.Call(*len, {{v}, {}}));
  }
  try {
    return IsTruthy(v);
  } catch (const TorchError& e) {
    throw ToPyError(in.heap(), e);
  }
}

}  // namespace

bool Truth(Interpreter& in, const Value& v) {
  in.Use(v);
  if (Is<PyTensor>(v)) in.ReadTensorData(v, TensorDataRead::kTruth);
  return TruthOfValue(in, v);
}

bool BranchTruth(Interpreter& in, const Value& v, const lang::Expr& test) {
  in.Use(v);
  if (Is<PyTensor>(v)) in.ReadTensorData(v, TensorDataRead::kBranch, &test);
  return TruthOfValue(in, v);
}

Value NotOperation(Interpreter& in, const Value& v, const lang::Expr& not_expr) {
  in.Use(v);
  if (Is<PyTensor>(v)) in.ReadTensorData(v, TensorDataRead::kNot, &not_expr);
  return in.heap().Bool(!TruthOfValue(in, v));
}

Value BinaryOperation(Interpreter& in, lang::BinaryOp op, const Value& a, const Value& b) {
  in.Use(a);
  in.Use(b);
  if (Is<PyTensor>(a) || Is<PyTensor>(b)) {
    Value result = TensorOperation(in, op, a, b);
    NotifyTensorOp(in, {false, TensorOperator(op), false, FindPythonOperator(TensorOperator(op))},
                   {{a, b}, {}}, result);
    return result;
  }
  std::optional<Num> na = NumberOf(a), nb = NumberOf(b);
  if (na && nb) {
    Value v = (!na->is_float && !nb->is_float)
                  ? IntOperation(in, op, na->i, nb->i)
                  : FloatOperation(in, op, na->AsDouble(), nb->AsDouble());
    if (v) return v;
  }
  if (Value v = SequenceOperation(in, op, a, b)) return v;
  Unsupported(in, op, a, b);
}

Value InPlaceBinary(Interpreter& in, lang::BinaryOp op, const Value& a, const Value& b) {
  in.Use(a);
  in.Use(b);
  if (op == lang::BinaryOp::kAdd) {
    if (auto* list = DynCast<PyList>(a)) {  // list.__iadd__ extends in place
      for (Value& v : in.Iterate(b)) list->items().push_back(std::move(v));
      return a;
    }
  }
  // A tensor's __iadd__ (and the other in-place operators) writes into the tensor, which its
  // other names see, and Dynamo records it as an in-place node: not modeled.
  if (Is<PyTensor>(a)) {
    RefuseNotModeled(
        fmt::format("an augmented assignment to a tensor ({}, in place in torch) is not modeled",
                    lang::BinaryOpClassName(op)));
  }
  return BinaryOperation(in, op, a, b);
}

Value UnaryOperation(Interpreter& in, lang::UnaryOpKind op, const Value& v) {
  in.Use(v);
  Heap& h = in.heap();
  if (op == lang::UnaryOpKind::kNot) return h.Bool(!Truth(in, v));
  if (Is<PyTensor>(v)) {
    if (op == lang::UnaryOpKind::kUSub)
      return CallTensorOpAt(in, {false, "operator.neg"}, *FindOp("neg"), Surface::kFunction,
                            {{v}, {}});
    // Tensor.__pos__ (a `pos` node under Dynamo) and __invert__ are not modeled.
    RefuseNotModeled(fmt::format("the tensor operator {} is not modeled",
                                 op == lang::UnaryOpKind::kUAdd ? "unary +" : "unary ~"));
  }
  std::optional<Num> n = NumberOf(v);
  if (n) {
    switch (op) {
      case lang::UnaryOpKind::kUSub:
        return n->is_float ? h.Float(-n->f) : IntSub(h, 0, n->i);
      case lang::UnaryOpKind::kUAdd:
        return n->is_float ? h.Float(n->f) : h.Int(n->i);
      case lang::UnaryOpKind::kInvert:
        if (!n->is_float) return h.Int(~n->i);
        break;
      case lang::UnaryOpKind::kNot:
        break;
    }
  }
  std::string_view symbol = op == lang::UnaryOpKind::kUSub   ? "unary -"
                            : op == lang::UnaryOpKind::kUAdd ? "unary +"
                                                             : "unary ~";
  Raise(h, ExcType::kTypeError, fmt::format("bad operand type for {}: '{}'", symbol, TypeName(v)));
}

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

Value TypeOf(Interpreter& in, const Value& v) { return in.process().types().Of(v); }

bool IsInstance(Interpreter& in, const Value& v, const Value& type) {
  const auto* t = DynCast<PyType>(type);
  return t != nullptr && in.process().types().Of(v)->IsSubclassOf(t);
}

bool ExceptionMatches(Interpreter& in, const Value& exception, const Value& handler) {
  if (const auto* tuple = DynCast<PyTuple>(handler)) {
    for (const Value& t : tuple->items()) {
      if (ExceptionMatches(in, exception, t)) return true;
    }
    return false;
  }
  const auto* t = DynCast<PyType>(handler);
  if (t == nullptr || !t->exception) {
    Raise(in.heap(), ExcType::kTypeError,
          "catching classes that do not inherit from BaseException is not allowed");
  }
  return IsInstance(in, exception, handler);
}

Value MakeRaisable(Interpreter& in, const Value& raised) {
  if (Is<PyException>(raised)) return raised;
  if (const auto* t = DynCast<PyType>(raised); t != nullptr && t->exception) {
    return in.heap().NewException(*t->exception, Ref<PyTuple>());
  }
  Raise(in.heap(), ExcType::kTypeError, "exceptions must derive from BaseException");
}

Value ImportModule(Interpreter& in, const std::string& dotted_name) {
  std::optional<ModuleId> id = ModuleByName(dotted_name);
  // Whether CPython would find it is beyond the model: a module it lacks is refused (D13).
  if (!id) RefuseNotModeled(fmt::format("module '{}' is not modeled", dotted_name));
  return in.process().modules()[*id];
}

Value ImportFrom(Interpreter& in, const Value& module, const std::string& name) {
  const auto* m = DynCast<PyModule>(module);
  if (Value v = m->GetAttr(name)) return v;
  if (TorchModuleHas(m->name(), name)) {
    RefuseNotModeled(fmt::format("{}.{} is not modeled", m->name(), name));
  }
  Raise(in.heap(), ExcType::kImportError,
        fmt::format("cannot import name '{}' from '{}' (unknown location)", name, m->name()));
}

}  // namespace tdc::runtime
