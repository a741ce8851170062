// The builtin classes as callables and their methods: int/float/str/bool/list/tuple/dict
// constructors, type(x), range, and the list and dict methods fixtures use.
#include <fmt/format.h>

#include <cmath>

#include "reference/base/py_repr.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/number_text.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The most items a range may have: about 72 MB of ints, far past any fixture's loops.
constexpr uint64_t kMaxRangeItems = 1'000'000;

// How many items range(start, stop, step) has (step != 0), in unsigned arithmetic: the
// distance between two int64s and a step's magnitude fit in a uint64.
uint64_t RangeLength(int64_t start, int64_t stop, int64_t step) {
  const bool up = step > 0;
  if (up ? stop <= start : start <= stop) return 0;
  const uint64_t span = up ? static_cast<uint64_t>(stop) - static_cast<uint64_t>(start)
                           : static_cast<uint64_t>(start) - static_cast<uint64_t>(stop);
  const uint64_t magnitude =
      up ? static_cast<uint64_t>(step) : static_cast<uint64_t>(-(step + 1)) + 1;
  return (span - 1) / magnitude + 1;
}

Value IntOf(Interpreter& in, const Value& v) {
  if (const auto* i = DynCast<PyInt>(v)) return in.heap().Int(i->value());
  if (const auto* b = DynCast<PyBool>(v)) return in.heap().Int(b->value() ? 1 : 0);
  if (const auto* f = DynCast<PyFloat>(v)) {
    if (!std::isfinite(f->value())) {
      Raise(in.heap(), std::isnan(f->value()) ? ExcType::kValueError : ExcType::kOverflowError,
            std::isnan(f->value()) ? "cannot convert float NaN to integer"
                                   : "cannot convert float infinity to integer");
    }
    const double whole = std::trunc(f->value());
    // 2^63 and beyond (and below -2^63) are Python ints the runtime does not have.
    if (whole >= 9223372036854775808.0 || whole < -9223372036854775808.0) {
      RefuseNotModeled("int outside the reference's int64 range");
    }
    return in.heap().Int(static_cast<int64_t>(whole));
  }
  if (const auto* t = DynCast<PyTensor>(v)) {
    in.ReadTensorData(v, TensorDataRead::kInt);
    return in.heap().Int(Item(t->tensor()).AsInt());
  }
  if (const auto* s = DynCast<PyStr>(v)) {
    if (std::optional<int64_t> parsed = ParseIntText(s->value())) return in.heap().Int(*parsed);
    // CPython formats the text's repr with %.200R: its first 200 characters.
    std::string repr = Repr(v);
    size_t characters = 0, cut = 0;
    while (cut < repr.size() && characters < 200) {
      do ++cut;
      while (cut < repr.size() && (static_cast<unsigned char>(repr[cut]) & 0xC0) == 0x80);
      ++characters;
    }
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("invalid literal for int() with base 10: {}", repr.substr(0, cut)));
  }
  Raise(
      in.heap(), ExcType::kTypeError,
      fmt::format("int() argument must be a string, a bytes-like object or a real number, not '{}'",
                  TypeName(v)));
}

Value FloatOf(Interpreter& in, const Value& v) {
  if (const auto* i = DynCast<PyInt>(v)) return in.heap().Float(static_cast<double>(i->value()));
  if (const auto* b = DynCast<PyBool>(v)) return in.heap().Float(b->value() ? 1.0 : 0.0);
  if (const auto* f = DynCast<PyFloat>(v)) return in.heap().Float(f->value());
  if (const auto* t = DynCast<PyTensor>(v)) {
    in.ReadTensorData(v, TensorDataRead::kFloat);
    return in.heap().Float(Item(t->tensor()).AsDouble());
  }
  if (const auto* s = DynCast<PyStr>(v)) {
    if (std::optional<double> parsed = ParseFloatText(s->value())) return in.heap().Float(*parsed);
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("could not convert string to float: {}", Repr(v)));
  }
  Raise(in.heap(), ExcType::kTypeError,
        fmt::format("float() argument must be a string or a real number, not '{}'", TypeName(v)));
}

