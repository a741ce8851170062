// One modeled Python process running one fixture program (DESIGN D4): its heap, its
// modules, its builtins and the parsed program. Everything a run observes (ids, module
// state, registries) lives here, so two Processes never interact.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/runtime/heap.h"
#include "reference/runtime/interp/builtin_types.h"
#include "reference/runtime/interp/compiler_contract.h"
#include "reference/runtime/modules.h"

namespace tdc::runtime {

class Process {
 public:
  Process();
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  Heap& heap() { return heap_; }
  const Modules& modules() const { return modules_; }
  const Ref<PyModule>& builtins() const { return builtins_; }
  const BuiltinTypes& types() const { return types_; }

  // torch's thread-local grad mode (torch.is_grad_enabled(); no_grad/enable_grad set it).
  bool grad_enabled = true;
  // The compiler APIs' state and Dynamo's hooks into the runtime (compiler_contract.h).
  CompilerState compiler;
  // os.environ's variables the program set (a value) or deleted (nullopt); the others are
  // the machine's (os_environ.cc).
  std::map<std::string, std::optional<std::string>, std::less<>> environ_changes;
  // The code objects the program read (fn.__code__), one per def (code_objects.cc).
  struct CodeObject {
    const lang::Node* def;
    std::shared_ptr<const void> keep_alive;  // the def's program
    Ref<PyInstance> object;
  };
  std::vector<CodeObject>& code_objects() { return code_objects_; }

 private:
  // Declared first so that it is destroyed last: every Ref below must go before it.
  Heap heap_;
  BuiltinTypes types_;
  Modules modules_;
  Ref<PyModule> builtins_;
  std::vector<CodeObject> code_objects_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_
