#include "fuzz/partition_oracle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "fuzz/id_model.h"
#include "fuzz/values.h"

namespace tdc::fuzz {
namespace {

// nonstrict_trace's node and a custom op's (`tdc::f<i>`, called through its CustomOpDef).
constexpr const char* kFlatApplyCapture =
    "torch._dynamo.variables.torch.TorchInGraphFunctionVariable._call_nonstrict_traceable_function."
    "<locals>."
    "flat_apply_capture";
std::string CustomOpNode(int f) { return fmt::format("tdc.f{}.default", f); }

class Oracle {
 public:
  Oracle(const Program& p, bool nested) : p_(p), ids_(EffectiveHelperSteps(p)), nested_(nested) {
    for (const Function& f : p.functions) compiling_.emplace_back(f.body.size(), false);
  }

  Partition Run() {
    if (p_.fullgraph && Breaks(0)) return {{}, {}, true};
    Call(EntryCall::kFirst);
    // A second identical call hits every cache entry (and takes the same branches); a new
    // shape fails every shape guard: the same frames compile again, but codes marked
    // skipped are not traced.
    if (p_.new_shape) Call(EntryCall::kNewShape);
    // A new K fails the guard of the codes whose trace read it; the others hit an entry.
    if (p_.new_constant) Call(EntryCall::kNewConstant);
    return std::move(out_);
  }
  const std::vector<std::vector<bool>>& compiling() const { return compiling_; }

 private:
  // One call of the entry: its input's size, K, and the way its data-dependent branches go.
  void Call(EntryCall call) {
    elements_ = call == EntryCall::kNewShape ? 6 : 4;
    k_ = call == EntryCall::kNewConstant ? 1.25 : 1.5;
    branches_ = DecideDataBranches(p_, call);
    turns_left_ = branches_.taken;
    Frame(0, 0);
  }

  bool IsBreakingOp(OpKind op) const { return op == OpKind::kSigmoid && p_.disallow_sigmoid; }

  // Whether tracing function `f` inline meets a graph break anywhere (spec §3.3: such a
  // call breaks its caller's graph at the call site in the classic profile; so do
  // skip_frame() and step_unsupported() there, whose frame skip the inlining drops).
  bool Breaks(int f) const {
    for (const Stmt& s : p_.functions[f].body) {
      if (IsBreak(s)) return true;
    }
    return false;
  }
  bool CallBreaks(int callee) const {
    switch (p_.functions[callee].policy) {
      case Policy::kNone:
        return Breaks(callee);
      case Policy::kAllowInGraph:
      case Policy::kNonstrictTrace:
      case Policy::kCustomOp:
        return false;  // one opaque node, its body never traced by Dynamo
      case Policy::kDisable:
      case Policy::kDisableNonrecursive:
        return true;  // disabled either way: a break at the call
      case Policy::kCount:
        break;
    }
    return false;
  }
  bool IsBreak(const Stmt& s) const {
    switch (s.kind) {
      case Stmt::Kind::kGraphBreak:
      case Stmt::Kind::kSkipFrame:
      case Stmt::Kind::kStepUnsupported:
      case Stmt::Kind::kTryBreak:
      case Stmt::Kind::kLoopBreak:
      case Stmt::Kind::kIfData:  // its test's jump (R-data-dependent-branch)
      case Stmt::Kind::kWhileData:
        return true;
      case Stmt::Kind::kOp:
      case Stmt::Kind::kLoop:
        return IsBreakingOp(s.op);
      case Stmt::Kind::kCall:
      case Stmt::Kind::kCallInLoop:
      case Stmt::Kind::kCallInTry:
        return CallBreaks(s.callee);
      case Stmt::Kind::kCallHelper:
        return ids_.RegistryOf(s.callee) == Registry::kDisallowed;
      case Stmt::Kind::kIfCompiling:
      case Stmt::Kind::kIfCompilingDiffers:
        return false;
      case Stmt::Kind::kCount:
        break;
    }
    return false;
  }
  // One graph as the oracle builds it: Dynamo's node targets, and the ATen ops AOT
  // autograd's forward graph has for them.
  struct Graph {
    std::vector<std::string> dynamo, aten;
    bool reads_k = false;  // the trace inlined an `x * K`: its entry guards K
  };

