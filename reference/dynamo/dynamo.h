// Dynamo as the reference models it (SEMANTICS §8): the runtime's FrameHook and OpObserver.
// A compiled frame is traced by running it: its tensor ops become graph nodes as they
// run, a call Dynamo cannot trace ends the graph there (the backend gets it), the call
// runs eagerly with its own frames offered to Dynamo, and the rest of the frame goes on
// as a resume function with a graph of its own. A break inside an inlined callee ends
// the graph at the root frame's call site instead (classic profile, R-classic-reattribute);
// with config.nested_graph_breaks (profile torch-2.13-ngb) it ends it where it is, and one
// resume function goes on in every frame (nested_breaks.cc, R-nested-graph-break).
//
// The contract is the public part of class Dynamo and the three functions before it; a
// compile-mode run (run_compiled.h) is the way to use it. Everything after `private:` is
// the model's machinery, grouped by the file that defines it.
#ifndef TDCONFORM_REFERENCE_DYNAMO_DYNAMO_H_
#define TDCONFORM_REFERENCE_DYNAMO_DYNAMO_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

#include "reference/dynamo/code_cache.h"
#include "reference/dynamo/code_layout.h"
#include "reference/dynamo/graph_builder.h"
#include "reference/dynamo/guards.h"
#include "reference/dynamo/messages.h"
#include "reference/dynamo/resumability.h"
#include "reference/dynamo/rules.h"
#include "reference/dynamo/trace.h"
#include "reference/graph/golden.h"
#include "reference/runtime/graph_backend.h"
#include "reference/runtime/interp/interpreter.h"

namespace tdc::dynamo {

using runtime::Frame;
using runtime::Ref;

// What a run under Dynamo recorded, in the golden schema's terms.
struct Records {
  std::vector<graph::Invocation> invocations;
  std::vector<graph::GraphBreak> graph_breaks;
  // `tdref explain`: what Dynamo decided and why, one line per decision, indented by
  // how many compiled frames enclose it; the first kMaxExplanationLines only (a compiled
  // function called in a loop decides again on every call), those past it counted.
  std::vector<std::string> explanation;
  int64_t explanation_omitted = 0;
};

inline constexpr size_t kMaxExplanationLines = 10'000;

// A callable as Dynamo's messages show it, its address normalized (`<function f at 0x?>`).
std::string FunctionReprOf(const Value& v);
// The Dynamo node target of a custom op `v` (its CustomOpDef or default overload:
// `<ns>.<op>.default`; torch.ops.<ns>.<op>: `<ns>.<op>`); nullopt for anything else, aten's
// ops included.
std::optional<std::string> CustomOpTarget(const Value& v);
// The str attribute `attr` of a library instance (a torch._ops packet's __qualname__); ""
// when it has none.
std::string InstanceText(const Value& v, const char* attr);

// Whether `v` is the runtime's torch._dynamo.patch_dynamo_config (patch_dynamo_config_call.cc).
bool IsPatchDynamoConfig(const runtime::Value& v);
// Whether `f.stack[index]` is the __exit__ of a class statement's context manager that a with
// statement of `f` keeps there (generic_contexts.cc).
bool IsGenericContextExit(const runtime::Frame& f, size_t index);

class Dynamo final : public runtime::FrameHook, public runtime::OpObserver {
 public:
  // `recorder` is the oracle's RecordingBackend instance: a graph handed to it is an
  // invocation (other backends compile without being recorded). `aten`, when given,
  // lowers the traced ops: invocations then carry ATen graphs. `backend`, when given,
  // compiles and runs each invocation's graphs too (RunOnBackend).
  Dynamo(runtime::Interpreter& in, const RuleSet& rules, Value recorder,
         AtenLowering* aten = nullptr, runtime::GraphBackend* backend = nullptr);
  ~Dynamo() override;

  const Records& records() const { return records_; }

  // torch.compile(model, ...) when Dynamo is on (compile_wrapper.cc): a wrapper that
  // installs `callback` for the extent of each call of it.
  Value MakeCompileWrapper(const Value& model, runtime::CompileCallback callback);

