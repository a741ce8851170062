// How a traced frame ends when a graph break cannot resume (spec §2.7, §2.8, §3.3; issue 11):
// the checkpoints a step graph break compiles up to, skipping the frame, stepping back to a
// checkpoint; and the grad-mode nodes with blocks add around breaks.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/liveness.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

const Resumability& Dynamo::ResumabilityOf(const lang::Node& def) {
  return resumability_.try_emplace(&def, def).first->second;
}

void Dynamo::OnStatement(const Frame& frame, const lang::Stmt& stmt) {
  Trace* t = Tracing();
  // torch speculates only once the graph has two calls (is_non_empty_graph: count_calls() > 1).
  // A cache hit runs the frame again without recording: its checkpoints are the compile's.
  if (t == nullptr || in_.frames()[t->root_depth] != &frame || t->graph.call_count() < 2) return;
  if (!ResumabilityOf(*std::get<UserCode>(frame.function->code).def).IsCheckpoint(&stmt)) return;
  t->checkpoint = Trace::Checkpoint{&stmt,    t->graph.mark(), frame.fast, t->root_inlined_calls.size(),
                                    t->reads, t->global_guards.size()};
}

Value Dynamo::StepBreak(const Value& callee, CallArgs args) {
  size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  const Trace::Checkpoint checkpoint = *t.checkpoint;
  const Frame& root = *in_.frames()[t.root_depth];
  const auto& def = lang::As<lang::FunctionDef>(*std::get<UserCode>(root.function->code).def);
  t.graph.Rollback(checkpoint.mark);
  t.reads = checkpoint.reads;
  t.global_guards.resize(checkpoint.global_guards);
  std::vector<Value> live;
  for (const std::string& name : LiveLocalsBefore(*root.scope, def, *checkpoint.stmt)) {
    live.push_back(checkpoint.fast[root.scope->local_slot.at(name)]);
  }
  Emit(t, rules_.on(Rule::kGraphOutputs) ? live : std::vector<Value>{}, checkpoint.stmt->span.begin.line, false);
  Explain("the rest of the frame from the checkpoint runs eagerly, its calls offered to Dynamo");
  std::vector<std::pair<Value, CallArgs>> calls(std::make_move_iterator(t.root_inlined_calls.begin() + checkpoint.calls),
                                                std::make_move_iterator(t.root_inlined_calls.end()));
  contexts_[slot] = nullptr;
  EagerRegion eager(*this, false);
  for (auto& [function, call_args] : calls) in_.Call(function, std::move(call_args));
  return in_.Call(callee, std::move(args));
}

// torch drops the partial graph and runs the skipped code eagerly from its start (its calls
// offered), which the reference does by running the call that began the trace again: a
// skipped root frame is then eager from its first statement (is_compiling() False there),
// a skipped resume function's frame hits its cache entry up to the break that calls it.
// What the abandoned run did to the heap is not undone: an effect other than a tensor op
// before a frame-skipping break happens twice (not modeled; no fixture shows one).
void Dynamo::SkipRootFrame() {
  size_t slot = contexts_.size() - 1;
  Trace& t = *contexts_[slot];
  codes_[t.key].skip = CodeState::Skip::kSkipFrame;
  Explain("the frame is skipped: the partial graph is discarded; its call runs again, the code eagerly from now "
          "on, its calls offered to Dynamo");
  throw RerunFrame{slot};
}

void Dynamo::OnGradModeSet(bool enabled) {
  Trace* t = Tracing();
  if (t != nullptr && t->record) AddGradModeNode(*t, enabled);
}

void Dynamo::AddGradModeNode(Trace& t, bool enabled) {
  if (!rules_.on(Rule::kGradModeContext)) return;
  t.graph.AddCall(graph::NodeOp::kCallFunction, std::string(kSetGradEnabled), CallArgs{{in_.heap().Bool(enabled)}, {}},
                  in_.heap().None(), Fragment{});
}

}  // namespace tdc::dynamo