  void AddOp(OpKind op, Graph& graph) {
    const std::vector<std::string>& targets = OpTargets(op);
    graph.dynamo.insert(graph.dynamo.end(), targets.begin(), targets.end());
    const std::vector<std::string>& aten = AtenOps(op);
    graph.aten.insert(graph.aten.end(), aten.begin(), aten.end());
    graph.reads_k = graph.reads_k || op == OpKind::kMulGlobal;
  }

  // Statement `i` of function `f` traced inline (no break in it, by IsBreak).
  void Inline(int f, size_t i, Graph& graph) {
    const Stmt& s = p_.functions[f].body[i];
    compiling_[f][i] = true;
    switch (s.kind) {
      case Stmt::Kind::kOp:
        AddOp(s.op, graph);
        break;
      case Stmt::Kind::kLoop:  // unrolled
        AddOp(s.op, graph);
        AddOp(s.op, graph);
        break;
      case Stmt::Kind::kIfCompiling:  // True while tracing: x * 2 (x * 1.5)
      case Stmt::Kind::kIfCompilingDiffers:
        graph.dynamo.push_back("operator.mul");
        graph.aten.push_back("aten.mul.Tensor");
        break;
      case Stmt::Kind::kCallInLoop:  // unrolled
        InlineCall(s.callee, graph);
        InlineCall(s.callee, graph);
        break;
      case Stmt::Kind::kCall:
      case Stmt::Kind::kCallInTry:
        InlineCall(s.callee, graph);
        break;
      case Stmt::Kind::kCallHelper:
        graph.dynamo.push_back(ids_.RegistryOf(s.callee) == Registry::kAllowed
                                   ? fmt::format("h{}", s.callee)
                                   : std::string("torch.tanh"));
        graph.aten.push_back("aten.tanh.default");
        break;
      case Stmt::Kind::kGraphBreak:  // breaks: not traced inline
      case Stmt::Kind::kSkipFrame:
      case Stmt::Kind::kStepUnsupported:
      case Stmt::Kind::kTryBreak:
      case Stmt::Kind::kLoopBreak:
      case Stmt::Kind::kIfData:
      case Stmt::Kind::kWhileData:
      case Stmt::Kind::kCount:
        break;
    }
  }

  // A call of `callee` that cannot break traced inline. An allowed or nonstrict_trace'd
  // function's body runs when the graph runs, not traced by Dynamo; AOT autograd traces
  // through it. A custom op is opaque to both.
  void InlineCall(int callee, Graph& graph) {
    switch (p_.functions[callee].policy) {
      case Policy::kAllowInGraph:
        graph.dynamo.push_back(fmt::format("f{}", callee));
        AotBody(p_.functions[callee].body, graph.aten);
        break;
      case Policy::kNonstrictTrace:  // spec §3.2a fact 3, as torch 2.13.0 spells it
        graph.dynamo.push_back(kFlatApplyCapture);
        graph.dynamo.push_back("operator.getitem");
        AotBody(p_.functions[callee].body, graph.aten);
        break;
      case Policy::kCustomOp:
        graph.dynamo.push_back(CustomOpNode(callee));
        graph.aten.push_back(CustomOpNode(callee));
        break;
      case Policy::kNone:
      case Policy::kDisable:  // a disabled callee breaks (CallBreaks): never inlined
      case Policy::kDisableNonrecursive:
      case Policy::kCount:
        for (size_t j = 0; j < p_.functions[callee].body.size(); ++j) Inline(callee, j, graph);
        break;
    }
  }

