#include "reference/runtime/torch_names.h"

#include <span>
#include <string>
#include <unordered_set>

namespace tdc::runtime {
namespace {

// The table's rows as constant data: building the sets from an initializer list of
// std::string made this one file take 96 s of a CI build (one constructor call per row);
// plain arrays of pointers compile in a second and the sets are built once, in a loop.
struct Pair {
  const char* owner;
  const char* name;
};
struct Triple {
  const char* surface;
  const char* name;
  const char* keyword;
};

constexpr Pair kModuleNames[] = {
#define TDC_MODULE_NAME(module, name) {module, name},
#define TDC_TYPE_NAME(type, name)
#define TDC_KEYWORD(surface, name, keyword)
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
};

constexpr Pair kTypeNames[] = {
#define TDC_MODULE_NAME(module, name)
#define TDC_TYPE_NAME(type, name) {type, name},
#define TDC_KEYWORD(surface, name, keyword)
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
};

constexpr Triple kKeywords[] = {
#define TDC_MODULE_NAME(module, name)
#define TDC_TYPE_NAME(type, name)
#define TDC_KEYWORD(surface, name, keyword) {surface, name, keyword},
#include "reference/runtime/torch_names.def"
#undef TDC_KEYWORD
#undef TDC_TYPE_NAME
#undef TDC_MODULE_NAME
};

// "owner\0name": one set for modules, one for types (a module and a type may share a name).
std::string Key(std::string_view owner, std::string_view name) {
  std::string key(owner);
  key.push_back('\0');
  key.append(name);
  return key;
}

using NameSet = std::unordered_set<std::string>;

// The set of `key(row)` over `rows`, built once.
template <typename Row, typename KeyOf>
const NameSet* SetOf(std::span<const Row> rows, KeyOf key) {
  auto* set = new NameSet;
  set->reserve(rows.size());
  for (const Row& row : rows) set->insert(key(row));
  return set;
}

std::string PairKey(const Pair& row) { return Key(row.owner, row.name); }

const NameSet& ModuleNames() {
  static const NameSet* names = SetOf<Pair>(kModuleNames, PairKey);
  return *names;
}

const NameSet& TypeNames() {
  static const NameSet* names = SetOf<Pair>(kTypeNames, PairKey);
  return *names;
}

// "surface\0name\0keyword".
const NameSet& Keywords() {
  static const NameSet* names = SetOf<Triple>(
      kKeywords, [](const Triple& row) { return Key(Key(row.surface, row.name), row.keyword); });
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