  // The interpreter's hooks (runtime::FrameHook, runtime::OpObserver).
  std::optional<Value> OnCall(const Value& callee, CallArgs& args) override;
  void OnReturn(const Frame& frame, const Value& result) override;
  void OnLoadLocal(const Frame& frame, const std::string& name) override;
  void OnStoreTensor(const Frame& frame, const std::string& name, const Value& value,
                     bool own_variable) override;  // data_dependent.cc
  void OnLoadCell(const Frame& frame, const std::string& name,
                  const runtime::PyCell& cell) override;
  void OnUse(const Value& v) override;
  void OnItemRead(const Value& container, const Value& key) override;
  // Refuses a class statement's value the trace cannot use yet; marks a traced class.
  void CheckClassValueUse(Trace& t, const Value& v);
  void OnStoreAttribute(const Value& object) override;
  void OnClassAttributeRead(const Value& instance, std::string_view name) override;
  void OnMissingAttribute(const Value& object, std::string_view name) override;
  void OnTensorViewProperty(const Value& tensor, std::string_view name) override;
  void OnDunderRead(const Value& object, std::string_view name) override;  // dunder_reads.cc
  void OnFunctionAttributeRead(const runtime::PyFunction& function,
                               std::string_view name) override;  // dunder_reads.cc
  void OnMutate(const Value& object) override;
  void OnNewInstance(const Value& instance) override;
  void OnNewContextWrapper(const Value& wrapper) override;
  void OnStatement(const Frame& frame, const lang::Stmt& stmt) override;
  void OnRaise(const Value& exception) override;
  void OnErrorLeavingFrame(const Frame& frame, const runtime::PyError& error) override;
  void OnBindFailure(const runtime::PyFunction& function,
                     const runtime::PyError& error) override;  // observed_exception.cc
  // The trace's frame ends with `error`: under fullgraph, one raised by traced code that no
  // traced frame handled is Unsupported "Observed exception" (observed_exception.cc).
  void RaiseIfObservedUnhandled(const runtime::PyError& error);
  // Without fullgraph, one that reached it unhandled: logged, the code skipped; whether its
  // call runs again eagerly (a root frame's, not a resume function's).
  bool SkipOnObservedException(const runtime::PyError& error, const Value& function);
  void OnGradModeSet(bool enabled) override;
  void OnTensorData(const Value& tensor, runtime::TensorDataRead read,
                    const lang::Expr* test) override;
  // A context manager Dynamo cannot enter: a graph break or refused (context_entry.cc).
  void OnEnterContext(const Frame& frame, const Value& manager) override;
  // A class statement's context manager: inlined when the traced code made it, else as
  // one from outside (context_entry.cc).
  void EnterUserContext(const Trace& t, const Value& manager);
  // gb0142 "Unsupported context manager" at a with statement (a kStepBack break).
  void BreakAtUnsupportedContext(const Trace& t, const std::string& type);
  // Refuses a call of a class statement's __exit__ with an exception (context_entry.cc).
  void CheckUserContextExit(const Value& callee, const CallArgs& args) const;
  void OnLoadGlobal(const runtime::PyDict& globals, const std::string& name,
                    const Value& value) override;
  void OnTensorOp(const runtime::OpCallSite& site, const CallArgs& as_called,
                  const Value& result) override;
  bool RecordsOps() const override { return Tracing() != nullptr || body_recorder_ != nullptr; }

 private:
  // Where each part lives:
  //   eval_frame.cc        which frames are converted, traces begin, the hooks' bookkeeping
  //   code_cache.{h,cc}    cache entries, guards checked, compile ids (CodeCache)
  //   tracer_calls.cc      a traced frame's calls: inlined, allowed, disabled, breaking
  //   breaking_calls.cc    which calls break the graph, with torch's text (BreakTextOf)
  //   opaque_calls.cc      nonstrict_trace and custom-op calls (one opaque node)
  //   graph_break.cc       a break reached: its ending decided, logged
  //   emit_graph.cc        a graph emitted where its frame ends (Emit)
  //   side_effects.cc      stores of computed tensors torch would replay: refused (D13)
  //   frame_endings.cc     acting on a break's ending (EndFrame), checkpoints, step graph
  //                        breaks, skipping the root frame
  //   nested_breaks.cc     nested graph breaks: unwinding, re-rooting, eager resumes
  //   resume_functions.cc  the resume functions a break starts
  //   data_dependent.cc    a traced tensor's data read: a branch on it breaks the graph
  //   context_entry.cc     a with statement entering a grad-mode context or nullcontext
  //   scalar_reads.cc      bool(t), int(t), float(t), t.item(): a break at the call
  //   assert_async.cc      `assert t`: a torch._assert_async node
  //   bound_from.cc        where an inlined frame's locals came from (Trace::bound_from)
  //   run_on_backend.cc    an invocation's graphs compiled and run by a GraphBackend
  //   compile_wrapper.cc   torch.compile's wrapper and the stances it reads
  //   context_wrappers.cc  calls of context managers' function wrappers (torch.no_grad()(f))

  // ---- Signals that unwind the interpreter to the frame that ends a graph. They are C++
  // exceptions because the interpreter's recursion has no other way out of a call.
  // A break inside an inlined callee that the frame at `depth` ends the graph at, at its
  // call: unwinds to that call (the root frame's in the classic profile).
  struct Restart {
    size_t depth;
    bool step = false;  // that frame steps back to its checkpoint instead
  };
  // A break at a context manager's function wrapper's call of its function: torch ends the
  // graph at the call of the wrapper, its frame (context_wrappers.cc).
  struct WrapperBreak {
    bool step = false;  // stepping back to the checkpoint instead
  };
  // A frame-skipping break in the trace of contexts_[slot] (its root frame or a resume
  // function): the call that began it runs again, now meeting the skipped code's mark.
  struct RerunFrame {
    size_t slot;
  };
  // An error Dynamo raises while tracing (Unsupported under fullgraph, a forbidden
  // callable): it comes out of the compiled call, so no try block of the traced code
  // catches it (golden error_on_graph_break/break_in_try_under_fullgraph).
  struct TraceError {
    runtime::PyError error;
  };

  // Code run eagerly inside a traced frame for its extent (a break's callee, an allowed
  // function's body): no op recorded; with `no_callback`, no frame offered either
  // (tracer_calls.cc).
  class EagerRegion {
   public:
    EagerRegion(Dynamo& d, bool no_callback);
    ~EagerRegion();
    EagerRegion(const EagerRegion&) = delete;
    EagerRegion& operator=(const EagerRegion&) = delete;

   private:
    Dynamo& d_;
    bool no_callback_;
    std::shared_ptr<const runtime::CompileCallback> saved_;
  };
  // Frames `first`..`last` folded into compiled code for the scope (nested_breaks.cc).
  class FoldFrames {
   public:
    FoldFrames(Dynamo& d, size_t first, size_t last) : d_(d) {
      d_.folded_frames_.emplace_back(first, last);
    }
    ~FoldFrames() { d_.folded_frames_.pop_back(); }
    FoldFrames(const FoldFrames&) = delete;
    FoldFrames& operator=(const FoldFrames&) = delete;

   private:
    Dynamo& d_;
  };

