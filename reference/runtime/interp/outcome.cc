#include "reference/runtime/interp/outcome.h"

#include <algorithm>
#include <regex>

#include "reference/runtime/types.h"

namespace tdc::runtime {

bool IsOutName(std::string_view name) {
  static const std::regex pattern(R"(^out(_\w+|\d+)?$)");
  return std::regex_match(name.begin(), name.end(), pattern);
}

namespace {

graph::Value Callable(std::string qualname) {
  graph::Value v;
  v.kind = graph::ValueKind::kCallable;
  v.text = std::move(qualname);
  return v;
}

}  // namespace

graph::Value ToGoldenValue(const Tensor& t) {
  graph::Tensor out;
  out.dtype = t.dtype;
  out.shape = t.sizes;
  out.strides = t.strides;
  out.requires_grad = t.requires_grad;
  for (const Scalar& s : t.Values()) {
    if (IsFloating(t.dtype)) {
      out.floats.push_back(s.AsDouble());
    } else {
      out.integers.push_back(s.AsInt());
    }
  }
  return graph::Value::OfTensor(std::move(out));
}

graph::Value ToGoldenValue(const Value& v) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return graph::Value::None();
    case ObjectKind::kBool:
      return graph::Value::Bool(DynCast<PyBool>(v)->value());
    case ObjectKind::kInt:
      return graph::Value::Int(DynCast<PyInt>(v)->value());
    case ObjectKind::kFloat:
      return graph::Value::Float(DynCast<PyFloat>(v)->value());
    case ObjectKind::kStr:
      return graph::Value::Str(DynCast<PyStr>(v)->value());
    case ObjectKind::kTensor:
      return ToGoldenValue(DynCast<PyTensor>(v)->tensor());
    case ObjectKind::kTuple:
    case ObjectKind::kList: {
      const auto& items = v->kind() == ObjectKind::kTuple ? DynCast<PyTuple>(v)->items()
                                                          : DynCast<PyList>(v)->items();
      std::vector<graph::Value> out;
      for (const Value& item : items) out.push_back(ToGoldenValue(item));
      return graph::Value::Sequence(
          v->kind() == ObjectKind::kTuple ? graph::ValueKind::kTuple : graph::ValueKind::kList,
          std::move(out));
    }
    case ObjectKind::kDict: {
      graph::Value out;
      out.kind = graph::ValueKind::kDict;
      for (const auto& [key, value] : DynCast<PyDict>(v)->Items()) {
        out.entries.push_back({ToGoldenValue(key), ToGoldenValue(value)});
      }
      return out;
    }
    case ObjectKind::kFunction:
      return Callable(std::string(DynCast<PyFunction>(v)->qualname_text()));
    case ObjectKind::kBuiltin:
      return Callable(DynCast<PyBuiltin>(v)->name());
    case ObjectKind::kMethod:
      return ToGoldenValue(DynCast<PyMethod>(v)->function);
    case ObjectKind::kDType: {
      graph::Value out;
      out.kind = graph::ValueKind::kDtype;
      out.dtype = DynCast<PyDType>(v)->dtype();
      return out;
    }
    case ObjectKind::kCell:
    case ObjectKind::kModule:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
      break;
  }
  graph::Value out;
  out.kind = graph::ValueKind::kRepr;
  out.text = Repr(v);
  return out;
}

graph::Exception ToGoldenException(const Value& exception) {
  const auto* e = DynCast<PyException>(exception);
  return {ExcQualifiedName(e->type()), Str(exception)};
}

graph::Outcome MakeOutcome(const PyDict& globals, const ModuleEnd& end) {
  graph::Outcome outcome;
  for (const auto& [key, value] : globals.Items()) {
    const auto* name = DynCast<PyStr>(key);
    if (name != nullptr && IsOutName(name->value())) {
      outcome.outs.emplace_back(name->value(), ToGoldenValue(value));
    }
  }
  std::sort(outcome.outs.begin(), outcome.outs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  if (end.exception) outcome.exception = ToGoldenException(end.exception);
  outcome.unsupported = end.unsupported;
  return outcome;
}

}  // namespace tdc::runtime