  // The ATen ops of `body` as AOT autograd traces an allowed function: every call traced
  // through whatever its policy, graph_break(), skip_frame() and step_unsupported()
  // no-ops, is_compiling() True, loops unrolled.
  void AotBody(const std::vector<Stmt>& body, std::vector<std::string>& aten) const {
    for (const Stmt& s : body) {
      switch (s.kind) {
        case Stmt::Kind::kOp:
        case Stmt::Kind::kTryBreak:
        case Stmt::Kind::kLoop:
        case Stmt::Kind::kLoopBreak: {
          const bool loop = s.kind == Stmt::Kind::kLoop || s.kind == Stmt::Kind::kLoopBreak;
          for (int pass = loop ? 2 : 1; pass > 0; --pass)
            aten.insert(aten.end(), AtenOps(s.op).begin(), AtenOps(s.op).end());
          break;
        }
        case Stmt::Kind::kIfCompiling:
        case Stmt::Kind::kIfCompilingDiffers:
          aten.push_back("aten.mul.Tensor");
          break;
        case Stmt::Kind::kCall:
        case Stmt::Kind::kCallInTry:
        case Stmt::Kind::kCallInLoop:
          for (int pass = s.kind == Stmt::Kind::kCallInLoop ? 2 : 1; pass > 0; --pass) {
            if (p_.functions[s.callee].policy == Policy::kCustomOp) {
              aten.push_back(CustomOpNode(s.callee));
            } else {
              AotBody(p_.functions[s.callee].body, aten);
            }
          }
          break;
        case Stmt::Kind::kCallHelper:
          aten.push_back("aten.tanh.default");
          break;
        case Stmt::Kind::kGraphBreak:
        case Stmt::Kind::kSkipFrame:
        case Stmt::Kind::kStepUnsupported:
        case Stmt::Kind::kCount:
          break;
        // Never in an allowed body (checkable.h): AOT autograd's fake tensors
        // have no data to branch on.
        case Stmt::Kind::kIfData:
        case Stmt::Kind::kWhileData:
          break;
      }
    }
  }

  // The graph the conversion of `code` ends with, compiled unless a cache entry of the code
  // has guards that hold: the input's shape, and K where the trace read it (a code's trace
  // is the same on every call).
  void Emit(Graph& graph, const std::string& code) {
    std::vector<Entry>& entries = cache_[code];
    const bool cache_hit = std::any_of(entries.begin(), entries.end(), [&](const Entry& e) {
      return e.elements == elements_ && (!e.k || *e.k == k_);
    });
    if (!cache_hit)
      entries.push_back({elements_, graph.reads_k ? std::optional(k_) : std::nullopt});
    // Empty graphs never reach the backend, but under fullgraph (spec §3.2, SEMANTICS §4.2).
    if (!cache_hit && (!graph.dynamo.empty() || p_.fullgraph)) {
      out_.graphs.push_back(std::move(graph.dynamo));
      out_.aten_graphs.push_back(std::move(graph.aten));
    }
    graph = {};
  }

  // Where a frame is inside statement i, a data-dependent branch, when a resume function
  // goes on there (kStatement: at the statement's start, or anywhere else).
  enum class Phase { kStatement, kFirstArm, kElseArm, kLoopBody, kAfterLoop };
  // A frame Dynamo converts, traced one level per function it runs (one level, but under
  // nested graph breaks: spec §3.4), each at the statement it runs next.
  struct Level {
    int f = 0;
    size_t i = 0;
    size_t from = 0;  // where its code starts (a resume function's resume point)
    // The graph when its function was entered: a break its frame cannot take goes back
    // there, to its caller's call (the inlining is abandoned).
    Graph at_entry;
    // Its place among the frames a nested resume function resumed (the code's levels as
    // converted); -1: entered by this trace.
    int resumed = -1;
    // Dynamo's checkpoint: a statement's start with two calls in the graph (spec §2.8).
    std::optional<std::pair<size_t, Graph>> checkpoint;
    Phase phase = Phase::kStatement;  // where in statement i
    int pass = 0;                     // at a call in a loop: the loop's pass, 0 or 1
  };
  // The code of a frame converted at `levels` (f@from, a nested resume function's
  // inner frames after it): skip marks and caches are per code.
  static std::string CodeOf(const std::vector<Level>& levels) {
    // A resume function inside a branch: one code per target of its jumps (torch keys them
    // on the offset), a while loop's two jumps sharing theirs.
    static constexpr const char* kPhases[] = {"", ":first_arm", ":else_arm", ":loop_body",
                                              ":after_loop"};
    std::string code;
    for (const Level& l : levels) {
      code += fmt::format("{}f{}@{}{}", code.empty() ? "" : "/", l.f, l.i,
                          kPhases[static_cast<int>(l.phase)]);
    }
    return code;
  }

  // Function `f` converted as a top-level frame from statement `from` (a resume function
  // when `from` > 0).
  void Frame(int f, size_t from) { Convert({Level{f, from, from}}); }