  // ---- compile_wrapper.cc
  // The callback of a compiled call under set_stance("default", force_backend=`forced`): a
  // convert_frame of that backend, never fullgraph (eval_frame._callback_from_stance); refused
  // for a backend the reference does not model.
  std::shared_ptr<const runtime::CompileCallback> ForcedCallback(
      const runtime::CompileCallback& own, const Value& forced);

  // ---- eval_frame.cc
  std::optional<Value> RunFrame(const Ref<runtime::PyFunction>& function, CallArgs& args,
                                bool run_only = false);
  // A frame's values with their sources (L['x']), in argument order.
  using Sources = std::vector<std::pair<Value, std::string>>;
  // Records where `v`'s closure cells came from, when it is a function read from `source`.
  static void NameClosureCells(Trace& t, const Value& v, const std::string& source);
  // `callback`: the compile callback converting it; `backend`: the one its cache entry must
  // have been compiled for (BackendToMatch; null: any).
  std::unique_ptr<Trace> NewTrace(const CodeKey& key, const Sources& sources, std::string code_name,
                                  bool resume,
                                  std::shared_ptr<const runtime::CompileCallback> callback,
                                  const BackendKey& backend);
  // The fail_on_recompile stance met a frame that would compile again: RuntimeError with
  // each cache entry's failing guard (spec §2.14, S29).
  [[noreturn]] void FailOnRecompile(const runtime::PyFunction& function, const CodeKey& key,
                                    const std::vector<Value>& values);
  // A frame whose code's cache is full would compile again (convert_frame.py): torch raises
  // FailOnRecompileLimitHit under config.fail_on_recompile_limit_hit or fullgraph, the
  // recompile-limit Unsupported under error_on_graph_break; otherwise this returns and the
  // frame runs without the callback.
  void RecompileLimitHit(const runtime::CompileCallback& callback, CodeCache::Limit limit);
  // An error out of a frame's conversion under callback `callback`: refused where torch's
  // config.suppress_errors would suppress it (ConvertFrame.__call__ runs the frame eagerly
  // instead of raising), which the reference does not model.
  void RefuseIfSuppressed(const runtime::CompileCallback& callback, const runtime::PyError& error);
  // ConvertFrame.__call__'s counters["frames"]["total"] += 1 for a frame the callback is
  // handed (probed on torch 2.13.0): not one whose cached code runs, nor under fullgraph
  // (its callback is convert_frame_assert, without ConvertFrame), nor again a code once
  // converted without a tensor (torch skips that code from then on).
  // A call of a function with *args or **kwargs whose values have other sources than a
  // cached entry's, as many: refused (eval_frame.cc).
  void RefuseOtherCallForm(const CodeKey& key, const lang::Node& def, const Sources& sources);
  void CountConvertedFrame(const CodeKey& key, const std::vector<Value>& values,
                           const BackendKey& backend, const runtime::CompileCallback& callback);
  bool HasTensorInFrame(const lang::Node& def, const Value& globals,
                        const std::vector<Value>& values) const;
  void Reset();
  Trace* Tracing() const;
  void Explain(std::string text);
  // The ATen fragment of one traced op (an unsupported one without a lowering).
  Fragment LowerOp(const runtime::OpCallSite& site, const CallArgs& as_called, const Value& result);
  // Where a frame's code is (`f (file.py:12)`).
  static std::string Where(const runtime::PyFunction& function);

  // ---- tracer_calls.cc
  // Marks a call's arguments used (OnUse): any call but an inlined one realizes them.
  void UseArguments(const CallArgs& args);
  // error_on_graph_break(...) traced: anything but one bool is Dynamo's RuntimeError,
  // wrapped as InternalTorchDynamoError.
  void CheckErrorOnGraphBreakCall(const CallArgs& args);
  // patch_dynamo_config(...) traced (patch_dynamo_config_call.cc): the error of a patch it
  // rejects, as Dynamo lets it out.
  runtime::Value TracePatchDynamoConfigCall(const runtime::Value& callee, runtime::CallArgs& args);
  // The code a skip_frame() call would skip: co_name and co_firstlineno of the calling frame.
  std::pair<std::string, int64_t> SkippedFrame() const;
  // co_name and co_firstlineno of the code the frame at `depth` runs (a resume function's
  // for the trace's root or a frame a nested resume function resumed).
  std::pair<std::string, int64_t> CodeOfFrame(size_t depth) const;
  // co_firstlineno of the code `t` traces (a resume function's: its break's line).
  int64_t FirstLineOf(const Trace& t) const;
  std::optional<Value> TraceCall(const Value& callee, CallArgs& args);
  Value InlineCall(const Value& callee, const Value& function, CallArgs& args,
                   bool through_compile_wrapper);
  Value AllowedCall(const Value& callee, CallArgs& args);
  // A call of a context manager's function wrapper, made inside the Python frame torch has
  // for it (context_wrappers.cc).
  Value ContextWrapperCall(const Value& callee, CallArgs& args);
  // The ATen fragment of an allowed or nonstrict_trace function's node: its body run again
  // as AOT autograd traces it, the tensors it reads but is not given handled as `foreign`.
  Fragment AotTrace(const Value& callee, const CallArgs& args, ForeignTensor foreign);
  // max / min of two tensors: one torch.maximum / torch.minimum node (R-builtin-rewrites).
  Value TensorExtreme(const Value& callee, CallArgs& args, const char* target);
  std::optional<BreakText> BreakTextOf(const Value& callee, const CallArgs& args);
  // torch.compiler.disable's wrappers: recursive (DisableContext's `_fn`) or not.
  enum class DisableWrapper { kNone, kRecursive, kNonrecursive };
  DisableWrapper DisableWrapperOf(const Value& callee);
  // Whether `callee` has `attribute` set to a true value (torch's markers on callables).
  bool Flag(const Value& callee, std::string_view attribute);

