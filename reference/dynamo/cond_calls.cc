// torch.cond called in traced code (torch 2.13.0's CondHigherOrderVariable, probed): Dynamo
// inlines torch.cond (torch/_higher_order_ops/cond.py), whose `cond_op(pred, true_fn,
// false_fn, operands)` at line 196 is the higher-order op; torch.ops.higher_order.cond
// called directly is the op itself. A Python constant predicate calls the branch it
// selects, inlined; a traced tensor's speculates the true branch, then the false one, into
// subgraphs. A graph break met in a branch, at any depth, is UncapturedHigherOrderOpError
// (its text with "Higher Order Operator: torch.cond" after its first line, the user-code
// traceback through cond.py's frame), whatever fullgraph says (R-hop-branch-break), except
// under nested graph breaks in a constant predicate's branch, where the break ends the graph
// inside the branch as in any inlined callee. The cond node and its subgraphs, for branches
// that trace without a break, are not modeled.
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/user_traceback.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::optional<Dynamo::CondEntry> Dynamo::CondEntryOf(const Value& callee) const {
  if (callee == torch_cond_) return CondEntry::kTorchCond;
  if (const auto* i = DynCast<PyInstance>(callee); i != nullptr && i->type == cond_op_type_) {
    return CondEntry::kOperator;
  }
  return std::nullopt;
}

namespace {

// `result` is a tensor, or a tuple or list of them, none an operand or sharing its storage.
bool FreshTensors(const Value& result, const std::vector<Value>& operands) {
  runtime::CheckStackLeft();
  if (const auto* seq = DynCast<PyTuple>(result)) {
    return std::all_of(seq->items().begin(), seq->items().end(),
                       [&](const Value& v) { return FreshTensors(v, operands); });
  }
  if (const auto* seq = DynCast<PyList>(result)) {
    return std::all_of(seq->items().begin(), seq->items().end(),
                       [&](const Value& v) { return FreshTensors(v, operands); });
  }
  const auto* tensor = DynCast<PyTensor>(result);
  if (tensor == nullptr) return false;
  return std::none_of(operands.begin(), operands.end(), [&](const Value& operand) {
    const auto* other = DynCast<PyTensor>(operand);
    return other != nullptr && tensor->tensor().SharesStorageWith(other->tensor());
  });
}

}  // namespace

