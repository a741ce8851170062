// Resume functions (spec §3.3, §3.4; R-resume-function, R-nested-graph-break): the code
// that goes on after a graph break, its values and their sources, its cache key, and the
// trace Dynamo makes of it when it is offered as a frame.
#include <fmt/format.h>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// The context managers whose with blocks are open at a break (their __exit__ waits on the
// stack) with their target values: `no_grad`, `ErrorOnGraphBreakDecoratorContextManager(True)`
// (golden variants/error_on_graph_break__s37_nested__wrap: two resume codes for one line).
// The context manager whose `__exit__` a with block left on the stack, or null.
const PyInstance* OpenContext(const Value& v) {
  const auto* exit = DynCast<PyMethod>(v);
  return exit != nullptr ? DynCast<PyInstance>(exit->self) : nullptr;
}

std::string OpenContexts(const std::vector<Value>& stack) {
  std::string out;
  for (const Value& v : stack) {
    const PyInstance* manager = OpenContext(v);
    if (manager == nullptr) continue;
    Value target = manager->attrs->GetStr("error_on_graph_break");
    out += fmt::format("{}({}) ", manager->type->name,
                       target ? (IsTruthy(target) ? "True" : "False") : "");
  }
  return out;
}

const runtime::Scope& ScopeOfFunction(const PyFunction& function) {
  const auto& code = std::get<UserCode>(function.code);
  return std::static_pointer_cast<const Program>(code.keep_alive)->scopes.Of(code.def);
}

}  // namespace

void Dynamo::CountResumeCodes(const Trace& old, const std::vector<ResumeLevel>& levels) const {
  if (old.cache_hit || levels.empty()) return;
  // A data-dependent branch makes two codes at each level, one per target (probed).
  const int64_t codes = levels.back().call == nullptr ? 2 : 1;
  // Innermost first, as torch makes them (probed: the order of a nested break's keys).
  for (size_t k = levels.size(); k-- > 0;) {
    const ResumeLevel& level = levels[k];
    const bool at_root = k == 0 && level.depth == old.root_depth;
    const std::string co_name = at_root ? old.co_name : CodeName(ScopeOfFunction(*level.function));
    const int64_t line =
        level.call != nullptr ? level.call->span.begin.line : level.stmt->span.begin.line;
    in_.process().compiler.counters.Add(
        "resumes", fmt::format("torch_dynamo_resume_in_{}_at_{}", co_name, line), codes);
  }
}

void Dynamo::StartResume(size_t slot, std::vector<ResumeLevel> levels) {
  bool skipped = false;
  std::unique_ptr<Trace> t = MakeResume(*contexts_[slot], levels, nullptr, &skipped);
  // A nested resume function a frame-skipping break skipped runs eagerly: it calls its
  // inner frames' resume function, which Dynamo is offered as a frame of its own, and the
  // rest of its outermost frame runs eagerly once that returns (R-skip-frame).
  while (t == nullptr && skipped && levels.size() > 1) {
    const std::optional<bool> called_under = levels.front().called_under;
    levels.erase(levels.begin());
    levels.front().called_under = called_under;
    pending_resumes_.push_back({slot, in_.frames()[levels.front().depth], nullptr, {}});
    t = MakeResume(*contexts_[slot], levels, nullptr, &skipped);
  }
  contexts_[slot] = std::move(t);
}

namespace {

// The source through which a nested resume function reads value `i` (its stack's, then its
// live locals') of inner level `k` >= 1: the inner frames' values come in one list, the deepest
// frame's first, after a polyfill frame resuming below the deepest one.
std::string InnerLevelSource(const std::vector<ResumeLevel>& levels, size_t k, size_t i) {
  const size_t below = levels.back().value_from_polyfill ? 1 : 0;
  return fmt::format("L['__nested_frame_values'][{}][{}]", levels.size() - 1 - k + below, i);
}

}  // namespace

std::optional<std::string> Dynamo::ResumedLocalSource(const Trace& t, const Frame& frame,
                                                      const std::string& name) const {
  if (in_.frames()[t.root_depth] == &frame) return fmt::format("L['{}']", name);
  // Levels deeper than waiting_above have returned: another frame may be at their depth.
  for (size_t k = 1; k < t.chain.size(); ++k) {
    const ResumeLevel& level = t.chain[k];
    if (level.depth > t.waiting_above || level.depth >= in_.frames().size() ||
        in_.frames()[level.depth] != &frame) {
      continue;
    }
    const auto live = std::find(level.live.begin(), level.live.end(), name);
    if (live == level.live.end()) return std::nullopt;
    return InnerLevelSource(t.chain, k, level.stack.size() + (live - level.live.begin()));
  }
  return std::nullopt;
}