  // ---- cond_calls.cc
  enum class CondEntry { kTorchCond, kOperator };  // torch.cond, torch.ops.higher_order.cond
  // A branch of torch.cond being traced: the trace, the depth of the branch's frame, whether
  // torch.cond's own frame (cond.py) is between, whether it is inlined under nested graph
  // breaks (a constant predicate's), whether it is speculated.
  struct CondBranch {
    uint64_t trace_serial;  // Trace::serial: a freed trace's address may be reused
    size_t depth;
    CondEntry entry;
    bool nested;
    bool speculated;  // a traced predicate's: traced into a subgraph of its own
  };
  std::optional<CondEntry> CondEntryOf(const Value& callee) const;
  // torch.cond in traced code: a constant predicate's branch inlined, a break in a branch
  // UncapturedHigherOrderOpError; the rest refused.
  std::optional<Value> CondCall(const Value& callee, CallArgs& args);
  // The innermost frame is (in) a branch of torch.cond this trace is tracing.
  bool InCondBranch() const;
  const CondBranch* CurrentCondBranch() const;
  // A break `text` met in a branch of torch.cond: UncapturedHigherOrderOpError, unless the
  // branch is inlined under nested graph breaks (then true: the ending must be inside it).
  bool CheckCondBranchBreak(const BreakText& text, bool after_call);
  // Refuses an ending of a break in such a branch at `level` outside the branch.
  void CheckCondBranchEnding(size_t level, bool at_call) const;
  [[noreturn]] void RaiseCondBranchBreak(const BreakText& text, bool after_call);

  // ---- polyfilled_calls.cc
  // A call of a function with a substitute_in_graph polyfill: the polyfill inlined.
  std::optional<Value> PolyfilledCall(const Value& callee, CallArgs& args);

  // ---- opaque_calls.cc
  // Whether user function `fn` was made by a def the trace ran (a frame it traces).
  bool DefinedInTrace(const Value& fn) const;
  // A nonstrict_trace'd function's call: one flat_apply_capture node.
  Value NonstrictCall(const Value& wrapper, CallArgs& args);
  // An assume_constant_result function's call: run on its arguments' values, its result a
  // constant of the trace (no node).
  Value AssumedConstantCall(const Value& callee, CallArgs& args);
  // A custom op's call: one `<ns>.<op>.default` node at both levels.
  Value CustomOpCall(const Value& callee, CallArgs& args, const std::string& target);
  // The same call met while AOT autograd traces an allowed or nonstrict_trace'd body.
  Value AotCustomOpCall(const Value& callee, CallArgs& args, const std::string& target);
  void RecordCustomOp(FragmentRecorder& recorder, const std::string& target,
                      const CallArgs& as_called, const Value& result);

  // ---- side_effects.cc
  // Appends to the graph's outputs `live` the tensors the graph computes that traced code
  // stored in the frame's own dicts and lists (torch's replay of the stores reads them), and
  // refuses the graph when it stored one anywhere else it outlives the frame.
  void AddReplayedStores(const Trace& t, bool at_return, std::vector<Value>& live);
  // The part of it for closure cells: those of the root frame torch replays, in its order.
  void AddReplayedCellStores(const Trace& t, bool at_return, std::vector<Value>& live,
                             std::vector<const runtime::PyTensor*>& outputs,
                             const std::function<bool(const Value&)>& is_stored);
  // Whether the trace changed in place what the frame was given or a global: torch's side
  // effects are not empty.
  bool ChangedWhatOutlives(const Trace& t) const;
  // The objects changed in place since `t` began (Dynamo::changes_).
  std::unordered_set<const runtime::Object*> ChangedInTrace(const Trace& t) const;
  // Refuses running `call` again (a break abandoned or skipped what it traced) when its
  // first run changed in place something that outlives it: torch runs it once.
  void RefuseChangedTwice(const Trace::InlinedCall& call) const;

  // ---- made_instances.cc
  // Refuses a graph break inside the __init__ of an instance the traced code makes, or with a
  // method bound to one or a super / descriptor object live in a traced frame.
  void RefuseBreakAroundClassValues(const Trace& t) const;

  // ---- generic_contexts.cc
  // A break under class statements' context managers active in traced frames: chains their
  // texts to `text` and returns the outermost such frame's depth (no frame from there inward
  // can end the graph; the root's: `text.then` becomes kSkipFrame). nullopt: none active.
  std::optional<size_t> UnderGenericContexts(const Trace& t, BreakText& text) const;

