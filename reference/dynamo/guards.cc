#include "reference/dynamo/guards.h"

#include <fmt/format.h>
#include <fmt/ranges.h>


namespace tdc::dynamo {

using namespace runtime;  // NOLINT: guards read the runtime's objects throughout

namespace {

std::string GuardOf(const Value& v) {
  if (const auto* t = DynCast<PyTensor>(v)) {
    const Tensor& tensor = t->tensor();
    return fmt::format("tensor {} {} {}", static_cast<int>(tensor.dtype), fmt::join(tensor.sizes, ","),
                       fmt::join(tensor.strides, ","));
  }
  switch (v->kind()) {
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr: return fmt::format("{} {}", TypeName(v), Repr(v));
    case ObjectKind::kTuple:
    case ObjectKind::kList: {
      std::string out = std::string(TypeName(v)) + "[";
      const auto& items = Is<PyTuple>(v) ? DynCast<PyTuple>(v)->items() : DynCast<PyList>(v)->items();
      for (const Value& item : items) out += GuardOf(item) + ";";
      return out + "]";
    }
    default: return fmt::format("id {}", v->id());
  }
}

// The source as torch's guard messages name it: L['x'] -> x, L['args'][0] -> args[0].
std::string LocalName(const std::string& source) {
  size_t close = source.find("']");
  if (!source.starts_with("L['") || close == std::string::npos) return source;
  return source.substr(3, close - 3) + source.substr(close + 2);
}

// TensorCheck's verbose reason (torch/csrc/dynamo/guards.cpp), in its order.
std::string TensorFailure(const GuardedValue::TensorMeta& was, const Tensor& now) {
  if (was.dtype != now.dtype) {
    return fmt::format("dtype mismatch. expected {}, actual {}", TorchTypeName(was.dtype), TorchTypeName(now.dtype));
  }
  if (was.sizes.size() != now.sizes.size()) {
    return fmt::format("rank mismatch. expected {}, actual {}", was.sizes.size(), now.sizes.size());
  }
  for (size_t i = 0; i < was.sizes.size(); ++i) {
    if (was.sizes[i] != now.sizes[i]) {
      return fmt::format("size mismatch at index {}. expected {}, actual {}", i, was.sizes[i], now.sizes[i]);
    }
  }
  for (size_t i = 0; i < was.strides.size(); ++i) {
    if (was.strides[i] != now.strides[i]) {
      return fmt::format("stride mismatch at index {}. expected {}, actual {}", i, was.strides[i], now.strides[i]);
    }
  }
  return "";
}

}  // namespace

bool GlobalGuard::Holds() const {
  Value now = globals->GetStr(name);
  return now && now->id() == id;
}

std::vector<GlobalGuard> GlobalGuardsOf(const PyDict& globals, const Value& callee) {
  std::vector<GlobalGuard> out;
  for (const auto& [key, value] : globals.Items()) {
    const auto* name = DynCast<PyStr>(key);
    if (name != nullptr && value == callee) out.push_back({&globals, name->value(), callee->id()});
  }
  return out;
}

std::string LocalOf(const GuardedValue& g) { return g.name.substr(0, g.name.find('[')); }

GuardedValue Guard(const Value& v, const std::string& source, size_t index) {
  GuardedValue g{index, LocalName(source), GuardOf(v), std::nullopt};
  if (const auto* t = DynCast<PyTensor>(v)) g.tensor = GuardedValue::TensorMeta{t->tensor().dtype, t->tensor().sizes,
                                                                               t->tensor().strides};
  return g;
}

std::string GuardFailure(const GuardedValue& cached, const Value& now) {
  if (GuardOf(now) == cached.guard) return "";
  const auto* t = DynCast<PyTensor>(now);
  if (cached.tensor && t != nullptr) {
    std::string why = TensorFailure(*cached.tensor, t->tensor());
    if (!why.empty()) return fmt::format("tensor '{}' {}", cached.name, why);
  }
  // A constant's guard: torch's line also carries the source line it came from and a user
  // stack (not modeled).
  return fmt::format("{} == {}", cached.name, cached.guard.substr(cached.guard.find(' ') + 1));
}

}  // namespace tdc::dynamo