std::optional<Value> Dynamo::CondCall(const Value& callee, CallArgs& args) {
  std::optional<CondEntry> entry = CondEntryOf(callee);
  if (!entry) return std::nullopt;
  if (args.positional.size() != 4 || !args.keywords.empty()) {
    RefuseNotModeled("torch.cond in traced code with other than four positional arguments");
  }
  const Value& pred = args.positional[0];
  const Value& operands = args.positional[3];
  if (!Is<PyList>(operands) && !Is<PyTuple>(operands)) {
    RefuseNotModeled("torch.cond in traced code with operands neither a list nor a tuple");
  }
  for (size_t branch = 1; branch <= 2; ++branch) {
    const auto* f = DynCast<PyFunction>(args.positional[branch]);
    if (f == nullptr || f->is_native()) {
      RefuseNotModeled("torch.cond in traced code with a branch that is not a Python function");
    }
  }
  if (InCondBranch()) RefuseNotModeled("torch.cond in a branch of torch.cond in traced code");
  auto run = [&](const Value& branch, bool speculated) {
    CallArgs call{in_.Iterate(operands), {}};
    // Under nested graph breaks a constant predicate's branch is inlined as any callee is: a
    // break in it ends the graph inside it and never reaches the higher-order op.
    const bool nested = !speculated && NestedGraphBreaks() && rules_.on(Rule::kNestedGraphBreak);
    cond_branches_.push_back({Tracing()->serial, in_.frames().size(), *entry, nested, speculated});
    struct Leave {
      std::vector<CondBranch>& branches;
      ~Leave() { branches.pop_back(); }
    } leave{cond_branches_};
    try {
      return InlineCall(branch, branch, call, false);
    } catch (const PyError&) {
      // speculate_subgraph's handling of an exception leaving a branch is not modeled.
      RefuseNotModeled("an exception leaving a branch of torch.cond in traced code");
    }
  };
  // CondHigherOrderVariable tests `type(pred) is ConstantVariable`.
  if (IsPythonConstant(pred)) {
    Explain("torch.cond on a constant predicate: the branch it selects is inlined");
    return run(IsTruthy(pred) ? args.positional[1] : args.positional[2], false);
  }
  if (!Is<PyTensor>(pred)) {
    RefuseNotModeled(fmt::format("torch.cond in traced code with a {} predicate", TypeName(pred)));
  }
  if (!rules_.on(Rule::kHopBranchBreak)) {
    // Off: the branch the predicate's data selects, inlined (the data read as eagerly).
    bool truth = false;
    {
      EagerRegion eager(*this, false);
      truth = IsTruthy(pred);
    }
    return run(truth ? args.positional[1] : args.positional[2], false);
  }
  // CondHigherOrderVariable's checks raise their own errors before or between the branches:
  // what they would find is refused (the operands' contents; after the true branch, its side
  // effects, aliasing and output types).
  const std::vector<Value> operand_values = in_.Iterate(operands);
  for (const Value& v : operand_values) {
    if (!Is<PyTensor>(v) && !IsPythonConstant(v)) {
      RefuseNotModeled(
          "torch.cond on a traced predicate with an operand other than a tensor or "
          "constant (torch's operand check)");
    }
  }
  const size_t changes_before = changes_.size();
  const Value true_result = run(args.positional[1], true);
  if (changes_.size() != changes_before || !FreshTensors(true_result, operand_values)) {
    RefuseNotModeled(
        "a speculated branch of torch.cond that changes an object or returns other than new "
        "tensors (torch's side-effect, aliasing and output checks)");
  }
  run(args.positional[2], true);
  RefuseNotModeled(
      "torch.cond on a traced tensor predicate whose branches trace without a graph break (the "
      "cond node and its branch subgraphs)");
}

const Dynamo::CondBranch* Dynamo::CurrentCondBranch() const {
  if (cond_branches_.empty() || Tracing() == nullptr ||
      cond_branches_.back().trace_serial != Tracing()->serial) {
    return nullptr;
  }
  return &cond_branches_.back();
}

bool Dynamo::InCondBranch() const { return CurrentCondBranch() != nullptr; }

bool Dynamo::CheckCondBranchBreak(const BreakText& text, bool after_call) {
  const CondBranch* branch = CurrentCondBranch();
  if (branch == nullptr || !rules_.on(Rule::kHopBranchBreak)) return false;
  if (text.then == BreakText::Then::kStepUnsupported) {
    RefuseNotModeled("step_unsupported() in a branch of torch.cond");
  }
  if (!branch->nested) RaiseCondBranchBreak(text, after_call);
  return true;
}

void Dynamo::CheckCondBranchEnding(size_t level, bool at_call) const {
  const CondBranch* branch = CurrentCondBranch();
  // A break that nested graph breaks cannot end inside the branch reaches the op (not probed).
  if (branch != nullptr && (!at_call || level < branch->depth)) {
    RefuseNotModeled(
        "a graph break in a branch of torch.cond that nested graph breaks cannot end inside it");
  }
}

void Dynamo::RaiseCondBranchBreak(const BreakText& text, bool after_call) {
  std::string formatted = FormatBreak(text);
  const size_t first_line_end = formatted.find('\n');
  formatted.insert(first_line_end == std::string::npos ? formatted.size() : first_line_end,
                   "\n  Higher Order Operator: torch.cond");
  RaiseWithUserCode(ExcType::kUncapturedHigherOrderOpError,
                    "This higher order operator doesn't work unless it is captured completely "
                    "with torch.compile. Got graph break/error:\n\n" +
                        formatted,
                    after_call, /*callers_after_call=*/true);
}

}  // namespace tdc::dynamo
