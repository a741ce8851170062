#include "reference/dynamo/skipped_lib_calls.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

struct SkippedLibFunction {
  std::string_view module, qualname, file, skip_reason;
};

constexpr SkippedLibFunction kSkippedLibFunctions[] = {
#define TDC_SKIPPED_LIB_FUNCTION(module, qualname, file, reason) {module, qualname, file, reason},
#include "reference/dynamo/skipped_lib_functions.def"
#undef TDC_SKIPPED_LIB_FUNCTION
};

}  // namespace

std::string ModuleNameOf(const PyFunction& f) {
  const auto* s = DynCast<PyStr>(f.module);
  return s != nullptr ? s->value() : "None";
}

std::optional<BreakText> SkippedLibCallText(const Value& callee) {
  const auto* f = DynCast<PyFunction>(callee);
  // functools.wraps gives a wrapper its function's __module__ and __qualname__, not its code
  // (torch.no_grad()(fn) is inlined, and fn's call breaks: context_wrappers.cc).
  if (f == nullptr || !f->is_native() || f->GetAttr("__wrapped__")) return std::nullopt;
  const std::string module = ModuleNameOf(*f);
  for (const SkippedLibFunction& row : kSkippedLibFunctions) {
    if (row.module == module && row.qualname == f->qualname_text()) {
      return SkippedFunctionText(std::string(row.qualname), std::string(row.file), module,
                                 std::string(row.qualname), std::string(row.skip_reason));
    }
  }
  return std::nullopt;
}

}  // namespace tdc::dynamo
