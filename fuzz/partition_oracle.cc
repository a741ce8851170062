#include "fuzz/partition_oracle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tdc::fuzz {
namespace {

class Oracle {
 public:
  explicit Oracle(const Program& p) : p_(p) {}

  Partition Run() {
    if (p_.fullgraph && Breaks(0)) return {{}, true};
    Frame(0, 0);
    return std::move(out_);
  }

 private:
  bool IsBreakingOp(const Stmt& s) const {
    return s.kind == Stmt::Kind::kOp && s.op == OpKind::kSigmoid && p_.disallow_sigmoid;
  }

  // Whether tracing function `f` inline meets a graph break anywhere (spec §3.3: such a
  // call breaks its caller's graph at the call site in the classic profile).
  bool Breaks(int f) const {
    for (const Stmt& s : p_.functions[f].body) {
      if (s.kind == Stmt::Kind::kGraphBreak || IsBreakingOp(s)) return true;
      if (s.kind == Stmt::Kind::kCall && CallBreaks(s.callee)) return true;
    }
    return false;
  }
  bool CallBreaks(int callee) const {
    switch (p_.functions[callee].policy) {
      case Policy::kNone: return Breaks(callee);
      case Policy::kAllowInGraph: return false;  // one opaque node, its body never traced
      case Policy::kDisable:
      case Policy::kDisableNonrecursive: return true;  // disabled either way: a break at the call
      case Policy::kCount: break;
    }
    return false;
  }

  // The ops of `body` traced inline (no break inside, by Breaks).
  void Inline(const std::vector<Stmt>& body, std::vector<std::string>& graph) const {
    for (const Stmt& s : body) {
      switch (s.kind) {
        case Stmt::Kind::kOp: graph.push_back(OpTarget(s.op)); break;
        case Stmt::Kind::kIfCompiling: graph.push_back("operator.mul"); break;  // True while tracing: x * 2
        case Stmt::Kind::kCall:
          if (p_.functions[s.callee].policy == Policy::kAllowInGraph) {
            graph.push_back(fmt::format("f{}", s.callee));
          } else {
            Inline(p_.functions[s.callee].body, graph);
          }
          break;
        case Stmt::Kind::kGraphBreak:
        case Stmt::Kind::kCount: break;
      }
    }
  }

  void Emit(std::vector<std::string>& graph) {
    // Empty graphs never reach the backend, but under fullgraph (spec §3.2, SEMANTICS §4.2).
    if (!graph.empty() || p_.fullgraph) out_.graphs.push_back(std::move(graph));
    graph.clear();
  }

  bool IsBreak(const Stmt& s) const {
    return s.kind == Stmt::Kind::kGraphBreak || IsBreakingOp(s) || (s.kind == Stmt::Kind::kCall && CallBreaks(s.callee));
  }

  // Function `f` converted as a top-level frame from statement `from` (a resume function
  // when `from` > 0): its graph up to the first break, then the break's call run eagerly,
  // then the rest as a resume function.
  void Frame(int f, size_t from) {
    const std::vector<Stmt>& body = p_.functions[f].body;
    std::vector<std::string> graph;
    for (size_t i = from; i < body.size(); ++i) {
      if (!IsBreak(body[i])) {
        Inline({body[i]}, graph);
        continue;
      }
      Emit(graph);
      if (body[i].kind == Stmt::Kind::kCall) Offer(body[i].callee);
      Frame(f, i + 1);  // the resume function
      return;
    }
    Emit(graph);
  }

  // `callee` called from eager code with the callback set: its frame is offered.
  void Offer(int callee) {
    switch (p_.functions[callee].policy) {
      case Policy::kNone:
      case Policy::kAllowInGraph: Frame(callee, 0); return;  // allow_in_graph rules tracing only
      case Policy::kDisable: return;                         // nothing inside is converted
      case Policy::kDisableNonrecursive:                     // runs eagerly, its callees offered
        for (const Stmt& s : p_.functions[callee].body) {
          if (s.kind == Stmt::Kind::kCall) Offer(s.callee);
        }
        return;
      case Policy::kCount: return;
    }
  }

  const Program& p_;
  Partition out_;
};

}  // namespace

Partition PredictPartition(const Program& program) { return Oracle(program).Run(); }

std::string FormatPartition(const Partition& p) {
  std::string out = p.unsupported ? "Unsupported; " : "";
  for (const auto& g : p.graphs) out += fmt::format("[{}] ", fmt::join(g, " "));
  return out;
}

}  // namespace tdc::fuzz
