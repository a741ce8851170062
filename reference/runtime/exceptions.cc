#include "reference/runtime/exceptions.h"

#include <stdexcept>

#include "reference/runtime/heap.h"
#include "reference/runtime/tensor.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {
namespace {

struct ExcInfo {
  std::string_view name;
  ExcType base;
  std::string_view module;
};

constexpr std::string_view kBuiltins = "builtins";
constexpr std::string_view kDynamoExc = "torch._dynamo.exc";

constexpr ExcInfo kExcInfo[] = {
#define TDC_EXCEPTION(Enum, Name, Base, Module) {Name, ExcType::Base, Module},
#include "reference/runtime/exceptions.def"
#undef TDC_EXCEPTION
};

const ExcInfo& Info(ExcType type) { return kExcInfo[static_cast<size_t>(type)]; }

}  // namespace

std::string_view ExcTypeName(ExcType type) { return Info(type).name; }
std::string_view ExcTypeModule(ExcType type) { return Info(type).module; }
ExcType ExcBase(ExcType type) { return Info(type).base; }

std::string ExcQualifiedName(ExcType type) {
  // Python's traceback omits the module only for builtins.
  const ExcInfo& info = Info(type);
  if (info.module == "builtins") return std::string(info.name);
  return std::string(info.module) + "." + std::string(info.name);
}

bool IsSubclass(ExcType type, ExcType base) {
  // Walk up the single-inheritance chain; BaseException is its own base and ends it.
  for (ExcType t = type;; t = ExcBase(t)) {
    if (t == base) return true;
    if (t == ExcType::kBaseException) return false;
  }
}

std::optional<ExcType> ExcTypeByName(std::string_view name) {
  for (size_t i = 0; i < std::size(kExcInfo); ++i) {
    auto type = static_cast<ExcType>(i);
    if (kExcInfo[i].name == name || ExcQualifiedName(type) == name) return type;
  }
  return std::nullopt;
}

PyError::PyError(Value exception) : exception_(std::move(exception)) {
  const auto* exc = DynCast<PyException>(exception_);
  if (exc == nullptr) throw std::logic_error("PyError needs an exception object");
  std::string message = Str(exception_);
  what_ = ExcQualifiedName(exc->type());
  if (!message.empty()) what_ += ": " + message;
}

ExcType PyError::type() const { return DynCast<PyException>(exception_)->type(); }

PyError ToPyError(Heap& heap, const TorchError& error) {
  std::optional<ExcType> type = ExcTypeByName(error.type());
  if (!type) throw std::logic_error("TorchError of unknown type " + error.type());
  return PyError(heap.NewException(*type, error.what()));
}

void Raise(Heap& heap, ExcType type, std::string_view message) {
  throw PyError(heap.NewException(type, message));
}

}  // namespace tdc::runtime
