// One modeled Python process running one fixture program (DESIGN D4): its heap, its
// modules, its builtins and the parsed program. Everything a run observes (ids, module
// state, registries) lives here, so two Processes never interact.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/heap.h"
#include "reference/runtime/interp/builtin_types.h"
#include "reference/runtime/interp/registries.h"
#include "reference/runtime/modules.h"

namespace tdc::runtime {

struct OpInfo;

// How a tensor op was called, as an FX node names it: a call_method `add`, or a
// call_function `torch.add` / `operator.add` / `torch.nn.functional.gelu`.
struct OpCallSite {
  bool method = false;
  std::string_view target;
  // An accessor of a result (operator.getitem of a tuple, builtins.getattr): its node
  // stays out of the graph unless something uses it.
  bool accessor = false;
  // The ops.def row the call reached, when one did (not for accessors).
  const OpInfo* op = nullptr;
  // A custom op: opaque, the same node at the ATen level.
  bool opaque = false;
};

// Dynamo's view of the tensor ops a traced frame runs (reference/dynamo implements it):
// told of every op call made through a Python surface (functions, methods, operators),
// with the arguments as the program passed them.
class OpObserver {
 public:
  virtual ~OpObserver() = default;
  virtual void OnTensorOp(const OpCallSite& site, const CallArgs& as_called,
                          const Value& result) = 0;
};

// The callback torch's eval-frame hook holds (torch/_dynamo/eval_frame.py): a compile
// wrapper sets its own for the extent of its call, a recursive disable wrapper clears it.
struct CompileCallback {
  Value backend;
  bool fullgraph = false;
  // torch's callback False (torch._dynamo.run, the eager_on_recompile stance): frames run
  // their cached code, or run normally; nothing new is compiled.
  bool run_only = false;
  // The fail_on_recompile stance: a frame that would compile again raises.
  bool fail_on_recompile = false;
};

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
  // torch._dynamo.error_on_graph_break's flag (the C-level one its context manager sets):
  // a graph break traced while it is true is an error (spec §2.17).
  bool error_on_graph_break = false;
  // Dynamo's allowed / disallowed / nonstrict_trace callable ids (registries.h).
  DynamoRegistries registries;

  // Set by the compile mode only (reference/dynamo); the eager run leaves them empty.
  OpObserver* op_observer = nullptr;
  std::shared_ptr<const CompileCallback> eval_frame_callback;  // null: frames run normally
  // torch.compiler.set_stance's current stance (eval_frame._stance.stance).
  std::string stance = "default";
  // What torch.compile(model, ...) returns when Dynamo is on; null: the model itself
  // (TORCHDYNAMO_DISABLE=1, the eager run).
  std::function<Value(const Value& model, CompileCallback callback)> make_compile_wrapper;
  // Called by torch._dynamo.reset() (Dynamo's caches live in the dynamo layer).
  std::vector<std::function<void()>> reset_listeners;

 private:
  // Declared first so that it is destroyed last: every Ref below must go before it.
  Heap heap_;
  BuiltinTypes types_;
  Modules modules_;
  Ref<PyModule> builtins_;
};

// The eval-frame callback set to `callback` for a scope, the previous one restored after
// (DisableContext's None, RunOnlyContext's run-only callback, a custom op's implementation).
class EvalFrameCallbackScope {
 public:
  EvalFrameCallbackScope(Process& p, std::shared_ptr<const CompileCallback> callback)
      : p_(p), saved_(std::exchange(p.eval_frame_callback, std::move(callback))) {}
  ~EvalFrameCallbackScope() { p_.eval_frame_callback = std::move(saved_); }
  EvalFrameCallbackScope(const EvalFrameCallbackScope&) = delete;
  EvalFrameCallbackScope& operator=(const EvalFrameCallbackScope&) = delete;

 private:
  Process& p_;
  std::shared_ptr<const CompileCallback> saved_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PROCESS_H_
