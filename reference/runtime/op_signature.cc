#include "reference/runtime/op_signature.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "reference/runtime/not_modeled.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {
namespace {

struct ParamTypeName {
  ParamType type;
  std::string_view name;
};

// The one table of the signature notation's type names.
constexpr ParamTypeName kParamTypeNames[] = {
    {ParamType::kTensor, "Tensor"},
    {ParamType::kNumber, "Number"},
    {ParamType::kTensorOrNumber, "Tensor|Number"},
    {ParamType::kInt, "int"},
    {ParamType::kBool, "bool"},
    {ParamType::kIntList, "int[]"},
    {ParamType::kIntListOrInt, "int[1]"},
    {ParamType::kTensorList, "Tensor[]"},
    {ParamType::kScalarType, "ScalarType"},
    {ParamType::kData, "Data"},
    {ParamType::kDevice, "Device"},
};

// What torch's argument errors call each type.
std::string_view ExpectedText(ParamType type) {
  switch (type) {
    case ParamType::kTensor:
      return "Tensor";
    case ParamType::kNumber:
      return "Number";
    case ParamType::kTensorOrNumber:
      return "Tensor or Number";
    case ParamType::kInt:
      return "int";
    case ParamType::kBool:
      return "bool";
    case ParamType::kIntList:
    case ParamType::kIntListOrInt:
      return "tuple of ints";
    case ParamType::kTensorList:
      return "tuple of Tensors";
    case ParamType::kScalarType:
      return "torch.dtype";
    case ParamType::kData:
      return "data";
    case ParamType::kDevice:
      return "torch.device";
  }
  return "?";
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

[[noreturn]] void TableBug(std::string_view text, std::string_view why) {
  throw std::logic_error(fmt::format("ops.def signature \"{}\": {}", text, why));
}

OpValue ParseDefault(std::string_view text, std::string_view signature) {
  if (text == "None") return OpValue::None();
  if (text == "True") return OpValue::Of(Scalar::Bool(true));
  if (text == "False") return OpValue::Of(Scalar::Bool(false));
  if (text == "[]") return OpValue::List({});
  try {
    size_t used = 0;
    int64_t v = std::stoll(std::string(text), &used);
    if (used == text.size()) return OpValue::Of(Scalar::Int(v));
  } catch (const std::exception&) {
  }
  TableBug(signature, fmt::format("bad default {}", text));
}

Param ParseParam(std::string_view part, bool keyword_only, std::string_view signature) {
  Param p;
  p.keyword_only = keyword_only;
  size_t colon = part.find(':');
  if (colon == std::string_view::npos) TableBug(signature, "a parameter has no type");
  p.name = std::string(Trim(part.substr(0, colon)));
  std::string_view rest = part.substr(colon + 1);
  size_t eq = rest.find('=');
  std::string_view type = Trim(rest.substr(0, eq));
  if (eq != std::string_view::npos)
    p.default_value = ParseDefault(Trim(rest.substr(eq + 1)), signature);
  if (type.ends_with('?')) {
    p.accepts_none = true;
    type.remove_suffix(1);
  }
  auto it = std::find_if(std::begin(kParamTypeNames), std::end(kParamTypeNames),
                         [&](const ParamTypeName& n) { return n.name == type; });
  if (it == std::end(kParamTypeNames)) TableBug(signature, fmt::format("unknown type {}", type));
  p.type = it->type;
  return p;
}

bool AllItems(const OpValue& v, bool (*pred)(const OpValue&)) {
  return v.IsSequence() && std::all_of(v.items.begin(), v.items.end(), pred);
}

bool IsIntValue(const OpValue& v) { return v.IsInt(); }
bool IsTensorValue(const OpValue& v) { return v.kind == OpValue::Kind::kTensor; }

bool Accepts(const Param& p, const OpValue& v) {
  if (v.kind == OpValue::Kind::kNone) return p.accepts_none;
  switch (p.type) {
    case ParamType::kTensor:
      return v.kind == OpValue::Kind::kTensor;
    case ParamType::kNumber:
      return v.kind == OpValue::Kind::kScalar;
    case ParamType::kTensorOrNumber:
      return v.kind == OpValue::Kind::kScalar || v.kind == OpValue::Kind::kTensor;
    case ParamType::kInt:
      return v.IsInt();  // torch's parser rejects a bool here
    case ParamType::kBool:
      return v.kind == OpValue::Kind::kScalar && v.scalar.dtype == DType::kBool;
    case ParamType::kIntList:
      return AllItems(v, IsIntValue);
    case ParamType::kIntListOrInt:
      return v.IsInt() || AllItems(v, IsIntValue);
    case ParamType::kTensorList:
      return AllItems(v, IsTensorValue);
    case ParamType::kScalarType:
      return v.kind == OpValue::Kind::kDType;
    case ParamType::kData:
      return v.kind == OpValue::Kind::kScalar || v.IsSequence();
    case ParamType::kDevice:
      return v.kind == OpValue::Kind::kCpuDevice;
  }
  return false;
}

bool IsIntList(ParamType t) { return t == ParamType::kIntList || t == ParamType::kIntListOrInt; }

[[noreturn]] void ArgumentError(std::string message) { throw TorchError("TypeError", message); }

}  // namespace

Signature ParseSignature(std::string_view text) {
  Signature sig;
  bool keyword_only = false;
  std::string_view rest = text;
  while (!Trim(rest).empty()) {
    size_t comma = rest.find(',');
    std::string_view part = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (part == "*") {
      keyword_only = true;
      continue;
    }
    sig.params.push_back(ParseParam(part, keyword_only, text));
  }
  return sig;
}

BoundArgs Bind(const Signature& signature, std::string_view op_name, Surface surface,
               std::vector<OpValue> positional,
               std::vector<std::pair<std::string, OpValue>> keywords) {
  const std::vector<Param>& params = signature.params;
  std::vector<std::optional<OpValue>> slots(params.size());
  std::vector<size_t> positional_params;
  size_t self_index = params.size();
  for (size_t i = 0; i < params.size(); ++i) {
    bool is_self = params[i].name == "self";
    if (is_self) self_index = i;
    if (!params[i].keyword_only && !(surface == Surface::kMethod && is_self)) {
      positional_params.push_back(i);
    }
  }
  size_t next = 0;
  if (surface == Surface::kMethod) {
    if (self_index == params.size() || positional.empty()) {
      throw std::logic_error(fmt::format("{} is not a method", op_name));
    }
    slots[self_index] = std::move(positional[0]);
    next = 1;
  }
  // torch's varargs int list: `x.view(2, 3)` when the list is the only positional
  // parameter and the first argument given for it is an int.
  if (positional_params.size() == 1 && IsIntList(params[positional_params[0]].type) &&
      positional.size() > next && positional[next].IsInt()) {
    std::vector<OpValue> ints(positional.begin() + static_cast<std::ptrdiff_t>(next),
                              positional.end());
    positional.resize(next);
    positional.push_back(OpValue::Tuple(std::move(ints)));
  }
  size_t given = positional.size() - next;
  if (given > positional_params.size()) {
    ArgumentError(fmt::format("{}() takes {} positional arguments but {} were given", op_name,
                              positional_params.size(), given));
  }
  for (size_t k = 0; k < given; ++k) slots[positional_params[k]] = std::move(positional[next + k]);
  for (auto& keyword : keywords) {
    const std::string& name = keyword.first;  // clang cannot capture structured bindings
    OpValue& value = keyword.second;
    auto it = std::find_if(params.begin(), params.end(), [&](const Param& p) {
      bool input_alias = surface == Surface::kFunction && p.name == "self" && name == "input";
      return (p.name == name && !(surface == Surface::kFunction && p.name == "self")) ||
             input_alias;
    });
    if (it == params.end()) {
      // A parameter torch has that the op's signature leaves out is not modeled (D13).
      if (TorchAcceptsKeyword(surface == Surface::kMethod, op_name, name)) {
        RefuseNotModeled(fmt::format("{}({}=...) is not modeled", op_name, name));
      }
      ArgumentError(fmt::format("{}() got an unexpected keyword argument '{}'", op_name, name));
    }
    auto& slot = slots[static_cast<size_t>(it - params.begin())];
    if (slot)
      ArgumentError(fmt::format("{}() got multiple values for argument '{}'", op_name, name));
    slot = std::move(value);
  }
  std::vector<OpValue> values;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (!slots[i]) {
      if (!p.default_value) {
        ArgumentError(
            fmt::format("{}() missing 1 required positional arguments: \"{}\"", op_name, p.name));
      }
      slots[i] = p.default_value;
    }
    if (!Accepts(p, *slots[i])) {
      ArgumentError(fmt::format("{}(): argument '{}' must be {}, not {}", op_name, p.name,
                                ExpectedText(p.type), PythonTypeName(*slots[i])));
    }
    values.push_back(std::move(*slots[i]));
  }
  return BoundArgs(&signature, std::move(values));
}

