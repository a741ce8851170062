#include "fuzz/partition_oracle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <set>

#include "fuzz/id_model.h"

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
    Frame(0, 0);
    // A second identical call hits every cache entry; a new shape fails every shape guard:
    // the same frames compile again, but codes marked skipped are not traced.
    if (p_.new_shape) {
      second_call_ = true;
      converted_helpers_.clear();
      Frame(0, 0);
    }
    // A new K fails the guard of the codes whose trace read it; the others hit an entry.
    if (p_.new_constant) {
      second_call_ = true;
      new_constant_call_ = true;
      Frame(0, 0);
    }
    return std::move(out_);
  }
  const std::vector<std::vector<bool>>& compiling() const { return compiling_; }

 private:
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
        return true;
      case Stmt::Kind::kOp:
      case Stmt::Kind::kLoop:
        return IsBreakingOp(s.op);
      case Stmt::Kind::kCall:
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
    graph.dynamo.push_back(OpTarget(op));
    graph.aten.push_back(AtenTarget(op));
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
      case Stmt::Kind::kCall:
        // An allowed or nonstrict_trace'd function's body runs when the graph runs, not
        // traced by Dynamo; AOT autograd traces through it. A custom op is opaque to both.
        switch (p_.functions[s.callee].policy) {
          case Policy::kAllowInGraph:
            graph.dynamo.push_back(fmt::format("f{}", s.callee));
            AotBody(p_.functions[s.callee].body, graph.aten);
            break;
          case Policy::kNonstrictTrace:  // spec §3.2a fact 3, as torch 2.13.0 spells it
            graph.dynamo.push_back(kFlatApplyCapture);
            graph.dynamo.push_back("operator.getitem");
            AotBody(p_.functions[s.callee].body, graph.aten);
            break;
          case Policy::kCustomOp:
            graph.dynamo.push_back(CustomOpNode(s.callee));
            graph.aten.push_back(CustomOpNode(s.callee));
            break;
          case Policy::kNone:
          case Policy::kDisable:  // a disabled callee breaks (CallBreaks): never inlined
          case Policy::kDisableNonrecursive:
          case Policy::kCount:
            for (size_t j = 0; j < p_.functions[s.callee].body.size(); ++j)
              Inline(s.callee, j, graph);
            break;
        }
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
      case Stmt::Kind::kCount:
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
          aten.push_back(AtenTarget(s.op));
          break;
        case Stmt::Kind::kLoop:
        case Stmt::Kind::kLoopBreak:
          aten.push_back(AtenTarget(s.op));
          aten.push_back(AtenTarget(s.op));
          break;
        case Stmt::Kind::kIfCompiling:
        case Stmt::Kind::kIfCompilingDiffers:
          aten.push_back("aten.mul.Tensor");
          break;
        case Stmt::Kind::kCall:
          if (p_.functions[s.callee].policy == Policy::kCustomOp) {
            aten.push_back(CustomOpNode(s.callee));
          } else {
            AotBody(p_.functions[s.callee].body, aten);
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
      }
    }
  }

  void Emit(Graph& graph) {
    // Under a new K, a code whose entry does not guard K runs its cached graph.
    const bool cache_hit = new_constant_call_ && !graph.reads_k;
    // Empty graphs never reach the backend, but under fullgraph (spec §3.2, SEMANTICS §4.2).
    if (!cache_hit && (!graph.dynamo.empty() || p_.fullgraph)) {
      out_.graphs.push_back(std::move(graph.dynamo));
      out_.aten_graphs.push_back(std::move(graph.aten));
    }
    graph = {};
  }

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
  };
  // The code of a frame converted at `levels` (f@from, a nested resume function's
  // inner frames after it): skip marks and caches are per code.
  static std::string CodeOf(const std::vector<Level>& levels) {
    std::string code;
    for (const Level& l : levels)
      code += fmt::format("{}f{}@{}", code.empty() ? "" : "/", l.f, l.i);
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
    if (second_call_ && skipped_.contains(code)) return;  // the callback is off for it
    if (second_call_ && frame_skipped_.contains(code)) return RunSkipped(start);
    Graph graph;
    for (;;) {
      Level& leaf = levels.back();
      const std::vector<Stmt>& body = p_.functions[leaf.f].body;
      if (leaf.i == body.size()) {  // the function returns to its caller
        if (levels.size() == 1) break;
        levels.pop_back();
        ++levels.back().i;
        continue;
      }
      const Stmt& s = body[leaf.i];
      if (graph.dynamo.size() >= 2) leaf.checkpoint = {leaf.i, graph};
      // Under nested graph breaks a callee is traced one level down, in the same graph.
      if (nested_ && s.kind == Stmt::Kind::kCall &&
          p_.functions[s.callee].policy == Policy::kNone) {
        compiling_[leaf.f][leaf.i] = true;
        levels.push_back(Level{s.callee, 0, 0, graph});
        continue;
      }
      if (!IsBreak(s)) {
        Inline(leaf.f, leaf.i, graph);
        ++leaf.i;
        continue;
      }
      if (levels.size() > 1) return NestedBreak(std::move(levels), start, s, graph);
      return RootBreak(start, code, levels.back(), s, graph);
    }
    // Reaching the return with no op traced marks the code skipped (SEMANTICS §8.2
    // R-no-ops-skip); fullgraph sends the empty graph instead.
    if (graph.dynamo.empty() && !p_.fullgraph) skipped_.insert(code);
    Emit(graph);
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
        return SkipFrame(start, code);
      // A break that cannot resume (R-step-unsupported, R-step-graph-break): the graph up
      // to the last checkpoint is compiled and the rest runs eagerly; without one the
      // frame is skipped.
      case Stmt::Kind::kStepUnsupported:
      case Stmt::Kind::kTryBreak:
        if (!root.checkpoint) return SkipFrame(start, code);
        Emit(root.checkpoint->second);
        return EagerRun(root.f, root.checkpoint->first);
      case Stmt::Kind::kOp:
      case Stmt::Kind::kCall:
      case Stmt::Kind::kGraphBreak:
      case Stmt::Kind::kIfCompiling:
      case Stmt::Kind::kIfCompilingDiffers:
      case Stmt::Kind::kCallHelper:
      case Stmt::Kind::kCount:
        break;
    }
    Emit(graph);
    Offer(s);
    Frame(root.f, root.i + 1);  // the resume function
  }

  // A break an inlined frame reaches under nested graph breaks (spec §3.4): its own frame
  // ends the graph there and every frame resumes, or it goes out to the caller as torch's
  // exception does: skip_frame()'s and a loop's frame skip are dropped when it leaves the
  // inlining, step_unsupported() and a break in a try block step back to the frame's own
  // checkpoint if it has one. The callers are at calls, never in a try block or a loop.
  void NestedBreak(std::vector<Level> levels, const std::vector<Level>& start, const Stmt& s,
                   Graph& graph) {
    Level& leaf = levels.back();
    switch (s.kind) {
      case Stmt::Kind::kSkipFrame:
      case Stmt::Kind::kLoop:
      case Stmt::Kind::kLoopBreak:
        return CallerBreaks(std::move(levels), start);
      case Stmt::Kind::kStepUnsupported:
      case Stmt::Kind::kTryBreak: {
        if (!leaf.checkpoint) return CallerBreaks(std::move(levels), start);
        Emit(leaf.checkpoint->second);
        EagerRun(leaf.f, leaf.checkpoint->first);
        levels.pop_back();
        ++levels.back().i;  // the caller resumes after its call
        return Resume(std::move(levels));
      }
      case Stmt::Kind::kOp:
      case Stmt::Kind::kCall:
      case Stmt::Kind::kGraphBreak:
      case Stmt::Kind::kIfCompiling:
      case Stmt::Kind::kIfCompilingDiffers:
      case Stmt::Kind::kCallHelper:
      case Stmt::Kind::kCount:
        break;
    }
    Emit(graph);
    Offer(s);
    ++leaf.i;
    Resume(std::move(levels));
  }

  // The innermost frame's caller breaks at its call of it: the graph as the call began,
  // the callee run eagerly (its frame offered: a fresh call from its start, a frame an
  // earlier nested break resumed as its resume function, whose inner frames, returned by
  // now, are resumed in it), then the caller resumes.
  void CallerBreaks(std::vector<Level> levels, const std::vector<Level>& start) {
    Level callee = std::move(levels.back());
    levels.pop_back();
    Emit(callee.at_entry);
    if (callee.resumed < 0) {
      Frame(callee.f, 0);
    } else {
      Convert(std::vector<Level>(start.begin() + callee.resumed, start.end()));
    }
    ++levels.back().i;
    Resume(std::move(levels));
  }

  // After a break every frame still traced resumes: one resume function, the inner frames'
  // calls in it (nested graph breaks), converted as a frame of its own. The innermost frame
  // goes on at its next statement, the others after their calls.
  void Resume(std::vector<Level> levels) {
    for (size_t k = 0; k < levels.size(); ++k) {
      const Level& l = levels[k];
      levels[k] =
          Level{l.f, l.i, k + 1 == levels.size() ? l.i : l.i + 1, Graph{}, static_cast<int>(k)};
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

  // The helper's own frame, converted once: later calls hit the cache (same code, same
  // guards).
  void HelperFrame(int helper) {
    if (!converted_helpers_.insert(helper).second || new_constant_call_) return;
    Graph graph{{"torch.tanh"}, {"aten.tanh.default"}};
    Emit(graph);
  }

  // The call in `s` made from eager code with the callback set: its callee's frame is
  // offered.
  void Offer(const Stmt& s) {
    if (s.kind == Stmt::Kind::kCallHelper) return HelperFrame(s.callee);
    if (s.kind != Stmt::Kind::kCall) return;
    const int callee = s.callee;
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

  const Program& p_;
  IdModel ids_;
  Partition out_;
  std::vector<std::vector<bool>> compiling_;  // per statement: is_compiling() there
  std::set<int> converted_helpers_;
  std::set<std::string> skipped_;        // codes (CodeOf) that traced no op
  std::set<std::string> frame_skipped_;  // codes a frame-skipping break skipped
  const bool nested_;                    // profile torch-2.13-ngb: config.nested_graph_breaks
  bool second_call_ = false;             // the new-shape or new-constant call
  bool new_constant_call_ = false;
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
