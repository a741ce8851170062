// The module objects of one modeled process (what `import torch` finds in sys.modules).
// MakeModules builds the tree of modules.def with empty namespaces; filling them is later
// work: the op table fills torch's tensor functions, the eager interpreter fills the
// APIs (torch.compile, torch.compiler.disable, torch._dynamo.allow_in_graph, ...), and
// exceptions.def's torch classes go into torch._dynamo.exc once classes are values.
#ifndef TDCONFORM_REFERENCE_RUNTIME_MODULES_H_
#define TDCONFORM_REFERENCE_RUNTIME_MODULES_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "reference/runtime/values.h"

namespace tdc::runtime {

class Heap;

enum class ModuleId {
#define TDC_MODULE(Enum, Name) Enum,
#include "reference/runtime/modules.def"
#undef TDC_MODULE
};

inline constexpr size_t kModuleCount = 0
#define TDC_MODULE(Enum, Name) +1
#include "reference/runtime/modules.def"
#undef TDC_MODULE
    ;

// The dotted name ("torch._dynamo").
std::string_view ModuleName(ModuleId id);
std::optional<ModuleId> ModuleByName(std::string_view dotted_name);

// sys.modules for the modules of the table. Modules are shared objects (they live as
// long as the process); this holds references, so it must go before its Heap.
class Modules {
 public:
  const Ref<PyModule>& operator[](ModuleId id) const { return modules_[static_cast<size_t>(id)]; }

 private:
  friend Modules MakeModules(Heap& heap);
  std::array<Ref<PyModule>, kModuleCount> modules_;
};

// Makes every module of the table, each bound as an attribute of its parent.
Modules MakeModules(Heap& heap);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_MODULES_H_