const OpValue& BoundArgs::Raw(std::string_view name) const {
  for (size_t i = 0; i < signature_->params.size(); ++i) {
    if (signature_->params[i].name == name) return values_[i];
  }
  throw std::logic_error(fmt::format("no parameter {}", name));
}

const Tensor& BoundArgs::TensorArg(std::string_view name) const { return Raw(name).tensor; }
Scalar BoundArgs::Number(std::string_view name) const { return Raw(name).scalar; }
int64_t BoundArgs::Int(std::string_view name) const { return Raw(name).scalar.i; }
bool BoundArgs::Bool(std::string_view name) const { return Raw(name).scalar.b; }

Shape BoundArgs::Ints(std::string_view name) const {
  const OpValue& v = Raw(name);
  if (v.IsInt()) return {v.scalar.i};
  Shape out;
  for (const OpValue& item : v.items) out.push_back(item.scalar.i);
  return out;
}

std::vector<Tensor> BoundArgs::Tensors(std::string_view name) const {
  std::vector<Tensor> out;
  for (const OpValue& item : Raw(name).items) out.push_back(item.tensor);
  return out;
}

std::optional<DType> BoundArgs::OptDType(std::string_view name) const {
  const OpValue& v = Raw(name);
  if (v.kind == OpValue::Kind::kNone) return std::nullopt;
  return v.dtype;
}

}  // namespace tdc::runtime
