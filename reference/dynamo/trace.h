// What Dynamo keeps while it converts a frame (SEMANTICS §8): the code object it converts,
// and the trace of that frame and of the frames it inlines, with what a graph break needs
// (checkpoints, the calls made, a nested resume function's frames).
#ifndef TDCONFORM_REFERENCE_DYNAMO_TRACE_H_
#define TDCONFORM_REFERENCE_DYNAMO_TRACE_H_

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "reference/dynamo/graph_builder.h"
#include "reference/dynamo/guards.h"
#include "reference/graph/golden.h"
#include "reference/lang/ast.h"
#include "reference/runtime/interp/process.h"

namespace tdc::dynamo {

using runtime::Ref;

// A graph-break log record as the frames stood when it was made, and the key torch's
// duplicate check of user stacks uses; committed apart from where it is made (an
// exception's is made where it is raised, logged if it leaves the frame unhandled).
struct BreakLog {
  graph::GraphBreak record;
  std::string dedup_key;
};

// A code object: a function's, or a resume function's (the function and the call
// whose break made it).
struct CodeKey {
  const lang::Node* def = nullptr;
  const lang::Call* resume_at = nullptr;
  // A resume function's code also depends on the context managers open at its break and
  // their target values (torch's ContinueExecutionCache keys on stack_ctx_vars).
  std::string open_contexts = {};
  // A nested graph break's resume code also holds the inner frames' resume codes: the
  // call each of them was at, outermost first (torch's nested_code_objs).
  std::vector<const lang::Call*> nested = {};
  // A resume function after a data-dependent branch: the if or while statement and where
  // in its function's code it starts (CodeLayout's instruction: one code per target, as
  // torch keys them on the offset; resume_at is null).
  const lang::Stmt* branch = nullptr;
  size_t branch_target = 0;
  // A resume function's break line: its co_firstlineno and the `_at_<line>` of its name.
  int64_t resume_line() const {
    return resume_at != nullptr ? resume_at->span.begin.line : branch->span.begin.line;
  }
  auto operator<=>(const CodeKey&) const = default;
};
// One frame's part of a resume function's values: its Python stack below the call (the
// call's value last for the deepest frame resuming) and its live locals.
struct ResumeLevel {
  size_t depth;                       // the frame's index in Interpreter::frames()
  Ref<runtime::PyFunction> function;  // the frame's (it may have returned by the time it is read)
  const lang::Call* call;             // the call it resumes after (null: a branch's target)
  const lang::Stmt* stmt;             // the statement making it
  std::vector<Value> stack;
  std::vector<std::string> live;
  std::vector<Value> values;  // the live locals' values then
  // Resuming at a data-dependent branch of if or while statement `stmt` (call null): the
  // instruction it goes on at (CodeLayout's).
  size_t branch_target = 0;
  bool grad_enabled_at_start = true;  // its frame's (Frame::grad_enabled_at_start)
  // The outermost level's: the grad mode torch's compiled code leaves set before the break's
  // call and the resume function when it rebuilds a grad-mode context manager live across the
  // break (Dynamo::ModeOfRebuiltContexts), where that is not the frame's.
  std::optional<bool> called_under = std::nullopt;
  // The call it resumes after was made by torch's polyfill frame of a context manager's
  // function wrapper, a frame resuming below it: the call's value is that frame's
  // (`L['__nested_frame_values'][0][1]`, after its with block's __exit__; context_wrappers.cc).
  bool value_from_polyfill = false;
};
// One frame being traced (or, on a cache hit, run again without recording).
// Where a frame's graph ended: its line, at a return or a graph break, holding an op or not.
struct GraphEnding {
  int64_t line = 0;
  bool at_return = false;
  bool empty = false;
  bool operator==(const GraphEnding&) const = default;
  std::string Describe() const;  // "line 23, return", "line 23, graph break, empty"
};

struct Trace {
  uint64_t serial = 0;       // tells a trace from the one a nested break replaced it with
  size_t changes_begin = 0;  // Dynamo::changes_ when it began (a skipped frame runs again)
  size_t root_depth = 0;     // its frame's index in Interpreter::frames()
  // Frames above the root that user stacks show otherwise while it runs: a nested graph
  // break's resume function runs from compiled code whose inlined frames are no Python
  // frames (`folded`, first and last depth), and whose call of it after a step graph
  // break has no source line (the frame shows its first line).
  std::vector<std::pair<size_t, size_t>> folded;
  std::vector<std::pair<size_t, int64_t>> at_first_line;  // depth, the line shown
  // A nested resume function's frames, outermost first (StartResume's levels), and the
  // deepest of them not returned yet: those above it wait at the calls of their inner
  // frames' resume functions (a break one of them ends the graph at: RerootAt).
  std::vector<ResumeLevel> chain;
  size_t waiting_above = 0;
  // The inner frames of the chain that returned while it traced: the graph then (what
  // their rests traced), their value and line. A skipped frame of the chain runs its code
  // eagerly, which calls their resume function: Dynamo converts that (ReplayInnerResume).
  struct ChainReturn {
    size_t depth;
    GraphBuilder::Mark mark;
    Value result;
    int64_t line;
    bool error_on_graph_break;  // the flag then, which decides whether its graph is one
    // What the trace had read then: that resume function's guards, none of what its
    // callers read after it returned (fuzz/corpus, recorded by torch).
    Reads used;  // Reads::UsedSoFar (move-only: copied the same way)
    GlobalGuardList global_guards;
  };
  std::vector<ChainReturn> chain_returns;
  // Made by RerootAt: its root frame did not begin under it.
  bool rerooted = false;
  std::shared_ptr<const runtime::CompileCallback> callback;
  CodeKey key;
  std::string code_name;  // co_qualname (trigger.code)
  std::string co_name;    // the original function's name, for resume function names
  bool resume = false;
  bool record = true;      // false on a cache hit, and once the compile emitted its graph
  bool cache_hit = false;  // it runs a cache entry's compiled code
  // The exception a raise statement of the traced code raised last, with the user-code
  // traceback there: under fullgraph, one no traced frame handles is Unsupported.
  struct Observed {
    runtime::Value exception;
    std::string traceback;
    BreakLog log;  // the graph-break record torch logs if it leaves the frame unhandled
    bool through_block = false;  // it left a frame through a with block or try statement
  };
  std::optional<Observed> observed;
  // On a cache hit whose compile sent a graph to the backend: that compile's invocation
  // (an installed GraphBackend runs its compiled graph again; cleared once it has).
  std::optional<size_t> cached_invocation;
  // On a cache hit: its entry's ending (CacheEntry::ending), checked where the trace ends.
  std::optional<GraphEnding> cached_ending;
  std::string compile_id;
  bool recompile = false;
  std::vector<GuardedValue> guards;
  // The frame's values as the trace began, with their sources (L['d']): what its side
  // effects can reach besides the globals.
  std::vector<std::pair<runtime::Value, std::string>> inputs;
  // Whether `v` is one of the frame's own values (an argument or free variable, L['name']).
  bool Received(const runtime::Value& v) const {
    return std::any_of(inputs.begin(), inputs.end(), [&](const auto& input) {
      return input.first == v && input.second.starts_with("L['");
    });
  }
  // The class statements' instances its traced code made (identity only: an entry keeps
  // nothing alive); Dynamo traces them as it does the frame's own (SEMANTICS §7.4).
  std::unordered_set<const runtime::Object*> made;
  // The context managers' function wrappers (torch.no_grad()(fn)) its traced code made
  // (identity only): Dynamo calls them through a polyfill (context_wrappers.cc).
  std::unordered_set<const runtime::Object*> made_context_wrappers;
  // Whether it used a class statement's value or a super, property, staticmethod or
  // classmethod object (a break then checks for them: RefuseBreakAroundClassValues).
  bool used_class_values = false;
  runtime::Value globals;  // its function's module globals (a PyDict)
  // What the trace read: only those values are guarded (Dynamo builds guards as it reads
  // values; R-lazy-guards, R-closure-guard).
  Reads reads;
  bool grad_enabled = true;
  GlobalGuardList global_guards;  // the module globals it read
  // Where the closure cells of functions it can read came from, for naming a tensor in
  // one (L['f'].__closure__[0].cell_contents, G['g'].__closure__[0].cell_contents).
  std::map<runtime::ObjectId, std::string> cell_sources;
  GraphBuilder graph;
  // Where each of the graph's nodes was made (by index; "" where unknown): `File "f.py",
  // line 3, in fn, code: y = x.sum()`, as a node's stack trace shows its innermost frame.
  std::vector<std::string> node_origins;
  // A tensor node stored in a frame's local or cell variable for the first time: torch
  // renames the node after the variable (TensorVariable.set_name_hint, at STORE_FAST /
  // STORE_DEREF), when the graph had `after_nodes` nodes; `name` is empty where the
  // reference cannot name it (a nonlocal store).
  struct NodeRename {
    size_t node;
    std::string name;
    size_t after_nodes;
  };
  std::vector<NodeRename> node_renames;
  std::vector<bool> node_renamed;  // by node index: whether node_renames holds it
  // The user functions the trace's frames called (inlined or allowed), with the depth of
  // the frame calling: when a frame ends with no op (R-no-ops-skip) or steps back to a
  // checkpoint (R-step-graph-break), torch runs its code eagerly and these calls' frames
  // are offered to Dynamo.
  struct InlinedCall {
    size_t depth;
    Value function;
    CallArgs args;
    int64_t line = 0;  // the calling frame's line then
    // What it changed in place as it ran (Dynamo::changes_, from `changes_begin` to
    // `changes_end`, or to now while it runs): running it again must not change twice what
    // outlives it (Dynamo::RefuseChangedTwice).
    size_t changes_begin = 0;
    size_t changes_end = kRunning;
    static constexpr size_t kRunning = static_cast<size_t>(-1);
  };
  std::vector<InlinedCall> inlined_calls;
  // Where an inlined frame's parameters came from among the root frame's values, where its
  // call passed them by name (`f(x)`, `f(*args)`): (depth, name) -> the path and the
  // object then (NoteBoundFrom). A nested break realizes such a local at that path only.
  struct BoundFrom {
    ValuePath path;
    runtime::ObjectId object;
  };
  std::map<std::pair<size_t, std::string>, BoundFrom> bound_from;
  // The context managers its traced code made (torch.no_grad(), nullcontext() ...), with the
  // depth of the frame that made each (kCarriedAcrossBreak: an earlier trace of the frame
  // made it): Dynamo knows how to enter those (context_entry.cc).
  static constexpr size_t kCarriedAcrossBreak = static_cast<size_t>(-1);
  std::vector<std::pair<Value, size_t>> made_contexts;
  // The last checkpoint of each frame, the root's first (resumability.h): a statement
  // begun with the graph non-empty, outside try / for / with; a step graph break compiles
  // up to it. An inlined frame has them under nested graph breaks only.
  struct Checkpoint {
    const lang::Stmt* stmt;
    GraphBuilder::Mark mark;
    std::vector<Value> fast;  // the frame's locals then
    size_t calls;             // inlined_calls then
    // What the trace had read then: torch traces the frame again up to the checkpoint, so
    // what it read after it is not guarded.
    Reads::Mark reads;
    size_t global_guards;
    // Grad mode then: a with block of an outer frame may have changed it since the trace
    // began, and the graph compiled up to the checkpoint sets it back at its end (golden
    // upstream/nested_graph_breaks/test_ctx_manager_nested_step_graph_break).
    bool grad_enabled;
  };
  std::vector<std::optional<Checkpoint>> checkpoints;
  const std::optional<Checkpoint>* CheckpointAt(size_t depth) const {
    size_t i = depth - root_depth;
    return i < checkpoints.size() && checkpoints[i] ? &checkpoints[i] : nullptr;
  }
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_TRACE_H_
