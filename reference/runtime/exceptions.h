// Python exception classes (the closed table exceptions.def) and PyError, the C++
// exception that carries a raised Python exception object through the interpreter
// (DESIGN D10: the modeled program's exceptions carry PyTorch's own message text).
#ifndef TDCONFORM_REFERENCE_RUNTIME_EXCEPTIONS_H_
#define TDCONFORM_REFERENCE_RUNTIME_EXCEPTIONS_H_

#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "reference/runtime/object.h"

namespace tdc::runtime {

class TorchError;
class PyException;

enum class ExcType {
#define TDC_EXCEPTION(Enum, Name, Base, Module) Enum,
#include "reference/runtime/exceptions.def"
#undef TDC_EXCEPTION
};

inline constexpr size_t kExcTypeCount = 0
#define TDC_EXCEPTION(Enum, Name, Base, Module) +1
#include "reference/runtime/exceptions.def"
#undef TDC_EXCEPTION
    ;

// The class's __name__ ("Unsupported").
std::string_view ExcTypeName(ExcType type);
// The module Python shows ("builtins", "torch._dynamo.exc").
std::string_view ExcTypeModule(ExcType type);
// The name a traceback's last line shows: "RuntimeError",
// "torch._dynamo.exc.Unsupported".
std::string ExcQualifiedName(ExcType type);
// The direct base; BaseException is its own.
ExcType ExcBase(ExcType type);
// issubclass(type, base): true when base is on type's MRO (single inheritance).
bool IsSubclass(ExcType type, ExcType base);
// By __name__ or qualified name; nullopt for a class not in the table.
std::optional<ExcType> ExcTypeByName(std::string_view name);

// A raised Python exception. Holds a strong reference to the exception object, so a
// PyError must not outlive the Heap (object.h's lifetime contract).
class PyError : public std::exception {
 public:
  // `exception` must be a PyException.
  explicit PyError(Value exception);

  const Value& exception() const { return exception_; }
  ExcType type() const;
  // "Type: message" (traceback's last line, qualified name; the message is str(exc)).
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  Value exception_;
  std::string what_;
};

// The PyError of the same class and message as a tensor operation's TorchError; a type
// name outside the table is an internal error (std::logic_error).
PyError ToPyError(Heap& heap, const TorchError& error);

// Raises `type(message)`.
[[noreturn]] void Raise(Heap& heap, ExcType type, std::string_view message);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_EXCEPTIONS_H_