int64_t IntArg(Interpreter& in, const Value& v) {
  if (const auto* i = DynCast<PyInt>(v)) return i->value();
  if (const auto* b = DynCast<PyBool>(v)) return b->value() ? 1 : 0;
  Raise(in.heap(), ExcType::kTypeError,
        fmt::format("'{}' object cannot be interpreted as an integer", TypeName(v)));
}

void SetMethod(Interpreter& in, ObjectKind kind, std::string_view type_name, std::string_view name,
               BuiltinCode code) {
  in.process().types().ForKind(kind)->dict->SetStr(
      name, MakeBuiltin(in, std::string(type_name) + "." + std::string(name), std::move(code)));
}

PyList& SelfList(const CallArgs& args) { return *DynCast<PyList>(args.positional[0]); }
PyDict& SelfDict(const CallArgs& args) { return *DynCast<PyDict>(args.positional[0]); }
// The list or dict a mutating method changes, the frame hook told (FrameHook::OnMutate).
PyList& ChangedList(Interpreter& in, const CallArgs& args) {
  in.Mutate(args.positional[0]);
  return SelfList(args);
}
PyDict& ChangedDict(Interpreter& in, const CallArgs& args) {
  in.Mutate(args.positional[0]);
  return SelfDict(args);
}

void InstallListMethods(Interpreter& in) {
  auto def = [&](std::string_view name, BuiltinCode code) {
    SetMethod(in, ObjectKind::kList, "list", name, std::move(code));
  };
  def("append", [&in](CallArgs& a) {
    ChangedList(in, a).items().push_back(a.positional.at(1));
    return in.heap().None();
  });
  def("extend", [&in](CallArgs& a) {
    std::vector<Value> added = in.Iterate(a.positional.at(1));
    auto& items = ChangedList(in, a).items();
    for (Value& v : added) items.push_back(std::move(v));
    return in.heap().None();
  });
  def("insert", [&in](CallArgs& a) {
    auto& items = ChangedList(in, a).items();
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = IntArg(in, a.positional.at(1));
    i = i < 0 ? std::max<int64_t>(0, i + n) : std::min(i, n);
    items.insert(items.begin() + i, a.positional.at(2));
    return in.heap().None();
  });
  def("pop", [&in](CallArgs& a) {
    auto& items = ChangedList(in, a).items();
    if (items.empty()) Raise(in.heap(), ExcType::kIndexError, "pop from empty list");
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a.positional.size() > 1 ? IntArg(in, a.positional[1]) : -1;
    if (i < 0) i += n;
    if (i < 0 || i >= n) Raise(in.heap(), ExcType::kIndexError, "pop index out of range");
    Value v = items[static_cast<size_t>(i)];
    items.erase(items.begin() + i);
    return v;
  });
  def("clear", [&in](CallArgs& a) {
    ChangedList(in, a).Clear();
    return in.heap().None();
  });
  def("copy", [&in](CallArgs& a) { return Value(in.heap().NewList(SelfList(a).items())); });
  def("index", [&in](CallArgs& a) {
    const auto& items = SelfList(a).items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (ItemEquals(in, items[i], a.positional.at(1)))
        return in.heap().Int(static_cast<int64_t>(i));
    }
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("{} is not in list", ProgramRepr(a.positional.at(1))));
  });
  def("count", [&in](CallArgs& a) {
    int64_t n = 0;
    for (const Value& v : SelfList(a).items()) n += ItemEquals(in, v, a.positional.at(1)) ? 1 : 0;
    return in.heap().Int(n);
  });
}

