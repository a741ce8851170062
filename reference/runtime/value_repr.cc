// repr() and str() of runtime values as CPython 3.11 prints them (values.h).
#include "reference/base/py_repr.h"
#include "reference/runtime/heap.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {
namespace {

// Containers being printed: a container inside itself prints as [...] / {...} / (...),
// as Py_ReprEnter makes CPython do.
class ReprPrinter {
 public:
  std::string Print(const Value& v);

 private:
  std::string Sequence(const Value& v, const std::vector<Value>& items, char open, char close);
  std::vector<const Object*> active_;
};

std::string ReprPrinter::Sequence(const Value& v, const std::vector<Value>& items, char open,
                                  char close) {
  for (const Object* o : active_) {
    if (o == v.get()) return std::string{open} + "..." + close;
  }
  active_.push_back(v.get());
  std::string out(1, open);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += Print(items[i]);
  }
  if (open == '(' && items.size() == 1) out += ",";  // (1,)
  out += close;
  active_.pop_back();
  return out;
}

std::string ReprPrinter::Print(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return "None";
    case ObjectKind::kBool:
      return DynCast<PyBool>(v)->value() ? "True" : "False";
    case ObjectKind::kInt:
      return std::to_string(DynCast<PyInt>(v)->value());
    case ObjectKind::kFloat:
      return ReprFloat(DynCast<PyFloat>(v)->value());
    case ObjectKind::kStr:
      return ReprStr(DynCast<PyStr>(v)->value());
    case ObjectKind::kTuple:
      return Sequence(v, DynCast<PyTuple>(v)->items(), '(', ')');
    case ObjectKind::kList:
      return Sequence(v, DynCast<PyList>(v)->items(), '[', ']');
    case ObjectKind::kDict: {
      for (const Object* o : active_) {
        if (o == v.get()) return "{...}";
      }
      active_.push_back(v.get());
      std::string out = "{";
      bool first = true;
      for (const auto& [key, value] : DynCast<PyDict>(v)->Items()) {
        if (!first) out += ", ";
        first = false;
        out += Print(key) + ": " + Print(value);
      }
      active_.pop_back();
      return out + "}";
    }
    case ObjectKind::kCell: {
      const Value& contents = DynCast<PyCell>(v)->contents;
      if (!contents) return "<cell: empty>";
      return "<cell: " + std::string(TypeName(contents)) + " object>";
    }
    case ObjectKind::kFunction:
      return "<function " + std::string(DynCast<PyFunction>(v)->qualname_text()) + ">";
    case ObjectKind::kBuiltin:
      return "<built-in function " + DynCast<PyBuiltin>(v)->name() + ">";
    case ObjectKind::kModule:
      return "<module '" + DynCast<PyModule>(v)->name() + "'>";
    case ObjectKind::kTensor: {
      const Tensor& t = DynCast<PyTensor>(v)->tensor();
      return "tensor(shape=" + ShapeText(t.sizes) + ", dtype=torch." +
             std::string(graph::DTypeName(t.dtype)) + ")";
    }
    case ObjectKind::kType:
      return "<class '" + DynCast<PyType>(v)->QualifiedName() + "'>";
    case ObjectKind::kInstance: {
      const auto* i = DynCast<PyInstance>(v);
      if (i->repr_not_modeled) {
        RefuseNotModeled("repr() of a " + i->type->QualifiedName() + " object is not modeled");
      }
      return i->repr.empty() ? "<" + i->type->QualifiedName() + " object>" : i->repr;
    }
    case ObjectKind::kMethod: {
      const auto* m = DynCast<PyMethod>(v);
      return "<bound method " + Print(m->function) + " of " + Print(m->self) + ">";
    }
    case ObjectKind::kDType:
      return "torch." + std::string(graph::DTypeName(DynCast<PyDType>(v)->dtype()));
    case ObjectKind::kException: {
      // BaseException_repr: Name(arg) for one arg, Name(a, b) / Name() otherwise.
      const auto* exc = DynCast<PyException>(v);
      const std::vector<Value>& args = exc->args()->items();
      std::string name(ExcTypeName(exc->type()));
      if (args.size() == 1) return name + "(" + Print(args[0]) + ")";
      return name + Print(exc->args());
    }
  }
  return "?";
}

}  // namespace

std::string Repr(const Value& v) { return ReprPrinter().Print(v); }

std::string Str(const Value& v) {
  if (const auto* str = DynCast<PyStr>(v)) return str->value();
  if (const auto* exc = DynCast<PyException>(v)) {
    // BaseException_str: "" / str(arg) / str(args); KeyError_str uses repr(arg).
    const std::vector<Value>& args = exc->args()->items();
    if (args.empty()) return "";
    if (args.size() == 1) return exc->type() == ExcType::kKeyError ? Repr(args[0]) : Str(args[0]);
    return Repr(exc->args());
  }
  return Repr(v);
}

}  // namespace tdc::runtime
