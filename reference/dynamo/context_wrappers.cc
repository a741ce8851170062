// The function wrappers of context managers (torch.no_grad()(fn), @torch.enable_grad(): torch.
// utils._contextlib's decorate_context) called in traced code, as torch 2.13.0 calls them.
// One made before the trace is inlined: its `with ctx_factory(): return func(*args,
// **kwargs)` is a frame of <torch>/utils/_contextlib.py. One the traced code made is a
// WrappedUserFunctionVariable: under nested graph breaks it is called through
// polyfills._fn_with_ctx (the call on its line 73), otherwise within its caller's frame. The
// reference runs the wrapper as the native function it is; what those frames change is where
// a graph break at the wrapper's own call of its function is located (probed, golden
// upstream/nested_graph_breaks/test_graph_break_in_wrapped_skipped_function and
// library/context_wrapper_break_locations). Their user stacks leave torch's frames out.
#include <optional>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// decorate_context's `return func(*args, **kwargs)`, and _fn_with_ctx's.
constexpr const char* kContextlibFile = "<torch>/utils/_contextlib.py";
constexpr int64_t kContextlibCallLine = 124;
constexpr const char* kPolyfillFile = "<torch>/_dynamo/polyfills/__init__.py";
constexpr int64_t kPolyfillCallLine = 73;

}  // namespace

void Dynamo::OnNewContextWrapper(const Value& wrapper) {
  if (Trace* t = Tracing()) t->made_context_wrappers.insert(wrapper.get());
}

Value Dynamo::ContextWrapperCall(const Value& callee, CallArgs& args) {
  Trace& t = *Tracing();
  const bool made_here = t.made_context_wrappers.contains(callee.get());
  const bool via_polyfill = made_here && NestedGraphBreaks();
  const GraphBuilder::Mark mark = t.graph.mark();
  const Reads::Mark reads = t.reads.mark();
  const size_t global_guards = t.global_guards.size();
  CallArgs saved = args;
  std::optional<WrapperBreak> broke;
  std::optional<graph::FileLine> at;
  if (via_polyfill) {
    at = graph::FileLine{kPolyfillFile, kPolyfillCallLine};
  } else if (!made_here) {
    at = graph::FileLine{kContextlibFile, kContextlibCallLine};
  }
  wrapper_calls_.push_back({in_.frames().size() - 1, std::move(at)});
  try {
    Value result = in_.CallDirect(callee, std::move(args));
    wrapper_calls_.pop_back();
    return result;
  } catch (const WrapperBreak& b) {
    broke = b;
  } catch (...) {
    wrapper_calls_.pop_back();
    throw;
  }
  wrapper_calls_.pop_back();
  // A wrapper around this one at the same call: torch ends the graph at the outermost's call.
  if (!wrapper_calls_.empty() && wrapper_calls_.back().depth + 1 == in_.frames().size()) {
    throw *broke;
  }
  // The break (logged where torch's frame of the wrapper is) ends the graph at the wrapper's
  // call: what the wrapper traced (its context's grad-mode node, reads) is not the graph's,
  // and the wrapper runs eagerly, whole (its context left by the unwinding).
  t.graph.Rollback(mark);
  t.reads.Rollback(reads);
  t.global_guards.resize(global_guards);
  RealizeBreakArguments(t, in_.frames().size() - 1, saved);
  if (broke->step) return StepBreak(callee, std::move(saved));
  return BreakAtCall(callee, std::move(saved), via_polyfill);
}

const Dynamo::WrapperCall* Dynamo::CallByWrapper() const {
  if (wrapper_calls_.empty() || wrapper_calls_.back().depth + 1 != in_.frames().size())
    return nullptr;
  return &wrapper_calls_.back();
}

}  // namespace tdc::dynamo
