// The one contract between the runtime (the modeled torch library, apis_*.cc) and the
// compiler (reference/dynamo): what the library's compiler APIs write and Dynamo reads.
// The runtime owns the state (Process::compiler); the compiler installs itself through
// it for the extent of a compile-mode run (run_compiled.cc) and leaves it empty after.
// The eager run never sets the hooks, so the library behaves as with TORCHDYNAMO_DISABLE=1.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_COMPILER_CONTRACT_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_COMPILER_CONTRACT_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/interp/registries.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

struct OpInfo;

// The attributes torch sets on the callables its compiler APIs return, read back by
// Dynamo and by innermost_fn. Only these constants spell them.
namespace markers {
// torch.compiler.disable's wrapper (eval_frame.DisableContext): the flag, the message its
// graph break shows, recursive or not.
inline constexpr std::string_view kDisable = "_torchdynamo_disable";
inline constexpr std::string_view kDisableMsg = "_torchdynamo_disable_msg";
inline constexpr std::string_view kDisableRecursive = "_torchdynamo_disable_recursive";
// Every _TorchDynamoContext wrapper: what it wraps and its own id (innermost_fn follows
// kOrigCallable while kWrapperId is the wrapper's id).
inline constexpr std::string_view kOrigCallable = "_torchdynamo_orig_callable";
inline constexpr std::string_view kWrapperId = "_torchdynamo_wrapper_id";
// What Dynamo inlines when it traces a call of the wrapper (compile and run-only wrappers).
inline constexpr std::string_view kInline = "_torchdynamo_inline";
inline constexpr std::string_view kIsolateRecompilesId = "_isolate_recompiles_id";
// forbid_in_graph's mark: tracing a call of the callable is an error.
inline constexpr std::string_view kForbidden = "_dynamo_forbidden";
// torch._dynamo.assume_constant_result's mark: a traced call runs it and keeps its result
// as a constant.
inline constexpr std::string_view kMarkedConstant = "_dynamo_marked_constant";
// The reference's own mark (torch keeps it in its dispatcher): True on an op packet or
// overload torch.library.Library defined.
inline constexpr std::string_view kDefinedByLibrary = "_tdc_defined_by";
// ...and the fake kernel torch.library.register_fake gave such an op.
inline constexpr std::string_view kLibraryFake = "_tdc_fake";
}  // namespace markers

// torch.compiler.set_stance's stances (eval_frame._stance.stance), one row each in
// stances.def. A name torch does not know is kept as kUnknown with its text, as torch keeps
// it; compile wrappers treat it as the default stance.
enum class Stance {
#define TDC_STANCE(id, name) id,
#include "reference/runtime/interp/stances.def"
#undef TDC_STANCE
  kUnknown,
};
std::optional<Stance> StanceNamed(std::string_view name);

// The stance as torch stores it (DynamoStance): its kind, the name it was set with, and the
// backend set_stance("default", force_backend=...) forces on every compiled call (null: none).
struct StanceSetting {
  Stance stance = Stance::kDefault;
  std::string name = "default";
  Value force_backend = {};
};

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
  // Whether the op calls made now become graph nodes (a frame is traced, or an allowed
  // function's body is recorded for the ATen level): what the reference does not model
  // there is refused, while the same call run eagerly is not.
  virtual bool RecordsOps() const = 0;
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
  // Made for set_stance's force_backend: its backend is the one named (lookup_backend's),
  // where torch.compile's is a _TorchCompileWrapper around it, which no forced one equals.
  bool forced_backend = false;
};

// torch._dynamo.utils.counters, a defaultdict(Counter): category -> key -> count, each in
// first-count order. Dynamo counts into it (reference/dynamo), the program reads and clears
// it (apis_counters.cc), and a compile-mode run's golden counters.graph_break is its
// "graph_break" category at the end of the run. A category is shared: a view the program
// holds stays attached to it until counters.clear() drops it (torch's Counter objects).
struct DynamoCounters {
  using Counter = std::vector<std::pair<std::string, int64_t>>;
  std::vector<std::pair<std::string, std::shared_ptr<Counter>>> categories;

  // counters[category][key] += n.
  void Add(std::string_view category, std::string_view key, int64_t n = 1);
  // counters[category], made empty when absent (as the defaultdict's read does).
  const std::shared_ptr<Counter>& Category(std::string_view category);
  // The category's counts (empty when absent), read without making it.
  Counter Counts(std::string_view category) const;
  // Dynamo counted into `category` where the reference does not know torch's count: a read of
  // that Counter object is refused with `why` (cleared counters begin a new, exact one).
  void MarkNotExact(std::string_view category, std::string why);
  // Why `counter` is not exact; nullopt when it is.
  std::optional<std::string> WhyNotExact(const Counter& counter) const;

 private:
  std::vector<std::pair<std::shared_ptr<Counter>, std::string>> not_exact_;
};

// The compiler's state in one process, as torch keeps it in module globals and C state.
struct CompilerState {
  // Dynamo's allowed / disallowed / nonstrict_trace callable ids (registries.h).
  DynamoRegistries registries;
  // torch._dynamo.error_on_graph_break's flag (the C-level one its context manager sets):
  // a graph break traced while it is true is an error (spec §2.17).
  bool error_on_graph_break = false;
  // torch._dynamo.utils.counters.
  DynamoCounters counters;
  // torch.compiler.set_stance's current stance, read by compile wrappers when called.
  StanceSetting stance;
  std::shared_ptr<const CompileCallback> eval_frame_callback;  // null: frames run normally

  // Set by the compile mode only (reference/dynamo); the eager run leaves them empty.
  OpObserver* op_observer = nullptr;
  // What torch.compile(model, ...) returns when Dynamo is on; null: the model itself
  // (TORCHDYNAMO_DISABLE=1, the eager run).
  std::function<Value(const Value& model, CompileCallback callback)> make_compile_wrapper;
  // Called by torch._dynamo.reset() (Dynamo's caches live in the dynamo layer).
  std::vector<std::function<void()>> reset_listeners;
  // torch._dynamo.eval_frame.set_code_exec_strategy on the code of `def`: its frames run
  // without being converted, the frames they call offered (skip), or as any code's (the
  // strategy torch also sets when a break skips a frame). Null in the eager run.
  std::function<void(const lang::Node& def, bool skip)> set_code_skipped;
};

// The eval-frame callback set to `callback` for a scope, the previous one restored after
// (DisableContext's None, RunOnlyContext's run-only callback, a custom op's implementation,
// a compile wrapper's call).
class EvalFrameCallbackScope {
 public:
  EvalFrameCallbackScope(CompilerState& c, std::shared_ptr<const CompileCallback> callback)
      : c_(c), saved_(std::exchange(c.eval_frame_callback, std::move(callback))) {}
  ~EvalFrameCallbackScope() { c_.eval_frame_callback = std::move(saved_); }
  EvalFrameCallbackScope(const EvalFrameCallbackScope&) = delete;
  EvalFrameCallbackScope& operator=(const EvalFrameCallbackScope&) = delete;

 private:
  CompilerState& c_;
  std::shared_ptr<const CompileCallback> saved_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_COMPILER_CONTRACT_H_
