// repr() and str() of runtime values as CPython 3.11 prints them (values.h).
#include <fmt/format.h>

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
  // `program`: the text reaches the program (repr(), str(), str.format), so a value whose
  // CPython text the reference cannot give is refused rather than approximated (DESIGN D13).
  explicit ReprPrinter(bool program = false) : program_(program) {}
  std::string Print(const Value& v);

 private:
  // Why CPython's text of `v` is not modeled: it shows the address of another object (a
  // bound method, a cell), a file path (a module), torch's tensor print format, a builtin's or
  // class's own text, or a library class's own repr. nullptr: modeled.
  static const char* NotModeledText(const Value& v);
  // CPython's `<function f at 0x...>` / `<module.Type object at 0x...>` (PyType::object_repr),
  // the address being the model's id, as id() returns it (SEMANTICS §6: only equality of ids
  // is meaningful); empty for other values.
  static std::string AddressedText(const Value& v);
  bool program_;
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

const char* ReprPrinter::NotModeledText(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kMethod:
    case ObjectKind::kCell:
      return "another object's address";
    case ObjectKind::kTensor:
      return "torch's tensor print format";
    case ObjectKind::kModule:
      return "its file";
    case ObjectKind::kBuiltin:
      if (DynCast<PyBuiltin>(v)->cpython_function) return nullptr;
      return "a builtin's or class's text";  // `<built-in function len>`, `<class 'zip'>`, ...
    case ObjectKind::kInstance: {
      const auto* i = DynCast<PyInstance>(v);
      return i->repr.empty() && !i->repr_not_modeled && !i->type->user_defined &&
                     !i->type->object_repr
                 ? "its class's repr"
                 : nullptr;
    }
    case ObjectKind::kFunction:
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
    case ObjectKind::kTuple:
    case ObjectKind::kList:
    case ObjectKind::kDict:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kDType:
      break;
  }
  return nullptr;
}

std::string ReprPrinter::AddressedText(const Value& v) {
  if (const auto* f = DynCast<PyFunction>(v)) {
    return fmt::format("<function {} at {:#x}>", f->qualname_text(), v->id());
  }
  if (const auto* i = DynCast<PyInstance>(v); i != nullptr && i->type->object_repr) {
    return fmt::format("<{} object at {:#x}>", i->type->QualifiedName(), v->id());
  }
  return "";
}

std::string ReprPrinter::Print(const Value& v) {
  if (program_) {
    if (std::string text = AddressedText(v); !text.empty()) return text;
    if (const char* why = NotModeledText(v)) {
      RefuseNotModeled(
          fmt::format("repr() of a '{}' object ({}) is not modeled", TypeName(v), why));
    }
  }
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
      if (DynCast<PyTuple>(v)->torch_size()) {
        return "torch.Size(" + Sequence(v, DynCast<PyTuple>(v)->items(), '[', ']') + ")";
      }
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

std::string StrOf(const Value& v, bool program) {
  if (const auto* str = DynCast<PyStr>(v)) return str->value();
  if (const auto* exc = DynCast<PyException>(v)) {
    // BaseException_str: "" / str(arg) / str(args); KeyError_str uses repr(arg).
    const std::vector<Value>& args = exc->args()->items();
    if (args.empty()) return "";
    if (args.size() == 1) {
      return exc->type() == ExcType::kKeyError ? ReprPrinter(program).Print(args[0])
                                               : StrOf(args[0], program);
    }
    return ReprPrinter(program).Print(exc->args());
  }
  return ReprPrinter(program).Print(v);
}

}  // namespace

std::string Repr(const Value& v) { return ReprPrinter().Print(v); }
std::string Str(const Value& v) { return StrOf(v, false); }
std::string ProgramRepr(const Value& v) { return ReprPrinter(true).Print(v); }
std::string ProgramStr(const Value& v) { return StrOf(v, true); }

}  // namespace tdc::runtime
