// What a traced frame does with each call it makes (spec §1.3, SEMANTICS §8): forbidden
// callables abort, disallowed and disabled ones break the graph, allowed ones become one
// node, is_compiling folds to True, user functions and compiled functions are inlined,
// tensor ops are recorded by OnTensorOp as they run.
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

// A function's repr as the goldens normalize it (`<function f at 0x?>`).
std::string FunctionReprOf(const Value& v) {
  if (const auto* f = DynCast<PyFunction>(v))
    return fmt::format("<function {} at 0x?>", f->qualname_text());
  if (const auto* b = DynCast<PyBuiltin>(v)) {
    const std::string& name = b->name();
    if (name.starts_with("_VariableFunctionsClass.")) {
      return fmt::format("<built-in method {} of type object at 0x?>",
                         name.substr(name.find('.') + 1));
    }
    return fmt::format("<built-in function {}>", name);
  }
  return Repr(v);
}

bool Dynamo::Flag(const Value& callee, std::string_view attribute) {
  // A function's marks live in its __dict__ (no mark is a name the function type has): read
  // there, not through GetAttr, whose miss raises an AttributeError, the most costly part of
  // a traced call when every call is checked for its marks (perf/'s fuzz_check scenario).
  Value v = Is<PyFunction>(callee) ? DynCast<PyFunction>(callee)->GetAttr(attribute)
                                   : apis::GetAttrOrNull(in_, callee, attribute);
  return v && Truth(in_, v);
}

Dynamo::DisableWrapper Dynamo::DisableWrapperOf(const Value& callee) {
  if (!Is<PyFunction>(callee) || !Flag(callee, runtime::markers::kDisable)) {
    return DisableWrapper::kNone;
  }
  return Flag(callee, runtime::markers::kDisableRecursive) ? DisableWrapper::kRecursive
                                                           : DisableWrapper::kNonrecursive;
}

std::pair<std::string, int64_t> Dynamo::CodeOfFrame(size_t depth) const {
  const Trace& t = *Tracing();
  const Frame& f = *in_.frames()[depth];
  // A resume function is a code of its own, starting at its break's line; so is each frame
  // a nested resume function resumed (still running under it).
  if (depth == t.root_depth && t.resume) return {NameOfQualname(t.code_name), t.key.resume_line()};
  for (const ResumeLevel& level : t.chain) {
    if (level.depth == depth && depth > t.root_depth && depth <= t.waiting_above) {
      const int64_t line =
          level.call != nullptr ? level.call->span.begin.line : level.stmt->span.begin.line;
      return {fmt::format("torch_dynamo_resume_in_{}_at_{}", CodeName(*f.scope), line), line};
    }
  }
  return {CodeName(*f.scope), CodeFirstLine(*std::get<UserCode>(f.function->code).def)};
}

std::pair<std::string, int64_t> Dynamo::SkippedFrame() const {
  return CodeOfFrame(in_.frames().size() - 1);
}

int64_t Dynamo::FirstLineOf(const Trace& t) const {
  if (t.resume) return t.key.resume_line();
  return CodeFirstLine(*std::get<UserCode>(in_.frames()[t.root_depth]->function->code).def);
}

void Dynamo::UseArguments(const CallArgs& args) {
  for (const Value& v : args.positional) in_.Use(v);
  for (const auto& [name, v] : args.keywords) in_.Use(v);
}