  // ---- graph_break.cc
  // Marks `v` used as realizing it does (a break's arguments, the values handed to a resume
  // function): anything but a Python constant, and what a tuple or list holds, recursively;
  // a constant is guarded only once its value is used (probed: an int passed on through
  // f(*args) to a breaking callee is not guarded, a tensor or a function is).
  static void Realize(Trace& t, const Value& v);
  // A Python constant handed on from the stack at a break is realized, so guarded where it
  // came from (anything else is realized by Realize, or moved).
  static void UseIfConstant(Trace& t, const Value& v);
  static void RealizeArguments(Trace& t, const CallArgs& args);
  // The arguments of the call the frame at `depth` breaks at (the root frame's guards its
  // constant arguments too).
  void RealizeBreakArguments(Trace& t, size_t depth, const CallArgs& args) const;
  // Realizes what live locals `names` (with `values`) hold at a break, but a frame value
  // still in its own local (probed: `y = x` then a break guards x when y is live, not when
  // only x is; `d = [x]` guards x when d is live).
  void UseMovedLocals(Trace& t, const std::vector<std::string>& names,
                      const std::vector<Value>& values);
  Value Break(const BreakText& text, const Value& callee, CallArgs& args);
  // The graph ends at the innermost frame's call of `callee` (the root frame's, or under
  // nested graph breaks an inlined frame's): it is compiled, the call runs eagerly, and a
  // resume function goes on.
  Value BreakAtCall(const Value& callee, CallArgs args, bool via_polyfill = false);
  // Realizes what the live locals `names` (with `values`) of the frame at `depth` hold at a
  // break, as a resume function's arguments (an inlined frame's: where they came from).
  void UseLiveLocals(Trace& t, size_t depth, const std::vector<std::string>& names,
                     const std::vector<Value>& values);
  // What a frame of the trace does at its current call: its live locals there (torch prunes
  // each frame's locals at its CALL instruction: the graph outputs those), the ones its
  // resume function takes (the same, but for the frame whose call breaks, `breaking`: those
  // live after the call), and whether it resumes there (R-return-no-resume). Realizes what
  // the live locals hold.
  struct FrameAtCall {
    std::vector<std::string> names;
    std::vector<Value> values;
    std::vector<std::string> resume_names;
    std::vector<Value> resume_values;
    bool resumes;
  };
  FrameAtCall AtCall(Trace& t, size_t depth, bool breaking);
  // Where a break ends the graph: the frame (its depth) and how.
  struct Ending {
    size_t level;
    enum class Kind { kAtCall, kStep, kSkipFrame } kind;
  };
  // A break reached by the root frame itself, or handed to its call by an inlined callee
  // (spec §3.3).
  Ending RootEnding(const Trace& t, BreakText& text);
  // Records a break; `ends_frame`: the root frame reached skip_frame / step_unsupported
  // (its own reason, not counted). `level`: the frame ending the graph at its call (Dynamo
  // logs the break there).
  void LogBreak(const Trace& t, const BreakText& text, bool ends_frame, size_t level);
  // A graph-break log record as the frames stand now (BreakLog, trace.h).
  BreakLog BreakLogAt(const Trace& t, const BreakText& text, bool ends_frame, size_t level) const;
  void CommitBreakLog(BreakLog log);
  // `after_call`: the innermost frame is shown at the instruction after its call (Dynamo
  // reports "Skip inlining" from there); `callers_after_call`: so are the frames calling it
  // (an error out of a higher-order op's branch).
  [[noreturn]] void RaiseWithUserCode(runtime::ExcType type, const std::string& message,
                                      bool after_call = false, bool callers_after_call = false);
  // An exception raised by code Dynamo runs while it traces (a library function it calls on
  // constants), as torch 2.13.0 lets it out: AssertionError and IndexError as they are, any
  // other wrapped as InternalTorchDynamoError("Type: message"); the user code appended.
  [[noreturn]] void RaiseFromTracing(const runtime::PyError& error);
  std::string UserTraceback(const Trace& t, bool after_call, bool callers_after_call = false) const;
  // torch._dynamo.config.verbose: an error's tail drops its verbosity hint, the graph-break
  // log logs every user stack again (its duplicate checker's add always answers new).
  bool Verbose() const;
  // Whether a user stack shown now passes through a resume function or code compiled from
  // inlined frames (which torch's verbose log shows uncollapsed: not modeled).
  bool StackHasResumeFrames() const;
  void Emit(Trace& t, const std::vector<Value>& live_values, int64_t line, bool at_return);

  // ---- frame_endings.cc
  // How the trace ends at a break (Break decides it once; EndFrame is the one place that
  // acts on it). Two ways unwind the interpreter first, by a signal above.
  enum class FrameEnding {
    kBreakAtCall,        // at the innermost frame's call; a resume function goes on
    kStepBack,           // the innermost frame steps back to its checkpoint
    kReroot,             // a frame waiting at its inner frame's resume function ends it
    kSkipFrame,          // the root frame is skipped: its call runs again (RerunFrame)
    kSkipRerootedFrame,  // the same for a trace RerootAt made
    kUnwindToCall,       // an outer frame's call ends it: unwound to that call (Restart)
    kRunCallEagerly,     // R-classic-reattribute off: only the call runs eagerly
  };
  FrameEnding HowToEnd(const Trace& t, const Ending& ending) const;
  Value EndFrame(FrameEnding how, const Ending& ending, const BreakText& reached,
                 const Value& callee, CallArgs& args);
  const Resumability& ResumabilityOf(const lang::Node& def);
  // The code of `def` as CPython 3.11 lays it out (code_layout.h), made once.
  const CodeLayout& LayoutOf(const lang::Node& def);
  // The locals of frame `f` live at its current call's CALL instruction (torch prunes a
  // frame's locals there when a graph is compiled) and at the instruction after it (where the
  // breaking frame's resume function starts).
  std::vector<std::string> LiveAtCall(const Frame& f);
  std::vector<std::string> LiveAfterCall(const Frame& f);
  // The operands frame `f` has waiting on its stack at a break; refused while they are in a
  // form the stack model does not follow (Frame::opaque_stack). The constants among them are
  // used: torch realizes the stack to hand it on, so guards where each came from.
  static const std::vector<Value>& StackAtBreak(Trace& t, const Frame& f);
  // A step graph break (R-step-graph-break): the graph up to the innermost frame's last
  // checkpoint is compiled and the rest of that frame from there runs eagerly, its calls
  // offered; the frames around it (nested graph breaks) resume when it returns. `callee`
  // null: the break is at an instruction that is no call (`not t`), which then runs eagerly.
  Value StepBreak(const Value& callee, CallArgs args);
  // The root frame is skipped (skip_frame(), or step_unsupported() with no checkpoint):
  // the partial graph dropped, the calls it made run again with their frames offered, the
  // rest eagerly; its code is skipped from now on, as when the root frame itself reached it
  // (an inlined callee's step_unsupported() leaves it unmarked: the next call traces it
  // again; golden variant step_unsupported__s08_..._wrap).
  [[noreturn]] void SkipRootFrame();
  // A `torch._C._set_grad_enabled(enabled)` node (R-grad-mode-context): no ATen node.
  void AddGradModeNode(Trace& t, bool enabled);
  // A frame of the trace at `depth` stepped back to its checkpoint: when it returns, the
  // frames around it resume (none: the slot's frames run on without a trace).
  struct PendingResume {
    size_t slot;
    const Frame* frame;
    std::unique_ptr<Trace> trace;
    std::vector<ResumeLevel> levels;
    // Until then, after a step graph break: the frames folded into the compiled code that
    // called the frame's skipped rest (first and last depth), and the root, whose call of
    // it has no source line (it shows its first line; golden fuzz case 966 of issue 13).
    std::pair<size_t, size_t> folded = {1, 0};
    std::optional<std::pair<size_t, int64_t>> at_first_line =
        std::nullopt;  // depth, the line shown
    // After a step graph break: the grad mode the frame was called under, which its eager rest
    // may leave changed (ModeLeftByCall).
    std::optional<bool> mode_at_call = std::nullopt;
  };
  // The frame of the last pending resume returned `result`: its resume function starts.
  void ResumeAround(const Frame& frame, const Value& result);