std::unique_ptr<Trace> Dynamo::MakeResume(const Trace& old, std::vector<ResumeLevel> levels,
                                          GraphBuilder* carried, bool* skipped_frame) {
  const ResumeLevel& outer = levels.front();
  const PyFunction& function = *outer.function;
  const lang::Node& def = *std::get<UserCode>(function.code).def;
  const runtime::Scope& scope = ScopeOfFunction(function);
  CodeKey key{&def, outer.call, OpenContexts(outer.stack)};
  if (outer.call == nullptr) {  // after a data-dependent branch: one code per target
    key.branch = outer.stmt;
    key.branch_target = outer.branch_target;
  }
  // The outermost frame's values are its resume function's arguments (L['___stack0'],
  // L['x']); the inner frames' values are passed in one list, the deepest frame's first
  // (L['__nested_frame_values'][0][1]).
  Sources sources;
  auto add = [&](const ResumeLevel& level, auto name) {
    for (size_t i = 0; i < level.stack.size(); ++i) {
      const bool from_polyfill = level.value_from_polyfill && i + 1 == level.stack.size();
      sources.emplace_back(level.stack[i], from_polyfill
                                               ? std::string("L['__nested_frame_values'][0][1]")
                                               : name(i, fmt::format("___stack{}", i)));
    }
    for (size_t i = 0; i < level.live.size(); ++i) {
      sources.emplace_back(level.values[i], name(level.stack.size() + i, level.live[i]));
    }
  };
  add(outer, [](size_t, const std::string& local) { return fmt::format("L['{}']", local); });
  for (size_t k = 1; k < levels.size(); ++k) {
    const ResumeLevel& level = levels[k];
    key.nested.push_back(level.call);
    if (level.call == nullptr) {  // the innermost frame resumes after a data-dependent branch
      key.branch = level.stmt;
      key.branch_target = level.branch_target;
    }
    key.open_contexts += "| " + OpenContexts(level.stack);
    add(level, [&](size_t i, const std::string&) { return InnerLevelSource(levels, k, i); });
  }
  std::vector<Value> values;
  for (const auto& [v, source] : sources) values.push_back(v);
  const CodeState::Skip skip = code_cache_.Of(key).skip;
  if (skipped_frame != nullptr) *skipped_frame = skip == CodeState::Skip::kSkipFrame;
  if (skip != CodeState::Skip::kNone) return nullptr;
  // Its frame is handed to the callback like any other (counters["frames"]["total"]).
  CountConvertedFrame(key, values, BackendToMatch(*old.callback), *old.callback);
  // Its frame's cells are locals of it too (torch hands a resume function the frame's cells
  // as its closure; has_tensor_in_frame reads f_locals: probed, a branch in a closure reading
  // only its free variable after it compiles the rest).
  std::vector<Value> frame_locals = values;
  if (outer.depth < in_.frames().size() && in_.frames()[outer.depth]->function.get() == &function) {
    for (const Ref<PyCell>& cell : in_.frames()[outer.depth]->cells) {
      frame_locals.push_back(cell->contents);
    }
  }
  if (!HasTensorInFrame(*key.def, function.globals, frame_locals)) {
    code_cache_.Of(key).converted_without_tensors = true;
    return nullptr;
  }
  // The outermost frame resuming may be an inlined one (the frames above it only return
  // its value): its resume function is named after it.
  const bool at_root = outer.depth == old.root_depth;
  const std::string co_name = at_root ? old.co_name : CodeName(scope);
  const std::string qualname = at_root ? old.code_name : CodeQualname(scope);
  const int64_t line = key.resume_line();
  std::string name = fmt::format("torch_dynamo_resume_in_{}_at_{}", co_name, line);
  Explain(fmt::format("{}: the rest of {} after line {}", name, co_name, line));
  // The resume function is called under the grad mode its frame was called under (the
  // root's, or a decorator's context around an inlined frame: upstream
  // nested_graph_breaks/test_graph_break_in_wrapped_enable_grad) and enters the with blocks
  // still open (its first node sets grad mode again).
  const bool inside = in_.process().grad_enabled;
  in_.process().grad_enabled =
      outer.called_under.value_or(at_root ? old.grad_enabled : outer.grad_enabled_at_start);
  std::unique_ptr<Trace> t = NewTrace(key, sources, ResumeQualname(qualname, name), true,
                                      old.callback, BackendToMatch(*old.callback));
  in_.process().grad_enabled = inside;
  // A with block's `__exit__` handed on is not guarded: torch rebuilds the context manager
  // from its target values, which the code key holds (a new bound method each call would
  // fail an id guard; golden upstream/ctx_manager/test_nested_grad_mode_graph_break).
  if (t->record) {
    std::erase_if(t->guards,
                  [&](const GuardedValue& g) { return OpenContext(values[g.index]) != nullptr; });
  }
  CarryContextManagers(old, *t);
  t->co_name = co_name;
  t->globals = function.globals;
  t->root_depth = outer.depth;
  t->folded = old.folded;
  t->at_first_line = old.at_first_line;
  if (outer.depth > old.root_depth + 1) t->folded.emplace_back(old.root_depth + 1, outer.depth - 1);
  // A frame between two resuming ones only returned its callee's value: the outer one's
  // resume function calls the inner one's directly, so user stacks leave it out (golden
  // variants/data_dependent__branch_after_nested_break__wrap).
  for (size_t k = 1; k < levels.size(); ++k) {
    if (levels[k].depth > levels[k - 1].depth + 1)
      t->folded.emplace_back(levels[k - 1].depth + 1, levels[k].depth - 1);
  }
  if (carried != nullptr) {
    t->graph = std::move(*carried);
    std::vector<bool> renamed;
    for (const auto& [v, source] : sources) t->graph.RenameInputs(v, source, renamed);
  } else {
    for (const auto& [v, source] : sources) t->graph.AddInput(v, source);
    if (inside != t->grad_enabled) AddGradModeNode(*t, inside);
    if (!rules_.on(Rule::kPlaceholderFirstUse)) t->graph.UseAllInputs();
  }
  // Its first instructions load the ___stack values back onto the stack: read, guarded once
  // used (probed: `y = (acc[1], g(x))` then `x + y[1]` leaves ___stack0 unguarded).
  for (size_t i = 0; i < outer.stack.size(); ++i) t->reads.ReadLocal(fmt::format("___stack{}", i));
  t->waiting_above = levels.back().depth;
  t->chain = std::move(levels);
  return t;
}

}  // namespace tdc::dynamo
