// A traced tensor's data read as a Python value (R-data-dependent-branch, SEMANTICS §8.2):
// Dynamo's tensors have no data at trace time. A conditional jump of an if or while
// statement's test on one (the test through its `not`s, or an operand of its `and` / `or` /
// ternary: each has a jump of its own) is a graph break at the jump (torch 2.13.0's
// generic_jump, "Data-dependent branching"): the graph outputs the condition, the original
// code jumps on its value, and where it goes on is a resume function of its own (one per
// target, keyed on its place in the code as torch keys them on the offset: a while's jump at
// the end of its body has the same two targets as its first one, so the same two codes).
// bool(t), int(t), float(t) and t.item() calls break the graph at the call before they read
// (scalar_reads.cc); every other read (assert, `and` / `or` or a ternary as a value, an
// int() reached another way) is refused: torch breaks or skips the frame there in ways the
// reference does not model yet.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <map>
#include <set>
#include <utility>

#include "reference/base/py_repr.h"
#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/liveness.h"
#include "reference/dynamo/user_traceback.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

const char* ReadName(TensorDataRead read) {
  switch (read) {
    case TensorDataRead::kBranch:
      return "a conditional jump's test";
    case TensorDataRead::kNot:
      return "`not`";
    case TensorDataRead::kTruth:
      // bool(t) is not one: it is the scalar read scalar_reads.cc breaks on.
      return "a truth test other than a conditional jump's or `not`'s (a chained comparison, "
             "any(), all(), torch.cond's predicate)";
    case TensorDataRead::kInt:
      return "int()";
    case TensorDataRead::kFloat:
      return "float()";
  }
  return "a data read";
}

bool IsReservedFxName(const std::string& name) {
  static const std::set<std::string> reserved = {
#define TDC_FX_RESERVED(name) name,
#include "reference/dynamo/fx_reserved_names.def"
#undef TDC_FX_RESERVED
  };
  return reserved.contains(name);
}