  // ---- nested_breaks.cc (profile torch-2.13-ngb, spec §3.4)
  // A break reached in an inlined frame: the exception goes out frame by frame until one
  // can end the graph at its call or step back to its checkpoint; the root's call when
  // none does (classic). Frames from `blocked_from` inward can do neither (a class
  // statement's context manager active there or around them: UnderGenericContexts).
  Ending InlinedEnding(Trace& t, BreakText& text, size_t blocked_from);
  // A break that the frame at `level`, waiting at the call of its inner frame's resume
  // function, ends the graph at (spec §3.4): nothing was traced at its level, and the inner
  // frame's resume function runs as a frame of its own (its trace is what this one traced),
  // meeting the break again; the frames from the root to `level` resume when it returns.
  Value RerootAt(size_t level, const BreakText& reached, const Value& callee, CallArgs& args);
  // torch._dynamo.config.nested_graph_breaks as the traced code sees it now.
  bool NestedGraphBreaks() const;
  // The deepest frame of the trace that can end a graph at its current call: a break
  // deeper than it unwinds to it (should_compile_partial_graph of each inlining).
  size_t NestedBreakLevel(const Trace& t);
  // A frame of the trace at `depth` or above it with a loop's backward jump ahead.
  bool BackedgeAtOrAbove(const Trace& t, size_t depth);
  // A frame of the trace above `depth` (the root included) at a call inside a try block.
  bool TryAbove(const Trace& t, size_t depth);
  // The frame at `depth` is a polyfill's or one a polyfill called (polyfill_frames_).
  bool InPolyfill(const Trace& t, size_t depth) const;
  // The same as SkipRootFrame for a trace RerootAt made, whose frame cannot run again from
  // its start: it runs again from its resume function's start (ResumeFrameEagerly) or,
  // where it cannot, the calls it made so far run again (offered), the rest of it eagerly.
  Value SkipRerootedFrame(const Value& callee, CallArgs args);
  // A resume function of the frames `chain` (outermost first) is skipped and runs its code
  // eagerly: the inner frames' resume function it calls first is converted as a frame of
  // its own, what they traced (`graph`, as `returns` marks it; what they read) its graph;
  // `like` is the trace whose settings it takes.
  void ReplayInnerResume(const Trace& like, const std::vector<ResumeLevel>& chain,
                         const std::vector<Trace::ChainReturn>& returns, const GraphBuilder& graph);
  // The calls the frame at `depth` made while `t` traced it.
  static std::vector<Trace::InlinedCall> CallsAt(const Trace& t, size_t depth);
  // `calls` made again eagerly (their frames offered), then `callee`'s.
  Value RunAgainEagerly(std::vector<Trace::InlinedCall> calls, const Value& callee, CallArgs args);
  // Where a skipped resume function of the frames `chain` (outermost first) runs again
  // eagerly: the outermost frame from its call of the inner frames' resume function, with
  // the value they returned while traced (`returns`); nullopt while they still run.
  static std::optional<ResumeLevel> EagerRestart(const std::vector<ResumeLevel>& chain,
                                                 const std::vector<Trace::ChainReturn>& returns);
  // Refuses a skipped frame whose calls made so far would run again while one still runs.
  [[noreturn]] void RefuseRunningCallAgain();
  // A resume function of the one frame `level` runs eagerly: that frame runs its code again
  // from its call (runtime::ResumeFrame, with its locals then), which the reference had run
  // traced. Returns (no throw) where the interpreter cannot start there: operands below the
  // call's value on its stack, or a block other than an if statement open around it.
  void ResumeFrameEagerly(const ResumeLevel& level);
  // The line a user stack shows for the frame at `depth`; nullopt: no Python frame there
  // (folded into compiled code).
  std::optional<int64_t> ShownLine(size_t depth) const;