  // The frame at `levels` converted: its graph up to the first break, then what the
  // break does (spec §3.3, §3.4) and the resume function after it, converted in turn.
  void Convert(std::vector<Level> levels) {
    const std::vector<Level> start = levels;
    const std::string code = CodeOf(levels);
    if (skipped_.contains(code)) return;  // the callback is off for it
    if (frame_skipped_.contains(code)) return RunSkipped(start);
    Graph graph;
    for (;;) {
      Level& leaf = levels.back();
      const std::vector<Stmt>& body = p_.functions[leaf.f].body;
      if (leaf.phase != Phase::kStatement) {  // a resume function inside a branch
        if (InsideBranch(leaf, graph)) continue;
        return BreakAtJump(std::move(levels), code, graph);
      }
      if (leaf.i == body.size()) {  // the function returns to its caller
        if (levels.size() == 1) break;
        levels.pop_back();
        Level& caller = levels.back();
        // A call in a loop calls its callee once more.
        if (At(caller).kind == Stmt::Kind::kCallInLoop && caller.pass == 0) {
          caller.pass = 1;
          levels.push_back(Level{At(caller).callee, 0, 0, graph});
          continue;
        }
        caller.pass = 0;
        ++caller.i;
        continue;
      }
      const Stmt& s = body[leaf.i];
      if (graph.dynamo.size() >= 2 && TakesCheckpoints(levels)) leaf.checkpoint = {leaf.i, graph};
      // Under nested graph breaks a callee is traced one level down, in the same graph.
      if (nested_ && IsCall(s) && p_.functions[s.callee].policy == Policy::kNone) {
        compiling_[leaf.f][leaf.i] = true;
        levels.push_back(Level{s.callee, 0, 0, graph});
        continue;
      }
      if (IsDataBranch(s)) {
        compiling_[leaf.f][leaf.i] = true;
        Test(leaf, graph);
        return BreakAtJump(std::move(levels), code, graph);
      }
      if (!IsBreak(s)) {
        Inline(leaf.f, leaf.i, graph);
        ++leaf.i;
        continue;
      }
      if (levels.size() > 1) return NestedBreak(std::move(levels), start, code, s, graph);
      return RootBreak(start, code, levels.back(), s, graph);
    }
    // Reaching the return with no op traced marks the code skipped (SEMANTICS §8.2
    // R-no-ops-skip); fullgraph sends the empty graph instead.
    if (graph.dynamo.empty() && !p_.fullgraph) skipped_.insert(code);
    Emit(graph, code);
  }

  // A resume function's trace of the rest of the data-dependent branch its frame is in:
  // an arm's op, or nothing after a while loop (the frame goes on after the statement;
  // true), or a while loop's body, then its test at the body's end (false: the jump).
  bool InsideBranch(Level& leaf, Graph& graph) {
    const Stmt& s = p_.functions[leaf.f].body[leaf.i];
    switch (leaf.phase) {
      case Phase::kFirstArm:
      case Phase::kElseArm:
        compiling_[leaf.f][leaf.i] = true;
        AddOp(leaf.phase == Phase::kFirstArm ? s.op : s.else_op, graph);
        break;
      case Phase::kLoopBody:
        compiling_[leaf.f][leaf.i] = true;
        AddOp(s.op, graph);
        Test(leaf, graph);
        return false;
      case Phase::kAfterLoop:
      case Phase::kStatement:
        break;
    }
    leaf.phase = Phase::kStatement;
    ++leaf.i;
    return true;
  }

  // The test of the data-dependent branch at statement leaf.i traced: `x.sum() > T` or
  // `x.sum() < T`, whose value Dynamo cannot know; then where the data sends the frame
  // (values.h: this call's branches): an arm, the loop's body while turns are left, or what
  // follows the loop.
  void Test(Level& leaf, Graph& graph) {
    const Stmt& s = p_.functions[leaf.f].body[leaf.i];
    const bool is_if = s.kind == Stmt::Kind::kIfData;
    graph.dynamo.insert(graph.dynamo.end(), {"sum", is_if ? "operator.gt" : "operator.lt"});
    graph.aten.insert(graph.aten.end(),
                      {"aten.sum.default", is_if ? "aten.gt.Scalar" : "aten.lt.Scalar"});
    if (is_if) {
      leaf.phase = branches_.taken[leaf.f][leaf.i] != 0 ? Phase::kFirstArm : Phase::kElseArm;
      return;
    }
    int& turns = turns_left_[leaf.f][leaf.i];
    leaf.phase = turns > 0 ? Phase::kLoopBody : Phase::kAfterLoop;
    if (turns > 0) --turns;
  }