void InstallDictMethods(Interpreter& in) {
  auto def = [&](std::string_view name, BuiltinCode code) {
    SetMethod(in, ObjectKind::kDict, "dict", name, std::move(code));
  };
  def("get", [&in](CallArgs& a) {
    Value v = SelfDict(a).Get(a.positional.at(1));
    return v ? v : (a.positional.size() > 2 ? a.positional[2] : in.heap().None());
  });
  def("keys", [&in](CallArgs& a) { return Value(in.heap().NewList(in.Iterate(a.positional[0]))); });
  def("values", [&in](CallArgs& a) {
    std::vector<Value> out;
    for (auto& [k, v] : SelfDict(a).Items()) out.push_back(v);
    return Value(in.heap().NewList(std::move(out)));
  });
  def("items", [&in](CallArgs& a) {
    std::vector<Value> out;
    for (auto& [k, v] : SelfDict(a).Items()) out.push_back(in.heap().NewTuple({k, v}));
    return Value(in.heap().NewList(std::move(out)));
  });
  def("pop", [&in](CallArgs& a) {
    Value v = ChangedDict(in, a).Get(a.positional.at(1));
    if (!v) {
      if (a.positional.size() > 2) return a.positional[2];
      throw PyError(
          in.heap().NewException(ExcType::kKeyError, in.heap().NewTuple({a.positional[1]})));
    }
    SelfDict(a).Erase(a.positional[1]);
    return v;
  });
  def("setdefault", [&in](CallArgs& a) {
    Value v = ChangedDict(in, a).Get(a.positional.at(1));
    if (v) return v;
    Value d = a.positional.size() > 2 ? a.positional[2] : in.heap().None();
    SelfDict(a).Set(a.positional[1], d);
    return d;
  });
  def("update", [&in](CallArgs& a) {
    PyDict& self = ChangedDict(in, a);
    if (a.positional.size() > 2 || (a.positional.size() == 2 && !Is<PyDict>(a.positional[1]))) {
      RefuseNotModeled("dict.update() of other than one dict and keywords is not modeled");
    }
    if (a.positional.size() == 2) {
      for (auto& [k, v] : DynCast<PyDict>(a.positional[1])->Items()) self.Set(k, v);
    }
    for (auto& [k, v] : a.keywords) self.SetStr(k, v);
    return in.heap().None();
  });
}

// int(x, base), str(b, encoding), a keyword argument, or more arguments than one to int,
// float, bool, str, list or tuple: their other forms (and CPython's TypeErrors) are not
// modeled, never answered from the first argument alone.
void AtMostOneArgument(const CallArgs& a, std::string_view type) {
  if (a.positional.size() > 1 || !a.keywords.empty()) {
    RefuseNotModeled(
        fmt::format("{}() with other than one positional argument is not modeled", type));
  }
}

}  // namespace