// A name torch.fx takes as it is: lowercase (or, a variable's, any case) letters, digits and
// underscores, not ending in `_<digits>` (which FX reads as a count) nor a dunder.
bool IsPlainFxName(const std::string& name, bool any_case = false) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9') || name.starts_with("__")) return false;
  for (char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (any_case && c >= 'A' && c <= 'Z');
    if (!(letter || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  const size_t underscore = name.rfind('_');
  if (underscore != std::string::npos && underscore + 1 < name.size() &&
      name.find_first_not_of("0123456789", underscore + 1) == std::string::npos) {
    return false;
  }
  return true;
}

// The __name__ of a call_function node's target, where the reference knows it: an operator
// function, a torch builtin reached as `torch.<name>` (torch.linalg.vector_norm's is
// linalg_vector_norm), a torch.nn.functional function or a user function.
std::optional<std::string> FunctionName(const std::string& target) {
  const size_t dot = target.rfind('.');
  const std::string last = dot == std::string::npos ? target : target.substr(dot + 1);
  const std::string module = dot == std::string::npos ? "" : target.substr(0, dot);
  if (module == "operator" || module == "torch" || module == "torch.nn.functional" ||
      module.empty()) {
    return last;
  }
  return std::nullopt;
}

// The FX names of trace `t`'s graph nodes (torch.fx's _Namespace.create_name as each node is
// made, and again as a variable store renames one: Trace::node_renames, in their order);
// nullopt where the reference does not know the name.
std::vector<std::optional<std::string>> FxNames(const Trace& t) {
  std::set<std::string> used;
  std::map<std::string, int64_t> counts;
  auto create = [&](const std::string& base) {
    int64_t num = counts[base];
    std::string candidate = base;
    if (IsReservedFxName(base)) candidate = fmt::format("{}_{}", base, ++num);
    while (used.contains(candidate)) candidate = fmt::format("{}_{}", base, ++num);
    used.insert(candidate);
    counts[base] = num;
    return candidate;
  };
  std::vector<std::optional<std::string>> names;
  auto rename = t.node_renames.begin();
  for (size_t i = 0; i < t.graph.node_count(); ++i) {
    const graph::Node& n = t.graph.node(i);
    std::optional<std::string> base;
    if (n.op == graph::NodeOp::kCallMethod) base = n.target;
    if (n.op == graph::NodeOp::kCallFunction) base = FunctionName(n.target);
    names.push_back(base && IsPlainFxName(*base) ? std::optional(create(*base)) : std::nullopt);
    for (; rename != t.node_renames.end() && rename->after_nodes == i + 1; ++rename) {
      std::optional<std::string>& name = names[rename->node];
      if (name == rename->name) continue;  // Node._rename keeps its own name
      name = IsPlainFxName(rename->name, true) ? std::optional(create(rename->name)) : std::nullopt;
    }
  }
  return names;
}

// A node argument as torch's format_tensor_computation_trace prints it (repr, or a node's
// name); refuses what the reference cannot print.
std::string ArgText(const graph::Arg& a, const std::vector<std::optional<std::string>>& names) {
  using graph::ValueKind;
  if (a.kind == ValueKind::kInt) return std::to_string(a.integer);
  if (a.kind == ValueKind::kFloat) return ReprFloat(a.number);
  if (a.kind == ValueKind::kBool) return a.boolean ? "True" : "False";
  if (a.kind == ValueKind::kNone) return "None";
  if (a.kind == ValueKind::kRef && a.integer >= 0 &&
      static_cast<size_t>(a.integer) < names.size() && names[a.integer]) {
    return *names[a.integer];
  }
  RefuseNotModeled(
      "the computation of a data-dependent branch's condition reads a value the reference "
      "cannot print as torch does (a graph input, a node it cannot name, a container)");
}

std::string Trimmed(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

// Where a user traceback shows an if or while statement's conditional jump: CPython 3.11
// gives the jump a single comparison's position (through any `not`s), any other test's the
// whole statement's; Dynamo's frame summary has no end line, so the carets run to the end of
// the line (probed on 3.11.7: `if y.sum() > 0:` carets `y.sum() > 0:`, `if y.sum():` none;
// `while x.sum() < 5:` carets `x.sum() < 5:`).
SourceSpan JumpPosition(const lang::Stmt& branch, const lang::Expr& peeled) {
  const bool comparison =
      peeled.kind == lang::NodeKind::kCompare && lang::As<lang::Compare>(peeled).ops.size() == 1;
  SourcePos begin = comparison ? peeled.span.begin : branch.span.begin;
  SourcePos end = begin;
  ++end.line;  // no end line: to the end of the line
  end.col = 0;
  return {begin, end};
}

// Sets the branch's position for the scope (a break unwinds through it).
class BranchScope {
 public:
  BranchScope(std::optional<SourceSpan>& slot, SourceSpan at)
      : slot_(slot), saved_(std::exchange(slot, at)) {}
  ~BranchScope() { slot_ = saved_; }
  BranchScope(const BranchScope&) = delete;
  BranchScope& operator=(const BranchScope&) = delete;

 private:
  std::optional<SourceSpan>& slot_;
  std::optional<SourceSpan> saved_;
};

}  // namespace

void Dynamo::OnStoreTensor(const Frame& frame, const std::string& name, const Value& value,
                           bool own_variable) {
  (void)frame;
  Trace* t = Tracing();
  if (t == nullptr) return;
  const std::optional<size_t> node = t->graph.NodeOf(value);
  // A placeholder is named already; a node renamed once keeps that name.
  if (!node || t->graph.node(*node).op == graph::NodeOp::kPlaceholder) return;
  if (*node < t->node_renamed.size() && t->node_renamed[*node]) return;
  if (*node >= t->node_renamed.size()) t->node_renamed.resize(t->graph.node_count());
  t->node_renamed[*node] = true;
  // A nonlocal's store names the node after the cell's own frame variable: not modeled.
  t->node_renames.push_back({*node, own_variable ? name : "", t->graph.node_count()});
}

void Dynamo::NoteNodeOrigins(Trace& t, size_t first) const {
  const size_t depth = in_.frames().size() - 1;
  const Frame& f = *in_.frames()[depth];
  const int64_t line = LineOf(f);
  std::string code = Trimmed(std::string(f.program->Line(line)));
  std::string origin = fmt::format("File \"{}\", line {}, in {}", f.program->filename, line,
                                   CodeOfFrame(depth).first);
  if (!code.empty()) origin += ", code: " + code;
  t.node_origins.resize(first);
  t.node_origins.resize(t.graph.node_count(), origin);
}

std::string Dynamo::ComputationOf(const Trace& t, const Value& cond) const {
  std::optional<size_t> root = t.graph.NodeOf(cond);
  if (!root) {
    RefuseNotModeled(
        "a data-dependent branch on a graph input (torch shows its placeholder in the "
        "explanation)");
  }
  const std::vector<std::optional<std::string>> names = FxNames(t);
  // format_tensor_computation_trace: from the condition's node back through call_function
  // nodes only (at most 20), each shown after the nodes it reads.
  constexpr size_t kMaxBlocks = 20;
  std::vector<std::vector<std::string>> blocks;
  std::set<size_t> visited;
  std::function<void(size_t)> walk = [&](size_t i) {
    if (!visited.insert(i).second) return;
    const graph::Node& n = t.graph.node(i);
    if (n.op != graph::NodeOp::kCallFunction || blocks.size() >= kMaxBlocks) return;
    std::optional<std::string> function = FunctionName(n.target);
    const std::string origin = i < t.node_origins.size() ? t.node_origins[i] : "";
    if (!names[i] || !function || origin.empty()) {
      RefuseNotModeled(fmt::format(
          "the computation of a data-dependent branch's condition has a node `{}` the reference "
          "cannot show as torch does",
          n.target));
    }
    std::vector<std::string> args;
    for (const graph::Arg& a : n.args) args.push_back(ArgText(a, names));
    blocks.push_back(
        {"# " + origin, fmt::format("{} = {}({})", *names[i], *function, fmt::join(args, ", "))});
    for (const graph::Arg& a : n.args) {
      if (a.kind == graph::ValueKind::kRef) walk(static_cast<size_t>(a.integer));
    }
  };
  walk(*root);
  if (blocks.empty()) return "";
  std::string out = "\n\n  The branch condition involves a tensor computed as follows:";
  for (auto block = blocks.rbegin(); block != blocks.rend(); ++block) {
    for (const std::string& line : *block) out += "\n    " + line;
    out += "\n    ";
  }
  return out;
}

std::vector<std::string> Dynamo::BranchHints(const Trace& t, const Value& cond) const {
  std::vector<std::string> hints;
  const Tensor& tensor = DynCast<PyTensor>(cond)->tensor();
  if (tensor.dim() == 0 && (tensor.dtype == DType::kInt32 || tensor.dtype == DType::kInt64)) {
    hints.push_back(
        "The branch condition uses a scalar integer tensor. Consider rewriting the computation "
        "to use plain Python ints (e.g. use int attributes instead of tensor buffers) so the "
        "condition becomes a shape guard instead of data-dependent branching.");
  }
  if (tensor.dim() == 0 && tensor.dtype == DType::kBool) {
    hints.push_back(
        "For the common pattern `if tensor_cond: x = transform(x)` (e.g. clamping inf/nan "
        "values), consider making the code branchless by always applying the transform. "
        "Operations like torch.clamp, torch.nan_to_num, and torch.where are typically no-ops on "
        "well-behaved inputs and compile without graph breaks.");
  }
  if (std::optional<size_t> node = t.graph.NodeOf(cond)) {
    const graph::Node& n = t.graph.node(*node);
    std::optional<std::string> name =
        n.op == graph::NodeOp::kCallMethod ? std::optional(n.target) : FunctionName(n.target);
    if (name &&
        (*name == "any" || *name == "all" || *name == "bitwise_and" || *name == "bitwise_or")) {
      hints.push_back(
          "Note: Python `or`/`and` between tensor expressions (e.g. `tensor.any() or "
          "other_tensor.any()`) triggers implicit bool conversion. Use "
          "`torch.logical_or`/`torch.logical_and` or the `|`/`&` operators instead.");
    }
  }
  return hints;
}

void Dynamo::OnTensorData(const Value& tensor, TensorDataRead read, const lang::Expr* test) {
  if (!rules_.on(Rule::kDataDependentBranch)) return;  // off: decided on the data at trace time
  // AOT autograd traces an allowed function's body on fake tensors, where reading data is
  // an error torch raises.
  if (aot_tracing_ || body_recorder_ != nullptr) {
    RefuseNotModeled(fmt::format(
        "{} on a tensor inside an allowed function's body (AOT autograd traces it on fake "
        "tensors)",
        ReadName(read)));
  }
  Trace* t = Tracing();
  if (t == nullptr) return;  // eager code, or code a trace runs eagerly: its data is there
  if (read == TensorDataRead::kNot && test != nullptr) {
    NotOnTensor(*t, *test);
    return;
  }
  if (read != TensorDataRead::kBranch || test == nullptr) {
    RefuseNotModeled(fmt::format(
        "{} on a traced tensor (torch 2.13.0 breaks the graph or skips the frame there)",
        ReadName(read)));
  }
  const Frame& here = *in_.frames().back();
  // `test` is what the jump tests: a statement's test through its `not`s, one operand of an
  // `and` / `or` or ternary (each has a jump of its own, at its own position).
  const lang::Expr& peeled = *test;
  const JumpSite* site = here.stmt == nullptr || here.function == nullptr
                             ? nullptr
                             : LayoutOf(*std::get<UserCode>(here.function->code).def)
                                   .Jump(peeled, here.in_loop_end_test);
  if (site == nullptr) {
    RefuseNotModeled(
        "a data-dependent jump the reference does not place in its function's code (a "
        "chained comparison's, one in a comprehension)");
  }
  if (site->asserts) {
    AssertAsyncNode(*t, tensor, lang::As<lang::Assert>(*here.stmt));
    return;
  }
  if (DynCast<PyTensor>(tensor)->tensor().numel() != 1) {
    RefuseNotModeled(
        "a data-dependent branch on a tensor without exactly one element (the compiled code "
        "raises RuntimeError at the jump)");
  }
  const lang::Stmt& branch = *here.stmt;
  BranchScope scope(branch_at_, JumpPosition(branch, peeled));
  // The text is logged or raised only where the trace records (a cache hit runs the frame
  // again without recording, its graph's nodes unnamed).
  BreakText text = t->record
                       ? DataDependentBranchText(ComputationOf(*t, tensor), BranchHints(*t, tensor))
                       : DataDependentBranchText("", {});
  // fullgraph=True or error_on_graph_break: Unsupported, as at any break (Break's test).
  const bool error =
      t->record &&
      ((t->callback->fullgraph && rules_.on(Rule::kFullgraphUnsupported)) ||
       (in_.process().compiler.error_on_graph_break && rules_.on(Rule::kErrorOnGraphBreak)));
  // A speculated branch's nodes are named in a subgraph of their own, which the computation
  // the text shows names.
  if (const CondBranch* cond = CurrentCondBranch(); cond != nullptr && cond->speculated) {
    RefuseNotModeled(
        "a data-dependent branch in a branch of torch.cond on a traced predicate (its "
        "subgraph's node names)");
  }
  if (CheckCondBranchBreak(text, false)) {
    RefuseNotModeled("a data-dependent branch in a branch of torch.cond under nested graph breaks");
  }
  if (error) RaiseWithUserCode(ExcType::kUnsupported, FormatBreak(text));
  const size_t innermost = in_.frames().size() - 1;
  if (innermost != t->root_depth) {
    const bool nested = NestedGraphBreaks() && rules_.on(Rule::kNestedGraphBreak);
    // Nested graph breaks: the inlined frame ends the graph at its jump when it and every
    // frame around it can (no try block, no loop).
    if (nested && NestedBreakLevel(*t) < innermost) {
      RefuseNotModeled(
          "a data-dependent branch in an inlined frame inside a try block under nested graph "
          "breaks");
    }
    const bool backedge =
        LayoutOf(*std::get<UserCode>(here.function->code).def).BackedgeAfter(site->at) ||
        BackedgeAtOrAbove(*t, innermost - 1);
    // Under a class statement's context manager no frame there can end the graph: the branch's
    // error unwinds to the calls around it (golden
    // variants/classes__break_under_user_context_manager__wrap).
    auto under_generic = [&]() {
      BreakText probe = text;
      probe.from_inlined_jump = true;
      return UnderGenericContexts(*t, probe).has_value();
    };
    if (nested && !backedge && !under_generic()) {
      BreakAtBranch(*t, tensor, branch, *site, text);
      return;
    }
    // Classic profile, or a loop around the frame under nested graph breaks: the exception
    // leaves the inlined frames, and the root frame breaks at its call of them as at any
    // call's break (counted, reason CALL; a loop's "graph break in loop" chained to it under
    // nested graph breaks); the callee then runs as a frame of its own and meets the branch
    // as its root (goldens data_dependent/if_in_inlined_callee,
    // variants/data_dependent__if_in_loop__wrap).
    if (!rules_.on(Rule::kClassicReattribute)) {
      RefuseNotModeled(
          "a data-dependent branch in an inlined frame with R-classic-reattribute off");
    }
    text.at_jump = false;
    text.from_inlined_jump = true;
    CallArgs none;
    Break(text, in_.heap().None(), none);  // unwinds to the root frame's call
    RefuseNotModeled("a data-dependent branch in an inlined frame that ends no graph");
  }
  BreakAtBranch(*t, tensor, branch, *site, text);
}

void Dynamo::NotOnTensor(Trace& t, const lang::Expr& not_expr) {
  // Under fullgraph torch captures the read as an unbacked scalar and fails to guard on it
  // (probed); error_on_graph_break is not probed.
  if (t.callback->fullgraph || in_.process().compiler.error_on_graph_break) {
    RefuseNotModeled(
        "`not` on a traced tensor under fullgraph or error_on_graph_break (torch captures the "
        "read as an unbacked scalar)");
  }
  SourcePos end = not_expr.span.begin;
  ++end.line;  // Dynamo's frame summary has no end line: to the end of the line
  end.col = 0;
  BranchScope scope(branch_at_, {not_expr.span.begin, end});
  CallArgs none;
  Break(DataDependentOperatorText(), Value(), none);
}

void Dynamo::BreakAtBranch(Trace& t, const Value& cond, const lang::Stmt& branch,
                           const JumpSite& jump, const BreakText& reached) {
  const size_t slot = contexts_.size() - 1;
  const auto& frames = in_.frames();
  const size_t innermost = frames.size() - 1;
  const Frame& f = *frames[innermost];
  // Under a class statement's context manager: Dynamo cannot compile a partial graph, and the
  // branch's own error skips the frame (no "graph break in loop" chained).
  if (BreakText text = reached; UnderGenericContexts(t, text) == t.root_depth) {
    if (t.record) LogBreak(t, text, true, t.root_depth);
    Explain(fmt::format("line {} in {}: {} under a class statement's context manager", LineOf(f),
                        CodeName(*f.scope), text.gb_type));
    SkipRootFrame();
  }
  RefuseBreakAroundClassValues(t);
  const lang::Node& code = *std::get<UserCode>(f.function->code).def;
  if (code.kind != lang::NodeKind::kFunctionDef) {
    RefuseNotModeled("a data-dependent branch outside a def");
  }
  const auto& def = lang::As<lang::FunctionDef>(code);
  const Resumability& shape = ResumabilityOf(def);
  const CodeLayout& layout = LayoutOf(def);
  BreakText text = reached;
  // A loop's backward jump ahead in the root frame: torch cannot resume there and skips the
  // frame ("graph break in loop" chained to the branch's text), whatever checkpoint it has
  // (golden data_dependent/if_in_loop_after_checkpoint).
  if (innermost == t.root_depth && rules_.on(Rule::kStepGraphBreak) &&
      layout.BackedgeAfter(jump.at)) {
    if (t.rerooted) RefuseNotModeled("a data-dependent branch in a loop of a rerooted trace");
    auto [name, line] = SkippedFrame();
    text = LoopBreakText(text, name, f.program->filename, line);
    text.then = BreakText::Then::kSkipFrame;
    if (t.record) LogBreak(t, text, true, t.root_depth);
    Explain(
        fmt::format("line {} in {}: {} in a loop", LineOf(f), CodeName(*f.scope), text.gb_type));
    SkipRootFrame();
  }
  // Not probed: a try block (the frame cannot compile a partial graph there), a with block
  // (its __exit__ on the stack), a rerooted trace.
  if (shape.InTry(&branch) || shape.InWith(&branch) || t.rerooted) {
    RefuseNotModeled(
        "a data-dependent branch inside a try or with block, or in a resume function made by "
        "re-rooting a nested one");
  }
  // The graph outputs the operands waiting on the branch frame's stack, the condition (the
  // jump's operand, on top of them: golden data_dependent/bool_ops_as_values), and the
  // frame's locals live at the jump (at either target), then each outer frame's stack and
  // live locals, as at a call's break (BreakAtCall); each outer frame that does more than
  // return its callee's value resumes.
  const std::vector<Value>& stack = StackAtBreak(t, f);
  std::vector<Value> live(stack.begin(), stack.end());
  live.push_back(cond);
  const std::vector<std::string> names = LiveLocalsAt(*f.scope, layout, jump.at);
  std::vector<Value> values;
  for (const std::string& name : names) values.push_back(f.fast[f.scope->local_slot.at(name)]);
  UseLiveLocals(t, innermost, names, values);
  live.insert(live.end(), values.begin(), values.end());
  const size_t target = jump.Next(IsTruthy(cond));
  // An `and` / `or` operand's jump leaves the value on the stack as the result.
  std::vector<Value> resume_stack = stack;
  if (jump.keeps_value && target == jump.target) resume_stack.push_back(cond);
  ResumeLevel at_branch{innermost, f.function,   nullptr,
                        &branch,   resume_stack, {},
                        {},        target,       f.grad_enabled_at_start};
  at_branch.live = LiveLocalsAt(*f.scope, layout, target);
  for (const std::string& name : at_branch.live)
    at_branch.values.push_back(f.fast[f.scope->local_slot.at(name)]);
  std::vector<ResumeLevel> resuming = {std::move(at_branch)};
  for (size_t depth = innermost; depth-- > t.root_depth;) {
    const Frame& outer = *frames[depth];
    FrameAtCall at = AtCall(t, depth, false);
    const std::vector<Value>& outer_stack = StackAtBreak(t, outer);
    live.insert(live.end(), outer_stack.begin(), outer_stack.end());
    live.insert(live.end(), at.values.begin(), at.values.end());
    if (at.resumes)
      resuming.insert(resuming.begin(), {depth, outer.function, outer.call, outer.stmt, outer_stack,
                                         std::move(at.resume_names), at.resume_values, 0,
                                         outer.grad_enabled_at_start});
  }
  if (in_.process().grad_enabled != t.grad_enabled) AddGradModeNode(t, t.grad_enabled);
  if (t.record) LogBreak(t, text, false, innermost);
  Explain(fmt::format("line {} in {}: {}", LineOf(f), CodeName(*f.scope), text.gb_type));
  Emit(t, rules_.on(Rule::kGraphOutputs) ? live : std::vector<Value>{},
       LineOf(*frames[t.root_depth]), false);
  if (!rules_.on(Rule::kResumeFunction)) {
    contexts_[slot] = nullptr;  // the rest runs as it is
    return;
  }
  // The compiled code jumps on the graph's value: the block the data selects goes on as its
  // resume function, with the locals live there.
  CountResumeCodes(t, resuming);
  StartResume(slot, std::move(resuming));
}

}  // namespace tdc::dynamo