  // ---- data_dependent.cc (R-data-dependent-branch)
  // An if or while statement `branch` of the innermost frame jumps on traced tensor `cond`
  // (the root's, or under nested graph breaks an inlined frame's): the graph ends there
  // (outputs: the condition and the live locals, then each outer frame's stack and live
  // locals), and the block the data selects goes on as a resume function of its own (nested:
  // in the outer frames' resume function).
  // `jump`: the conditional jump on `cond` in its function's code (CodeLayout's).
  void BreakAtBranch(Trace& t, const Value& cond, const lang::Stmt& branch, const JumpSite& jump,
                     const BreakText& text);
  // How `cond` was computed, as torch's format_tensor_computation_trace shows it; refuses
  // what the reference cannot name.
  std::string ComputationOf(const Trace& t, const Value& cond) const;
  // The hints torch gives a branch on `cond` before its two fixed ones.
  std::vector<std::string> BranchHints(const Trace& t, const Value& cond) const;
  // ---- assert_async.cc (R-data-dependent-branch)
  // An assert statement's jump on traced tensor `cond` straight before its raise: one
  // torch._assert_async(cond, message) node, which checks it when the graph runs; refused
  // where that check fails (torch raises RuntimeError from the compiled graph then).
  void AssertAsyncNode(Trace& t, const Value& cond, const lang::Assert& stmt);
  // `not t` on traced tensor (`not_expr` the `not`): a kStepBack break there.
  void NotOnTensor(Trace& t, const lang::Expr& not_expr);
  // ---- context_entry.cc
  // A call of torch.no_grad, enable_grad, set_grad_enabled or contextlib.nullcontext by
  // traced code: made as eager code makes it, and noted in the trace (Trace::made_contexts);
  // nullopt for any other.
  std::optional<Value> MakeContextManager(const Value& callee, CallArgs& args);
  // The context managers `old` made that resume trace `t` receives: torch
  // rebuilds each (GradModeVariable.reconstruct calls torch.set_grad_enabled(mode)) before it
  // calls the resume function, and `t` enters them as its own. Refuses one whose mode is not
  // the one `t` begins under (torch's call leaves that mode set after the frame).
  void CarryContextManagers(const Trace& old, Trace& t) const;
  // The grad mode torch's compiled code leaves set when it rebuilds the grad-mode context
  // managers trace `t` made and `resuming` holds, before the break's call (probed: a disabled
  // callee sees it; upstream nested_graph_breaks/test_inactive_ctx_manager), where it is not
  // the mode at the break; nullopt otherwise. Refuses managers of both modes and a break
  // inside a block that changed the mode (not probed).
  std::optional<bool> ModeOfRebuiltContexts(const Trace& t,
                                            const std::vector<ResumeLevel>& resuming) const;
  // A graph break's call changed grad mode from `mode_at_call`: the mode its resume function
  // begins under when that is the one the call left (outside grad-mode with blocks), nullopt
  // when torch's with blocks around the call undo the change (the process mode is set back).
  // Refuses a change after the frame set the mode some other way (not probed).
  std::optional<bool> ModeLeftByCall(const Trace& t, bool mode_at_call,
                                     const std::vector<ResumeLevel>& resuming) const;
  // A break's call returned a context manager the trace made (the call's value,
  // last on the deepest level's stack): the resume function receives the object itself, not
  // one torch rebuilds, so it is no longer the trace's (upstream
  // ctx_manager/test_inactive_context_graph_break_stack). Refuses one also live otherwise
  // (torch hands on a rebuilt copy beside the object; the reference has one object).
  void ForgetReturnedContextManager(Trace& t, const std::vector<ResumeLevel>& resuming) const;
  // Whether `v` is a value of a global, of a closure cell from outside the trace or of the
  // trace's inputs (an item of one too), which `frame` can reach.
  bool CameFromOutsideTrace(const Trace& t, const Frame& frame, const Value& v) const;
  // ---- scalar_reads.cc (R-data-dependent-branch)
  // The data read a call makes of a traced tensor as a Python scalar ("int()",
  // "Tensor.item()"), if it is one.
  struct ScalarRead {
    std::string name;  // "Tensor.item()"
    BreakText text;    // the break torch makes at the call
  };
  std::optional<ScalarRead> ScalarReadOf(const Value& callee, const CallArgs& args) const;
  // Such a call breaks the graph there (Tensor.item()'s break, whichever call reads) and
  // returns what the call returned; nullopt for any other call. Refuses one under
  // fullgraph=True.
  std::optional<Value> ScalarReadBreak(const Value& callee, CallArgs& args);
  // Records that the graph's nodes from index `first` on were made by the innermost frame,
  // now (Trace::node_origins).
  void NoteNodeOrigins(Trace& t, size_t first) const;

  // ---- resume_functions.cc
  // The frames resuming after a break, outermost first: the outermost one's resume
  // function is the frame Dynamo is offered next, the others' are called in it.
  void StartResume(size_t slot, std::vector<ResumeLevel> levels);
  // counters["resumes"]: the resume codes compiling `old` made for `levels` at a break (none
  // on a cache hit), each counted under its name (torch's create_call_resume_at).
  void CountResumeCodes(const Trace& old, const std::vector<ResumeLevel>& levels) const;
  // That resume function's trace, after `old`'s (null: it runs without one, `skipped_frame`
  // telling whether a frame-skipping break skipped its code); `carried`: the graph `old`
  // traced of those frames already (RerootAt), its inputs renamed.
  std::unique_ptr<Trace> MakeResume(const Trace& old, std::vector<ResumeLevel> levels,
                                    GraphBuilder* carried = nullptr, bool* skipped_frame = nullptr);
  // The source through which the resume function traced by `t` reads local `name` of
  // `frame`: L['name'] in its own frame, an inner frame's still resuming through the list of
  // their values; none elsewhere.
  std::optional<std::string> ResumedLocalSource(const Trace& t, const Frame& frame,
                                                const std::string& name) const;