void InstallBuiltinTypeConstructors(Interpreter& in) {
  const BuiltinTypes& types = in.process().types();
  Heap& h = in.heap();
  types.ForKind(ObjectKind::kInt)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "int");
    return a.positional.empty() ? in.heap().Int(0) : IntOf(in, a.positional[0]);
  };
  types.ForKind(ObjectKind::kFloat)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "float");
    return a.positional.empty() ? in.heap().Float(0) : FloatOf(in, a.positional[0]);
  };
  types.ForKind(ObjectKind::kBool)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "bool");
    return in.heap().Bool(!a.positional.empty() && Truth(in, a.positional[0]));
  };
  types.ForKind(ObjectKind::kStr)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "str");
    return a.positional.empty() ? in.heap().Intern("") : in.heap().Str(ProgramStr(a.positional[0]));
  };
  types.ForKind(ObjectKind::kList)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "list");
    return Value(in.heap().NewList(a.positional.empty() ? std::vector<Value>{}
                                                        : in.Iterate(a.positional[0])));
  };
  types.ForKind(ObjectKind::kTuple)->construct = [&in](CallArgs& a) {
    AtMostOneArgument(a, "tuple");
    // tuple(t) is t itself, but tuple(size) a plain tuple.
    if (!a.positional.empty() && Is<PyTuple>(a.positional[0]) &&
        !DynCast<PyTuple>(a.positional[0])->torch_size()) {
      return a.positional[0];
    }
    return Value(in.heap().NewTuple(a.positional.empty() ? std::vector<Value>{}
                                                         : in.Iterate(a.positional[0])));
  };
  types.ForKind(ObjectKind::kDict)->construct = [&in](CallArgs& a) {
    Ref<PyDict> d = in.heap().NewDict();
    if (!a.positional.empty()) {
      if (const auto* src = DynCast<PyDict>(a.positional[0])) {
        for (auto& [k, v] : src->Items()) d->Set(k, v);
      } else {
        for (const Value& pair : in.Iterate(a.positional[0])) {
          std::vector<Value> kv = in.Iterate(pair);
          d->Set(kv.at(0), kv.at(1));
        }
      }
    }
    for (auto& [k, v] : a.keywords) d->SetStr(k, v);
    return Value(d);
  };
  // object(): an instance with no attributes of its own (no __dict__: interp/attributes.cc).
  types.object()->object_repr = true;
  types.object()->construct = [&in](CallArgs& a) -> Value {
    if (!a.positional.empty() || !a.keywords.empty())
      Raise(in.heap(), ExcType::kTypeError, "object() takes no arguments");
    return in.heap().NewInstance(in.process().types().object());
  };
  types.ForKind(ObjectKind::kType)->construct = [&in](CallArgs& a) {
    if (a.positional.size() != 1)
      Raise(in.heap(), ExcType::kTypeError, "type() takes 1 or 3 arguments");
    return TypeOf(in, a.positional[0]);
  };
  // range(stop) / range(start, stop[, step]): an object iterating its ints.
  Ref<PyType> range = h.NewType("range", "builtins");
  range->construct = [&in, range](CallArgs& a) {
    if (a.positional.empty() || a.positional.size() > 3) {
      Raise(in.heap(), ExcType::kTypeError,
            fmt::format("range expected at {} 1 argument{}, got {}",
                        a.positional.empty() ? "least" : "most", a.positional.empty() ? "" : "s",
                        a.positional.size()));
    }
    int64_t start = 0, stop = 0, step = 1;
    if (a.positional.size() == 1) {
      stop = IntArg(in, a.positional[0]);
    } else {
      start = IntArg(in, a.positional[0]);
      stop = IntArg(in, a.positional[1]);
      if (a.positional.size() == 3) step = IntArg(in, a.positional[2]);
    }
    if (step == 0) Raise(in.heap(), ExcType::kValueError, "range() arg 3 must not be zero");
    // The items are made at once (iteration here takes a list): a range longer than any
    // program the reference answers would exhaust memory before the step budget ends it.
    if (const uint64_t length = RangeLength(start, stop, step); length > kMaxRangeItems) {
      RefuseNotModeled(
          fmt::format("range({}, {}, {}) of {} items: the reference makes a range's "
                      "items at once, at most {}",
                      start, stop, step, length, kMaxRangeItems));
    }
    Ref<PyInstance> r = in.heap().NewInstance(range);
    std::vector<Value> items;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      items.push_back(in.heap().Int(i));
    r->attrs->SetStr("__items__", in.heap().NewList(std::move(items)));
    return Value(r);
  };
  range->dict->SetStr("__iter_items__", MakeBuiltin(in, "range.__iter_items__", [](CallArgs& a) {
                        return DynCast<PyInstance>(a.positional[0])->attrs->GetStr("__items__");
                      }));
  range->dict->SetStr(
      "__len__", MakeBuiltin(in, "range.__len__", [&in](CallArgs& a) {
        const Value items = DynCast<PyInstance>(a.positional[0])->attrs->GetStr("__items__");
        return in.heap().Int(static_cast<int64_t>(DynCast<PyList>(items)->items().size()));
      }));
  in.process().builtins()->SetAttr("range", range);
  InstallListMethods(in);
  InstallDictMethods(in);
  InstallStrMethods(in);
}

}  // namespace tdc::runtime