std::optional<Value> Dynamo::TraceCall(const Value& callee, CallArgs& args) {
  in_.Use(callee);  // calling realizes the callee; only an inlined call leaves its arguments lazy
  if (callee->kind() == ObjectKind::kMethod) CheckUserContextExit(callee, args);
  // VariableBuilder's id dispatch comes first: the polyfill replaces the callee whatever
  // else marks it.
  if (std::optional<Value> result = PolyfilledCall(callee, args)) return result;
  if (std::optional<Value> result = CondCall(callee, args)) return result;
  if (rules_.on(Rule::kForbidden) && Flag(callee, runtime::markers::kForbidden)) {
    Explain(fmt::format("{} is forbid_in_graph'd: tracing it is an error", FunctionReprOf(callee)));
    RaiseWithUserCode(ExcType::kAssertionError, ForbiddenCallableMessage(FunctionReprOf(callee)));
  }
  if (callee == in_.process().modules()[ModuleId::kTorchDynamo]->GetAttr("error_on_graph_break") &&
      rules_.on(Rule::kErrorOnGraphBreak)) {
    CheckErrorOnGraphBreakCall(args);
  }
  if (IsPatchDynamoConfig(callee)) return TracePatchDynamoConfigCall(callee, args);
  if (std::optional<Value> read = ScalarReadBreak(callee, args)) return read;
  if (std::optional<BreakText> text = BreakTextOf(callee, args)) {
    RealizeBreakArguments(*Tracing(), in_.frames().size() - 1, args);
    return Break(*text, callee, args);
  }
  if (rules_.on(Rule::kIsCompilingFold)) {
    for (const Value& fn : is_compiling_fns_) {
      if (callee == fn) return in_.heap().True();
    }
  }
  if (!Is<PyFunction>(callee) || DynCast<PyFunction>(callee)->is_native()) UseArguments(args);
  if (const auto* b = DynCast<PyBuiltin>(callee); b != nullptr) {
    bool two_tensors = args.positional.size() == 2 && args.keywords.empty() &&
                       Is<PyTensor>(args.positional[0]) && Is<PyTensor>(args.positional[1]);
    bool extreme = two_tensors && (b->name() == "max" || b->name() == "min");
    if (extreme && rules_.on(Rule::kBuiltinRewrites))
      return TensorExtreme(callee, args, b->name() == "max" ? "torch.maximum" : "torch.minimum");
    // Off: the builtin runs as eager code does, comparing the tensors' data to pick one (no
    // data-dependent break: the fallback of the switch).
    if (extreme) {
      EagerRegion eager(*this, true);
      return in_.CallDirect(callee, std::move(args));
    }
  }
  if (std::optional<std::string> target = CustomOpTarget(callee);
      target && rules_.on(Rule::kCustomOpNode)) {
    Explain(fmt::format(
        "{} is a custom op: one node at both levels, its implementation run eagerly", *target));
    return CustomOpCall(callee, args, *target);
  }
  if (std::optional<Value> made = MakeContextManager(callee, args)) return made;
  auto* function = DynCast<PyFunction>(callee);
  if (function == nullptr)
    return std::nullopt;  // builtins, tensor ops: run, recorded by OnTensorOp
  if (!function->is_native() && Flag(callee, runtime::markers::kMarkedConstant)) {
    return AssumedConstantCall(callee, args);
  }
  if (in_.process().compiler.registries.nonstrict_trace.contains(callee->id()) &&
      rules_.on(Rule::kNonstrictNode)) {
    UseArguments(args);
    Explain(fmt::format(
        "{} is nonstrict_trace'd: one flat_apply_capture node, traced through by AOT autograd",
        FunctionReprOf(callee)));
    return NonstrictCall(callee, args);
  }
  if (!function->is_native()) {
    if (in_.process().compiler.registries.allowed.contains(callee->id()) &&
        rules_.on(Rule::kAllowedNode)) {
      UseArguments(args);
      Explain(fmt::format("{} is allow_in_graph'd: one call_function node, its body not traced",
                          Where(*function)));
      return AllowedCall(callee, args);
    }
    if (!rules_.on(Rule::kInlineUser))
      return Break(GraphBreakCallText(std::nullopt, "[]", "{}"), callee, args);
    return InlineCall(callee, callee, args, false);
  }
  if (IsContextWrapper(callee)) return ContextWrapperCall(callee, args);
  if (Value inline_target = apis::GetAttrOrNull(in_, callee, runtime::markers::kInline)) {
    if (rules_.on(Rule::kInlineCompiled)) return InlineCall(callee, inline_target, args, true);
  }
  return std::nullopt;
}

