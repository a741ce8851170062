// Python's builtins module as fixtures use it, with CPython 3.11's results and errors.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

// The builtins the runtime has whose keyword arguments CPython 3.11 accepts (sum's start,
// sorted's key and reverse, enumerate's, min's and max's key and default, zip's strict):
// the runtime models none of those keywords.
constexpr std::string_view kTakeKeywords[] = {"sum", "sorted", "enumerate", "min", "max", "zip"};

// A keyword argument of builtin `name`: refused where CPython accepts one, never the
// TypeError (or a keyword ignored).
void RefuseKeywords(Interpreter& in, std::string_view name, const CallArgs& args) {
  if (args.keywords.empty()) return;
  if (std::ranges::find(kTakeKeywords, name) != std::end(kTakeKeywords)) {
    RefuseNotModeled(fmt::format("{}() with a keyword argument is not modeled", name));
  }
  Raise(in.heap(), ExcType::kTypeError, fmt::format("{}() takes no keyword arguments", name));
}

void ExpectArgs(Interpreter& in, std::string_view name, const CallArgs& args, size_t min,
                size_t max) {
  size_t n = args.positional.size();
  RefuseKeywords(in, name, args);
  if (n < min || n > max) {
    if (min == max) {
      Raise(in.heap(), ExcType::kTypeError,
            min == 1 ? fmt::format("{}() takes exactly one argument ({} given)", name, n)
                     : fmt::format("{} expected {} arguments, got {}", name, min, n));
    }
    Raise(in.heap(), ExcType::kTypeError,
          n < min ? fmt::format("{} expected at least {} argument{}, got {}", name, min,
                                min == 1 ? "" : "s", n)
                  : fmt::format("{} expected at most {} arguments, got {}", name, max, n));
  }
}

std::string AttrName(Interpreter& in, const Value& v) {
  const auto* s = DynCast<PyStr>(v);
  if (s == nullptr) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("attribute name must be string, not '{}'", TypeName(v)));
  }
  return s->value();
}

bool HasAttr(Interpreter& in, const Value& object, const std::string& name) {
  try {
    in.GetAttr(object, name);
    return true;
  } catch (const PyError& e) {
    if (e.type() != ExcType::kAttributeError) throw;
    return false;
  }
}

// min() / max() over one iterable or several arguments.
Value Extreme(Interpreter& in, std::string_view name, CallArgs& args, lang::CompareOp better) {
  RefuseKeywords(in, name, args);
  if (args.positional.empty()) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("{} expected at least 1 argument, got 0", name));
  }
  std::vector<Value> items =
      args.positional.size() == 1 ? in.Iterate(args.positional[0]) : args.positional;
  if (items.empty())
    Raise(in.heap(), ExcType::kValueError, fmt::format("{}() arg is an empty sequence", name));
  Value best = items[0];
  for (size_t i = 1; i < items.size(); ++i) {
    if (Truth(in, CompareOperation(in, better, items[i], best))) best = items[i];
  }
  return best;
}

}  // namespace