  // A data-dependent jump (R-data-dependent-branch), never inside a loop or try block of
  // its frame or a frame around it: the graph ends at the jump (spec §3.3; under nested
  // graph breaks, in an inlined frame too: §3.4) and every frame resumes, the innermost in
  // the branch where the data sends it. In the classic profile a branch in a callee never
  // gets here inlined: its call breaks its caller (IsBreak), and the callee meets the
  // branch as the root of its own frame. Not counted as a graph break, which the partition
  // does not show.
  void BreakAtJump(std::vector<Level> levels, const std::string& code, Graph& graph) {
    Emit(graph, code);
    Resume(std::move(levels));
  }

  // A break the root frame reaches.
  void RootBreak(const std::vector<Level>& start, const std::string& code, Level& root,
                 const Stmt& s, Graph& graph) {
    switch (s.kind) {
      // A break inside a loop has the loop's backward jump ahead (torch's
      // maybe_has_backedge): the frame is skipped.
      case Stmt::Kind::kSkipFrame:
      case Stmt::Kind::kLoop:
      case Stmt::Kind::kLoopBreak:
      case Stmt::Kind::kCallInLoop:  // its callee's break is the root's, in the loop
        return SkipFrame(start, code);
      // A break that cannot resume (R-step-unsupported, R-step-graph-break): the graph up
      // to the last checkpoint is compiled and the rest runs eagerly; without one the
      // frame is skipped.
      case Stmt::Kind::kStepUnsupported:
      case Stmt::Kind::kTryBreak:
      case Stmt::Kind::kCallInTry:
        if (!root.checkpoint) return SkipFrame(start, code);
        Emit(root.checkpoint->second, code);
        return EagerRun(root.f, root.checkpoint->first);
      case Stmt::Kind::kOp:
      case Stmt::Kind::kCall:
      case Stmt::Kind::kGraphBreak:
      case Stmt::Kind::kIfCompiling:
      case Stmt::Kind::kIfCompilingDiffers:
      case Stmt::Kind::kCallHelper:
      case Stmt::Kind::kIfData:  // never here: BreakAtJump
      case Stmt::Kind::kWhileData:
      case Stmt::Kind::kCount:
        break;
    }
    Emit(graph, code);
    Offer(s);
    Frame(root.f, root.i + 1);  // the resume function
  }

  // The statement the frame at `level` is at: the innermost frame's break, the others'
  // calls.
  const Stmt& At(const Level& level) const { return p_.functions[level.f].body[level.i]; }
  // Frame `d` at a statement in a try block (a break there cannot resume: torch's
  // should_compile_partial_graph) or in a loop (its backward jump ahead: maybe_has_backedge).
  bool InTry(const std::vector<Level>& levels, size_t d) const {
    const Stmt::Kind kind = At(levels[d]).kind;
    return kind == Stmt::Kind::kCallInTry || kind == Stmt::Kind::kTryBreak;
  }
  bool InLoop(const std::vector<Level>& levels, size_t d) const {
    const Stmt::Kind kind = At(levels[d]).kind;
    return kind == Stmt::Kind::kCallInLoop || kind == Stmt::Kind::kLoop ||
           kind == Stmt::Kind::kLoopBreak;
  }
  bool TryAbove(const std::vector<Level>& levels, size_t d) const {
    for (size_t above = 0; above < d; ++above) {
      if (InTry(levels, above)) return true;
    }
    return false;
  }
  bool LoopAtOrAbove(const std::vector<Level>& levels, size_t d) const {
    for (size_t above = 0; above <= d; ++above) {
      if (InLoop(levels, above)) return true;
    }
    return false;
  }
  // Whether the innermost frame takes checkpoints: the root frame does; an inlined one under
  // nested graph breaks when no frame around it, the root included, is in a try block (torch
  // speculates where should_compile_partial_graph holds, which asks every parent; torch
  // 2.13.0 recorded: a step_unsupported() in a callee called in the root's try block skips
  // the root frame, the callee then stepping back as a frame of its own).
  bool TakesCheckpoints(const std::vector<Level>& levels) const {
    return !TryAbove(levels, levels.size() - 1);
  }

