#include "reference/runtime/interp/outcome.h"

#include <fmt/format.h>

#include <algorithm>

#include "reference/base/utf8.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/types.h"

namespace tdc::runtime {

bool IsOutName(std::string_view name) {
  // `^out(_\w+|\d+)?$` with ASCII classes, as std::regex reads it; written out because
  // compiling the regex was a fifth of a small program's first run (issue 30).
  if (!name.starts_with("out")) return false;
  std::string_view rest = name.substr(3);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto word = [&](char c) {
    return digit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  if (rest.empty()) return true;
  if (rest[0] == '_') return rest.size() > 1 && std::all_of(rest.begin() + 1, rest.end(), word);
  return std::all_of(rest.begin(), rest.end(), digit);
}

namespace {

// Deeper outs are refused: the oracle's encoder (conformance/oracle/values.py) recurses
// once per level and fails near CPython's recursion limit, on a cycle (`x.append(x)`)
// at once; the reference's conversion recurses too.
constexpr int kMaxOutNesting = 200;

// A golden is UTF-8 JSON: a str holding a lone surrogate ("\ud800") cannot be written
// into one (the oracle's json.dumps(ensure_ascii=False) fails as the file is encoded).
const std::string& RecordableText(const std::string& text) {
  if (std::optional<Utf8Error> bad = FirstUtf8Error(text)) {
    RefuseNotModeled(fmt::format(
        "a str with a lone surrogate (at byte {}): no golden can record it", bad->position));
  }
  return text;
}

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

namespace {

graph::Value ToGoldenValueAt(const Value& v, int depth) {
  if (depth > kMaxOutNesting) {
    RefuseNotModeled(
        fmt::format("an out nested more than {} levels deep (or holding itself)", kMaxOutNesting));
  }
  auto inner = [depth](const Value& item) { return ToGoldenValueAt(item, depth + 1); };
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
      return graph::Value::Str(RecordableText(DynCast<PyStr>(v)->value()));
    case ObjectKind::kTensor:
      return ToGoldenValue(DynCast<PyTensor>(v)->tensor());
    case ObjectKind::kTuple:
    case ObjectKind::kList: {
      const auto& items = v->kind() == ObjectKind::kTuple ? DynCast<PyTuple>(v)->items()
                                                          : DynCast<PyList>(v)->items();
      std::vector<graph::Value> out;
      for (const Value& item : items) out.push_back(inner(item));
      return graph::Value::Sequence(
          v->kind() == ObjectKind::kTuple ? graph::ValueKind::kTuple : graph::ValueKind::kList,
          std::move(out));
    }
    case ObjectKind::kDict: {
      graph::Value out;
      out.kind = graph::ValueKind::kDict;
      for (const auto& [key, value] : DynCast<PyDict>(v)->Items()) {
        out.entries.push_back({inner(key), inner(value)});
      }
      return out;
    }
    case ObjectKind::kFunction:
      return Callable(std::string(DynCast<PyFunction>(v)->qualname_text()));
    case ObjectKind::kBuiltin:
      return Callable(DynCast<PyBuiltin>(v)->name());
    case ObjectKind::kMethod:
      return inner(DynCast<PyMethod>(v)->function);
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
  out.text = RecordableText(Repr(v));
  return out;
}

}  // namespace

graph::Value ToGoldenValue(const Value& v) { return ToGoldenValueAt(v, 0); }

graph::Exception ToGoldenException(const Value& exception) {
  const auto* e = DynCast<PyException>(exception);
  return {ExcQualifiedName(e->type()), RecordableText(Str(exception))};
}

graph::Outcome MakeOutcome(const PyDict& globals, const ModuleEnd& end, const std::string& file) {
  graph::Outcome outcome;
  outcome.unsupported = end.unsupported;
  // An out or exception no golden can hold makes the whole outcome a refusal; it is
  // located at the file's start, as no statement of the program is running any more.
  auto refuse = [&](const std::string& what, const NotModeled& refusal) {
    if (!outcome.unsupported) {
      outcome.unsupported = graph::Unsupported{what + ": " + refusal.reason(), file + ":1:1"};
    }
  };
  for (const auto& [key, value] : globals.Items()) {
    const auto* name = DynCast<PyStr>(key);
    if (name == nullptr || !IsOutName(name->value())) continue;
    try {
      outcome.outs.emplace_back(name->value(), ToGoldenValue(value));
    } catch (const NotModeled& refusal) {
      refuse("out `" + name->value() + "`", refusal);
    }
  }
  std::sort(outcome.outs.begin(), outcome.outs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  try {
    if (end.exception) outcome.exception = ToGoldenException(end.exception);
  } catch (const NotModeled& refusal) {
    refuse("the exception's message", refusal);
  }
  return outcome;
}

}  // namespace tdc::runtime