void InstallBuiltins(Interpreter& in) {
  PyModule& module = *in.process().builtins();
  const BuiltinTypes& types = in.process().types();
  auto def = [&](std::string_view name, BuiltinCode code) {
    module.SetAttr(name, MakeBuiltin(in, name, std::move(code)));
  };

  for (const Ref<PyType>& exc : types.exceptions()) {
    if (exc->module == "builtins") module.SetAttr(exc->name, exc);
  }
  for (ObjectKind kind :
       {ObjectKind::kInt, ObjectKind::kFloat, ObjectKind::kStr, ObjectKind::kBool,
        ObjectKind::kList, ObjectKind::kTuple, ObjectKind::kDict, ObjectKind::kType}) {
    module.SetAttr(types.ForKind(kind)->name, types.ForKind(kind));
  }
  module.SetAttr("object", types.object());

  def("print", [&in](CallArgs& args) {
    // Printed text is not part of an outcome (SCHEMA §5); it goes to stderr for humans. Its
    // keywords are checked as CPython checks them, in its order (their errors are outcomes):
    // an unknown one first, then sep, then end.
    Value given[2];  // sep, end
    for (const auto& [keyword, value] : args.keywords) {
      if (keyword == "sep" || keyword == "end") {
        given[keyword == "sep" ? 0 : 1] = value;
      } else if (keyword == "file") {
        RefuseNotModeled("print() with file= is not modeled");
      } else if (keyword != "flush") {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("'{}' is an invalid keyword argument for print()", keyword));
      }
    }
    std::string sep = " ", end = "\n";
    for (int i = 0; i < 2; ++i) {
      if (!given[i] || Is<PyNone>(given[i])) continue;
      const auto* text = DynCast<PyStr>(given[i]);
      if (text == nullptr) {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("{} must be None or a string, not {}", i == 0 ? "sep" : "end",
                          TypeName(given[i])));
      }
      (i == 0 ? sep : end) = text->value();
    }
    std::string line;
    for (size_t i = 0; i < args.positional.size(); ++i)
      line += (i ? sep : "") + Str(args.positional[i]);
    std::cerr << line << end;
    return in.heap().None();
  });
  def("len", [&in](CallArgs& args) {
    ExpectArgs(in, "len", args, 1, 1);
    const Value& v = args.positional[0];
    if (const auto* l = DynCast<PyList>(v))
      return in.heap().Int(static_cast<int64_t>(l->items().size()));
    if (const auto* t = DynCast<PyTuple>(v)) return in.heap().Int(static_cast<int64_t>(t->size()));
    if (const auto* d = DynCast<PyDict>(v)) return in.heap().Int(static_cast<int64_t>(d->size()));
    if (Is<PyStr>(v)) return in.heap().Int(static_cast<int64_t>(in.Iterate(v).size()));
    if (const auto* t = DynCast<PyTensor>(v)) {
      if (t->tensor().dim() == 0) Raise(in.heap(), ExcType::kTypeError, "len() of a 0-d tensor");
      return in.heap().Int(t->tensor().sizes[0]);
    }
    if (std::optional<Value> method = LookupMethod(in, v, "__len__"))
      return in.Call(*method, {{v}, {}});
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("object of type '{}' has no len()", TypeName(v)));
  });
  def("id", [&in](CallArgs& args) {
    ExpectArgs(in, "id", args, 1, 1);
    // Only equality of ids is observable (SEMANTICS §6 I1): the model's id is the value.
    // Its allocation classes (I4) were measured without class statements.
    if (IsOfUserClass(args.positional[0])) {
      RefuseNotModeled("id() of " + DescribeUserClassValue(args.positional[0]) +
                       " is not modeled (SEMANTICS §6)");
    }
    return in.heap().Int(static_cast<int64_t>(args.positional[0]->id()));
  });
  def("isinstance", [&in](CallArgs& args) {
    ExpectArgs(in, "isinstance", args, 2, 2);
    const Value& cls = args.positional[1];
    if (const auto* tuple = DynCast<PyTuple>(cls)) {
      for (const Value& t : tuple->items()) {
        if (IsInstance(in, args.positional[0], t)) return in.heap().True();
      }
      return in.heap().False();
    }
    if (!Is<PyType>(cls)) {
      Raise(in.heap(), ExcType::kTypeError,
            "isinstance() arg 2 must be a type, a tuple of types, or a union");
    }
    return in.heap().Bool(IsInstance(in, args.positional[0], cls));
  });
  def("callable", [&in](CallArgs& args) {
    ExpectArgs(in, "callable", args, 1, 1);
    const Value& v = args.positional[0];
    bool callable = Is<PyFunction>(v) || Is<PyBuiltin>(v) || Is<PyMethod>(v) || Is<PyType>(v) ||
                    (Is<PyInstance>(v) && LookupMethod(in, v, "__call__"));
    return in.heap().Bool(callable);
  });
  def("getattr", [&in](CallArgs& args) {
    ExpectArgs(in, "getattr", args, 2, 3);
    std::string name = AttrName(in, args.positional[1]);
    in.ProgramAttributeRead(args.positional[0], name);  // as obj.name
    if (args.positional.size() == 3) {
      try {
        return in.GetAttr(args.positional[0], name);
      } catch (const PyError& e) {
        if (e.type() != ExcType::kAttributeError) throw;
        return args.positional[2];
      }
    }
    return in.GetAttr(args.positional[0], name);
  });
  def("hasattr", [&in](CallArgs& args) {
    ExpectArgs(in, "hasattr", args, 2, 2);
    std::string name = AttrName(in, args.positional[1]);
    // A function's own attribute asked for, as getattr() reads it (its dunders are Dynamo's
    // constants or refused where read).
    if (!name.starts_with("__")) in.ProgramAttributeRead(args.positional[0], name);
    return in.heap().Bool(HasAttr(in, args.positional[0], name));
  });
  def("setattr", [&in](CallArgs& args) {
    ExpectArgs(in, "setattr", args, 3, 3);
    in.SetAttr(args.positional[0], AttrName(in, args.positional[1]), args.positional[2]);
    return in.heap().None();
  });
  def("repr", [&in](CallArgs& args) {
    ExpectArgs(in, "repr", args, 1, 1);
    return in.heap().Str(ProgramRepr(args.positional[0]));
  });
  def("abs", [&in](CallArgs& args) {
    ExpectArgs(in, "abs", args, 1, 1);
    const Value& v = args.positional[0];
    // Tensor.__abs__ (`_operator_abs` under Dynamo) is not modeled.
    if (Is<PyTensor>(v)) RefuseNotModeled("abs() of a tensor is not modeled");
    if (Truth(in, CompareOperation(in, lang::CompareOp::kLt, v, in.heap().Int(0)))) {
      return UnaryOperation(in, lang::UnaryOpKind::kUSub, v);
    }
    return UnaryOperation(in, lang::UnaryOpKind::kUAdd, v);
  });
  def("min", [&in](CallArgs& args) { return Extreme(in, "min", args, lang::CompareOp::kLt); });
  def("max", [&in](CallArgs& args) { return Extreme(in, "max", args, lang::CompareOp::kGt); });
  def("sum", [&in](CallArgs& args) {
    ExpectArgs(in, "sum", args, 1, 2);
    Value total = args.positional.size() == 2 ? args.positional[1] : in.heap().Int(0);
    for (const Value& v : in.Iterate(args.positional[0]))
      total = BinaryOperation(in, lang::BinaryOp::kAdd, total, v);
    return total;
  });
  def("any", [&in](CallArgs& args) {
    ExpectArgs(in, "any", args, 1, 1);
    for (const Value& v : in.Iterate(args.positional[0])) {
      if (Truth(in, v)) return in.heap().True();
    }
    return in.heap().False();
  });
  def("all", [&in](CallArgs& args) {
    ExpectArgs(in, "all", args, 1, 1);
    for (const Value& v : in.Iterate(args.positional[0])) {
      if (!Truth(in, v)) return in.heap().False();
    }
    return in.heap().True();
  });
  def("sorted", [&in](CallArgs& args) {
    ExpectArgs(in, "sorted", args, 1, 1);
    std::vector<Value> items = in.Iterate(args.positional[0]);
    std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
      return Truth(in, CompareOperation(in, lang::CompareOp::kLt, a, b));
    });
    return Value(in.heap().NewList(std::move(items)));
  });
  def("enumerate", [&in](CallArgs& args) {
    ExpectArgs(in, "enumerate", args, 1, 2);
    int64_t start = 0;
    if (args.positional.size() == 2) {
      const Value& given = args.positional[1];
      if (const auto* b = DynCast<PyBool>(given)) {
        start = b->value() ? 1 : 0;
      } else if (const auto* i = DynCast<PyInt>(given)) {
        start = i->value();
      } else if (Is<PyStr>(given) || Is<PyFloat>(given) || Is<PyNone>(given) || Is<PyList>(given) ||
                 Is<PyTuple>(given) || Is<PyDict>(given)) {
        Raise(in.heap(), ExcType::kTypeError,
              fmt::format("'{}' object cannot be interpreted as an integer", TypeName(given)));
      } else {
        // A tensor or an object with __index__ is a start in CPython.
        RefuseNotModeled(
            fmt::format("enumerate() with a '{}' start is not modeled", TypeName(given)));
      }
    }
    std::vector<Value> pairs;
    for (Value& v : in.Iterate(args.positional[0]))
      pairs.push_back(in.heap().NewTuple({in.heap().Int(start++), v}));
    return Value(in.heap().NewList(std::move(pairs)));  // an iterator in CPython
  });
  def("zip", [&in](CallArgs& args) {
    RefuseKeywords(in, "zip", args);
    std::vector<std::vector<Value>> columns;
    size_t n = SIZE_MAX;
    for (const Value& v : args.positional) {
      columns.push_back(in.Iterate(v));
      n = std::min(n, columns.back().size());
    }
    std::vector<Value> rows;
    for (size_t i = 0; i < (columns.empty() ? 0 : n); ++i) {
      std::vector<Value> row;
      for (auto& c : columns) row.push_back(c[i]);
      rows.push_back(in.heap().NewTuple(std::move(row)));
    }
    return Value(in.heap().NewList(std::move(rows)));  // an iterator in CPython
  });
  InstallBuiltinTypeConstructors(in);
  InstallSlices(in);
}

}  // namespace tdc::runtime