  // A break an inlined frame reaches under nested graph breaks (spec §3.4). The frames are
  // asked from the innermost out which one ends the graph, as torch's exception leaves
  // the inlining: a frame that every frame around it lets end a graph at its call (none in a
  // try block above it) does, at the break or at its call of the frame below, unless it or a
  // frame around it is in a loop; a frame in a try block, or below one, steps back to its own
  // checkpoint if it has one and no frame around it is in a try block. skip_frame()'s frame
  // skip is dropped when it leaves its frame, and step_unsupported() steps back to that
  // frame's checkpoint or goes on as an ordinary break. Past every inlined frame, the root
  // frame's call takes the break as its own (RootBreak's rules: a try block steps back or
  // skips the frame, a loop skips it, else it breaks at its call).
  void NestedBreak(std::vector<Level> levels, const std::vector<Level>& start,
                   const std::string& code, const Stmt& s, Graph& graph) {
    const size_t n = levels.size() - 1;
    bool skips = s.kind == Stmt::Kind::kSkipFrame;
    bool steps = s.kind == Stmt::Kind::kStepUnsupported;
    // The deepest frame every frame around which can end a graph at its call.
    size_t deepest = n;
    for (size_t d = 0; d <= n; ++d) {
      if (!InTry(levels, d)) continue;
      deepest = d == 0 ? 0 : d - 1;
      break;
    }
    for (size_t level = n; level >= 1; --level) {
      if (level == n && skips) continue;
      if (level == n && steps) {
        if (levels[n].checkpoint) return StepBack(std::move(levels), n, code);
        continue;
      }
      if (level <= deepest) {
        if (LoopAtOrAbove(levels, level)) continue;
        if (level < n) return BreakAtCallOf(std::move(levels), level + 1, start, code);
        Emit(graph, code);
        Offer(s);
        ++levels.back().i;
        return Resume(std::move(levels));
      }
      if (levels[level].checkpoint && !TryAbove(levels, level))
        return StepBack(std::move(levels), level, code);
    }
    if (InTry(levels, 0))
      return levels[0].checkpoint ? StepBack(std::move(levels), 0, code) : SkipFrame(start, code);
    if (InLoop(levels, 0)) return SkipFrame(start, code);
    BreakAtCallOf(std::move(levels), 1, start, code);
  }

  // The frame at `level` steps back to its checkpoint (R-step-unsupported,
  // R-step-graph-break): the graph up to it is compiled, the rest of that frame runs
  // eagerly, its calls offered, and the frames around it resume after their calls.
  void StepBack(std::vector<Level> levels, size_t level, const std::string& code) {
    Level& frame = levels[level];
    Emit(frame.checkpoint->second, code);
    EagerRun(frame.f, frame.checkpoint->first);
    if (level == 0) return;
    levels.resize(level);
    ++levels.back().i;  // never a call in a loop (checkable.h: nothing below one steps back)
    Resume(std::move(levels));
  }

  // The frame above `callee` breaks at its call of it: the graph as the call began, the
  // callee run eagerly (its frame offered: a fresh call from its start, a frame an earlier
  // nested break resumed as its resume function, whose inner frames, returned by now, are
  // resumed in it), then the caller and the frames around it resume.
  void BreakAtCallOf(std::vector<Level> levels, size_t callee, const std::vector<Level>& start,
                     const std::string& code) {
    Level& called = levels[callee];
    Emit(called.at_entry, code);
    if (called.resumed < 0) {
      Frame(called.f, 0);
    } else {
      Convert(std::vector<Level>(start.begin() + called.resumed, start.end()));
    }
    levels.resize(callee);
    ++levels.back().i;  // a plain call: a loop or try block around it would not end here
    Resume(std::move(levels));
  }

  // After a break every frame still traced resumes: one resume function, the inner frames'
  // calls in it (nested graph breaks), converted as a frame of its own. The innermost frame
  // goes on at its next statement (or where it is in a data-dependent branch), the others
  // after their calls.
  void Resume(std::vector<Level> levels) {
    for (size_t k = 0; k < levels.size(); ++k) {
      const Level& l = levels[k];
      const bool innermost = k + 1 == levels.size();
      Level resumed{l.f, l.i, innermost ? l.i : l.i + 1, Graph{}, static_cast<int>(k)};
      resumed.phase = l.phase;
      levels[k] = std::move(resumed);
    }
    Convert(std::move(levels));
  }