  // ---- bound_from.cc: where the local `name` of the frame at `depth` came from among the
  // root frame's values while it still holds that object (its parameters; Trace::bound_from).
  std::optional<ValuePath> PathOfLocal(const Trace& t, size_t depth, const std::string& name) const;
  // The same for item `i` (the object `item`) of that local.
  std::optional<ValuePath> PathOfItem(const Trace& t, size_t depth, const std::string& name,
                                      size_t i, const Value& item) const;
  // Notes where the parameters of `function`, about to be inlined by the frame at `depth`
  // at its current call, come from.
  void NoteBoundFrom(Trace& t, size_t depth, const runtime::PyFunction& function);

  // ---- run_on_backend.cc: an invocation's graphs compiled and run by backend_, its outputs
  // replacing the reference's values; an opaque node run again on the host for it.
  // `compile`: the invocation's index (a cache hit runs an earlier one's graph again).
  void RunOnBackend(const graph::Invocation& call, size_t compile, const FinishedGraphs& graphs);
  // A cache hit's graph, run again by backend_ under the compile that made the entry.
  void RunCachedOnBackend(Trace& t, const std::vector<Value>& live, bool one_graph);
  std::variant<std::vector<runtime::Tensor>, std::string> RunOpaque(
      const FinishedGraphs& graphs, size_t node, const std::vector<runtime::Tensor>& inputs);
  // An ATen graph's custom op with no Dynamo node of its own (called inside an allowed
  // function's body): torch.ops.<ns>.<op>.default on the node's arguments.
  std::variant<std::vector<runtime::Tensor>, std::string> RunAtenCustomOp(
      const graph::Node& node, size_t index, const std::vector<runtime::Tensor>& inputs);
  // `callee(args)` as the compiled graph runs it; its result's tensors.
  std::variant<std::vector<runtime::Tensor>, std::string> CallOnHost(const Value& callee,
                                                                     CallArgs args, size_t node);

  // The line a frame is at: its current call's, else its statement's.
  static int64_t LineOf(const Frame& f) {
    return f.call != nullptr ? f.call->span.begin.line : f.line;
  }

  // ---- Fixed after construction.
  runtime::Interpreter& in_;
  const RuleSet& rules_;
  Value recorder_;
  AtenLowering* aten_ = nullptr;
  runtime::GraphBackend* backend_ = nullptr;
  std::vector<Value> is_compiling_fns_;
  // torch.cond and the CondOp class of torch.ops.higher_order.cond as installed (the program
  // may rebind the names).
  Value torch_cond_;
  runtime::Ref<runtime::PyType> cond_op_type_;
  static constexpr size_t kIsDynamoCompiling = 1;  // its index in is_compiling_fns_

  // ---- State across calls, until torch._dynamo.reset() (which clears the code cache).
  Records records_;
  CodeCache code_cache_{rules_, in_.process()};
  // The codes torch.compile(fn) was called on: converted even without a tensor in frame.
  std::unordered_set<const lang::Node*> always_optimize_;
  std::map<const lang::Node*, Resumability> resumability_;  // a memo of each def's analysis
  std::map<const lang::Node*, CodeLayout> layouts_;         // and of its code's layout
  // Locations whose user stack was logged (the duplicate-graph-break checker).
  std::set<std::string> logged_locations_;
  Value wrap_inline_;  // external_utils.wrap_inline, made on first use
  uint64_t next_trace_serial_ = 0;

  // ---- State of the running traces.
  // The running compiled frames, innermost last; null marks a region run eagerly inside
  // one (a break's callee, an allowed function's body).
  std::vector<std::unique_ptr<Trace>> contexts_;
  // The objects the program changed in place while any trace was open, in order (identity
  // only: an entry keeps nothing alive; Trace::InlinedCall::changes_begin indexes it).
  std::vector<const runtime::Object*> changes_;
  std::vector<PendingResume> pending_resumes_;
  // Frames (first and last depth) a nested graph break folded into the compiled code that
  // runs its eager call: while that runs they are no Python frames, and user stacks leave
  // them out (golden variants/version__skip_frame_in_inlined_callee__wrap).
  std::vector<std::pair<size_t, size_t>> folded_frames_;
  // A frame running a call again (RunAgainEagerly) shows that call's line.
  std::vector<std::pair<size_t, int64_t>> shown_lines_;
  // Interpreter frames (by depth) a trace entered by inlining a compiled function: its
  // tracebacks show torch's polyfill frames above them.
  std::set<size_t> inlined_compiled_;
  // Interpreter frames (by depth) of polyfills being inlined: torch inlines them with
  // allow_nested_graph_breaks=False, so neither they nor the frames they call end a graph.
  std::set<size_t> polyfill_frames_;
  // The branches of torch.cond being traced, innermost last.
  std::vector<CondBranch> cond_branches_;
  // The context managers' function wrappers running (ContextWrapperCall): the depth of the
  // frame that called each, and where torch's frame of it makes its call (`func(*args,
  // **kwargs)`), if torch has one; a break at that call is located there.
  struct WrapperCall {
    size_t depth;
    std::optional<graph::FileLine> at;  // none: the caller's line (no frame of torch's)
  };
  std::vector<WrapperCall> wrapper_calls_;
  // The wrapper whose call of its function is being made (a call at its caller's depth).
  const WrapperCall* CallByWrapper() const;
  // While AotTrace runs an allowed function's body: the recorder of its ops, and the
  // is_compiling family as AOT autograd's tracing reads it.
  FragmentRecorder* body_recorder_ = nullptr;
  bool aot_tracing_ = false;
  // While a data-dependent branch is handled: the innermost frame's position in a user
  // traceback (its conditional jump's).
  std::optional<SourceSpan> branch_at_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_DYNAMO_H_
