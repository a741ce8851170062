// Operators, truth, types and imports on runtime values (comparisons: py_compare.cc). Tensor
// operands go through the op table (the `operator` column of ops.def), with torch's reflected forms
// for a Python number on the left.
#include "reference/runtime/interp/py_ops.h"

#include <fmt/format.h>

#include <cmath>

#include "reference/runtime/elementwise.h"
#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_number.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_table.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {
namespace {

using lang::BinaryOp;

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