  // The frame is skipped (R-skip-frame): no graph, the code marked, and it runs eagerly.
  void SkipFrame(const std::vector<Level>& start, const std::string& code) {
    frame_skipped_.insert(code);
    RunSkipped(start);
  }

  // A skipped code runs eagerly from its start: a nested resume function calls its inner
  // frames' resume function (a frame offered, converted on its own), then runs the rest of
  // its outermost frame.
  void RunSkipped(const std::vector<Level>& start) {
    if (start.size() > 1) Convert(std::vector<Level>(start.begin() + 1, start.end()));
    EagerRun(start[0].f, start[0].from);
  }

  // Statements `from`... of `f` run eagerly with the callback on: calls are offered.
  void EagerRun(int f, size_t from) {
    const std::vector<Stmt>& body = p_.functions[f].body;
    for (size_t i = from; i < body.size(); ++i) {
      compiling_[f][i] = false;
      Offer(body[i]);
    }
  }

  // The helper's own frame: later calls hit its cache entry (same code, same guards).
  void HelperFrame(int helper) {
    Graph graph{{"torch.tanh"}, {"aten.tanh.default"}};
    Emit(graph, fmt::format("h{}", helper));
  }

  // The call in `s` made from eager code with the callback set: its callee's frame is
  // offered.
  void Offer(const Stmt& s) {
    if (s.kind == Stmt::Kind::kCallHelper) return HelperFrame(s.callee);
    if (!IsCall(s)) return;
    OfferCall(s.callee);
    if (s.kind == Stmt::Kind::kCallInLoop) OfferCall(s.callee);  // the loop's second pass
  }
  void OfferCall(int callee) {
    switch (p_.functions[callee].policy) {
      case Policy::kNone:
      case Policy::kAllowInGraph:
      case Policy::kNonstrictTrace:
        Frame(callee, 0);
        return;               // they rule tracing only
      case Policy::kDisable:  // nothing inside is converted
      case Policy::kCustomOp:
        return;                           // torch disables Dynamo in it
      case Policy::kDisableNonrecursive:  // runs eagerly, its callees offered
        for (const Stmt& inner : p_.functions[callee].body) Offer(inner);
        return;
      case Policy::kCount:
        return;
    }
  }

  // A compiled code's cache entry: the input's size it guards, and K's value where its
  // trace read K (spec §1.2 step 5, SEMANTICS R-global-guard).
  struct Entry {
    int elements;
    std::optional<double> k;
  };

  const Program& p_;
  IdModel ids_;
  Partition out_;
  std::vector<std::vector<bool>> compiling_;         // per statement: is_compiling() there
  std::map<std::string, std::vector<Entry>> cache_;  // per code (CodeOf; h<n>: a helper's)
  std::set<std::string> skipped_;                    // codes (CodeOf) that traced no op
  std::set<std::string> frame_skipped_;              // codes a frame-skipping break skipped
  const bool nested_;  // profile torch-2.13-ngb: config.nested_graph_breaks
  // The call of the entry under way: its input's size, K, how its data-dependent branches
  // go, and the turns each while loop has left.
  int elements_ = 4;
  double k_ = 1.5;
  DataDecisions branches_;
  std::vector<std::vector<int>> turns_left_;
};

}  // namespace

Partition PredictPartition(const Program& program, bool nested_graph_breaks) {
  return Oracle(program, nested_graph_breaks).Run();
}

std::vector<std::vector<bool>> PredictIsCompiling(const Program& program,
                                                  bool nested_graph_breaks) {
  Oracle oracle(program, nested_graph_breaks);
  oracle.Run();
  return oracle.compiling();
}

std::string FormatPartition(const Partition& p) {
  std::string out = p.unsupported ? "Unsupported; " : "";
  for (const auto& g : p.graphs) out += fmt::format("[{}] ", fmt::join(g, " "));
  return out;
}

std::string FormatAtenPartition(const Partition& p) {
  std::string out;
  for (const auto& g : p.aten_graphs) out += fmt::format("[{}] ", fmt::join(g, " "));
  return out;
}

}  // namespace tdc::fuzz
