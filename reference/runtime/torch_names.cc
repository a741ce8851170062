#include "reference/runtime/torch_names.h"

#include <string>
#include <unordered_set>

namespace tdc::runtime {
namespace {

// "owner\0name": one set for modules, one for types (a module and a type may share a name).
std::string Key(std::string_view owner, std::string_view name) {
  std::string key(owner);
  key.push_back('\0');
  key.append(name);
  return key;
}

const std::unordered_set<std::string>& ModuleNames() {
  static const auto* names = new std::unordered_set<std::string>{
#define TDC_MODULE_NAME(module, name) Key(module, name),
#define TDC_TYPE_NAME(type, name)
#define TDC_KEYWORD(surface, name, keyword)
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
  };
  return *names;
}

const std::unordered_set<std::string>& TypeNames() {
  static const auto* names = new std::unordered_set<std::string>{
#define TDC_MODULE_NAME(module, name)
#define TDC_TYPE_NAME(type, name) Key(type, name),
#define TDC_KEYWORD(surface, name, keyword)
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
  };
  return *names;
}

// "surface\0name\0keyword".
const std::unordered_set<std::string>& Keywords() {
  static const auto* names = new std::unordered_set<std::string>{
#define TDC_MODULE_NAME(module, name)
#define TDC_TYPE_NAME(type, name)
#define TDC_KEYWORD(surface, name, keyword) Key(Key(surface, name), keyword),
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
  };
  return *names;
}

}  // namespace

bool TorchModuleHas(std::string_view module, std::string_view name) {
  return ModuleNames().contains(Key(module, name));
}

bool PythonTypeHas(std::string_view type, std::string_view name) {
  return TypeNames().contains(Key(type, name));
}

bool PythonTypeListed(std::string_view type) { return PythonTypeHas(type, "__class__"); }

bool PythonMayHave(std::string_view type, std::string_view name) {
  return PythonTypeHas(type, name) || !PythonTypeListed(type);
}

bool TorchAcceptsKeyword(bool method, std::string_view name, std::string_view keyword) {
  return Keywords().contains(Key(Key(method ? "method" : "function", name), keyword));
}

}  // namespace tdc::runtime
