#include "reference/runtime/modules.h"

#include "reference/runtime/heap.h"

namespace tdc::runtime {
namespace {

constexpr std::string_view kModuleNames[] = {
#define TDC_MODULE(Enum, Name) Name,
#include "reference/runtime/modules.def"
#undef TDC_MODULE
};

}  // namespace

std::string_view ModuleName(ModuleId id) { return kModuleNames[static_cast<size_t>(id)]; }

std::optional<ModuleId> ModuleByName(std::string_view dotted_name) {
  for (size_t i = 0; i < kModuleCount; ++i) {
    if (kModuleNames[i] == dotted_name) return static_cast<ModuleId>(i);
  }
  return std::nullopt;
}

Modules MakeModules(Heap& heap) {
  Modules modules;
  for (size_t i = 0; i < kModuleCount; ++i) {
    std::string_view name = kModuleNames[i];
    Ref<PyModule> module = heap.NewModule(std::string(name));
    // `import a.b` binds b as an attribute of a (the table lists parents first).
    if (size_t dot = name.rfind('.'); dot != std::string_view::npos) {
      std::optional<ModuleId> parent = ModuleByName(name.substr(0, dot));
      modules[*parent]->SetAttr(name.substr(dot + 1), module);
    }
    modules.modules_[i] = std::move(module);
  }
  return modules;
}

}  // namespace tdc::runtime