Value Dynamo::InlineCall(const Value& callee, const Value& function, CallArgs& args,
                         bool through_compile_wrapper) {
  Trace& t = *Tracing();
  size_t depth = in_.frames().size() - 1;  // the calling frame
  if (through_compile_wrapper) inlined_compiled_.insert(depth + 1);
  struct Forget {
    std::set<size_t>& depths;
    size_t depth;
    bool on;
    ~Forget() {
      if (on) depths.erase(depth);
    }
  } forget{inlined_compiled_, depth + 1, through_compile_wrapper};
  // The callee's frame is new: no checkpoint of it yet.
  if (t.checkpoints.size() > depth + 1 - t.root_depth)
    t.checkpoints.resize(depth + 1 - t.root_depth);
  const size_t call_index = t.inlined_calls.size();
  const size_t changes_begin = changes_.size();
  t.inlined_calls.push_back({depth, function, args, LineOf(*in_.frames()[depth]), changes_begin});
  // What the call changed ends where it returns (the trace may be another's by then).
  auto returned = [&](Value result) {
    if (Tracing() == &t && t.inlined_calls.size() > call_index)
      t.inlined_calls[call_index].changes_end = changes_.size();
    return result;
  };
  // A method's self or a wrapper's own parameters are not the call's arguments.
  if (callee == function && !through_compile_wrapper)
    NoteBoundFrom(t, depth, *RefCast<PyFunction>(function));
  // A break in the callee can end the graph at this call: the root frame's (classic), or
  // under nested graph breaks any inlined frame's (R-nested-graph-break), whatever the
  // config says when the call begins (disable_nested_graph_breaks turns it off within).
  if (!rules_.on(Rule::kClassicReattribute))
    return returned(in_.CallDirect(function, std::move(args)));
  GraphBuilder::Mark mark = t.graph.mark();
  const Reads::Mark reads = t.reads.mark();
  const size_t global_guards = t.global_guards.size();
  const uint64_t serial = t.serial;
  CallArgs saved = args;
  // The inlining is abandoned (torch traces the frame again): what it read (values,
  // globals) is not guarded (the unwinding ran the callee's with-block exits, so grad mode
  // and error_on_graph_break are what they were), and the call's arguments are realized as
  // any break's are.
  auto abandon = [&] {
    // The break runs the call again.
    RefuseChangedTwice({depth, function, saved, 0, changes_begin});
    t.graph.Rollback(mark);
    t.reads.Rollback(reads);
    t.global_guards.resize(global_guards);
    RealizeBreakArguments(t, depth, saved);
  };
  try {
    return returned(in_.CallDirect(function, std::move(args)));
  } catch (const Restart& restart) {
    if (restart.depth != depth) throw;
    // A nested break replaced this call's trace by a resume function's, in which this
    // frame's call is a call of its inner resume function: not modeled.
    if (Tracing() == nullptr || Tracing()->serial != serial) {
      RefuseNotModeled(
          "a graph break ending the graph at a call that a nested graph break resumed");
    }
    abandon();  // the break inside the callee ends the graph at this call (R-classic-reattribute)
    if (!restart.step) return BreakAtCall(callee, std::move(saved));
    t.inlined_calls.resize(call_index);  // stepping back runs this call once, as the break's
    return StepBreak(callee, std::move(saved));
  }
}

Dynamo::EagerRegion::EagerRegion(Dynamo& d, bool no_callback) : d_(d), no_callback_(no_callback) {
  d_.contexts_.push_back(nullptr);
  if (no_callback_) saved_ = std::exchange(d_.in_.process().compiler.eval_frame_callback, nullptr);
}

Dynamo::EagerRegion::~EagerRegion() {
  if (no_callback_) d_.in_.process().compiler.eval_frame_callback = std::move(saved_);
  d_.contexts_.pop_back();
}

Value Dynamo::TensorExtreme(const Value& callee, CallArgs& args, const char* target) {
  CallArgs as_called = args;
  Value picked;
  {
    EagerRegion eager(*this, true);
    picked = in_.CallDirect(callee, std::move(args));
  }
  // A new tensor: the node's value is not either input object.
  Value result = in_.heap().NewTensor(DynCast<PyTensor>(picked)->tensor());
  Tracing()->graph.AddCall(graph::NodeOp::kCallFunction, target, as_called, result,
                           LowerOp({false, target}, as_called, result));
  return result;
}

Value Dynamo::AllowedCall(const Value& callee, CallArgs& args) {
  CallArgs as_called = args;
  Trace& t = *Tracing();
  const size_t call_index = t.inlined_calls.size();
  t.inlined_calls.push_back(
      {in_.frames().size() - 1, callee, args, LineOf(*in_.frames().back()), changes_.size()});
  Value result;
  {
    // The body runs inside the graph: no frame of it is offered to Dynamo.
    EagerRegion eager(*this, true);
    result = in_.CallDirect(callee, std::move(args));
  }
  if (t.inlined_calls.size() > call_index)
    t.inlined_calls[call_index].changes_end = changes_.size();
  Tracing()->graph.AddCall(graph::NodeOp::kCallFunction,
                           std::string(DynCast<PyFunction>(callee)->qualname_text()), as_called,
                           result, AotTrace(callee, as_called, ForeignTensor::kRefuse), false, {},
                           OpaqueCall{callee, as_called});
  return result;
}

Fragment Dynamo::AotTrace(const Value& callee, const CallArgs& args, ForeignTensor foreign) {
  if (aten_ == nullptr) return Fragment::Unsupported("no ATen lowering was given");
  // AOT autograd traces through the body by running it again, with is_compiling() True
  // (is_dynamo_compiling() False): its ops are the node's fragment.
  std::unique_ptr<FragmentRecorder> body = aten_->Start(TensorsOf(args), foreign);
  EagerRegion eager(*this, true);
  struct Restore {
    Dynamo& d;
    FragmentRecorder* saved;
    ~Restore() {
      d.body_recorder_ = saved;
      d.aot_tracing_ = false;
    }
  } restore{*this, std::exchange(body_recorder_, body.get())};
  aot_tracing_ = true;
  try {
    Value traced = in_.CallDirect(callee, CallArgs(args));
    return body->Finish(traced);
  } catch (const runtime::PyError&) {
    return Fragment::Unsupported("an allowed function that raises when AOT autograd traces it");
  }
}

}  // namespace tdc::dynamo
