// Frame interception (spec §1.2, SEMANTICS §8): which frames Dynamo converts, their frame
// ids and compile ids, the cache that lets a second identical call compile nothing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "reference/dynamo/code_names.h"
#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/guards.h"
#include "reference/lang/ast_fields.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/op_table.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT: the frame logic reads the runtime's objects throughout

namespace {

// The global names a function's code reads (its co_names, less attribute names).
class GlobalNames : public lang::FieldVisitor {
 public:
  std::set<std::string> names;
  void Walk(const lang::Node* node) {
    if (node == nullptr) return;
    if (node->kind == lang::NodeKind::kName) {
      names.insert(lang::As<lang::Name>(*node).id);
      return;
    }
    lang::VisitFields(*node, *this);
  }
  void Child(std::string_view, const lang::Node* child) override { Walk(child); }
  void Children(std::string_view, const lang::NodeList& children) override {
    for (const lang::Node* c : children) Walk(c);
  }
};

// L['x'] sources of a call's arguments (spec §1.3), in the order of the function's
// parameters whatever the call's form, defaults included: torch's frame locals are the
// parameters, a defaulted one holding its default (guarded once read).
std::vector<std::pair<Value, std::string>> ArgumentSources(const lang::Node& def,
                                                           const PyFunction& function,
                                                           const CallArgs& args) {
  const lang::Arguments& params = lang::ParametersOf(def);
  std::vector<std::string> positional;
  for (const auto& a : params.posonlyargs) positional.push_back(a->arg);
  for (const auto& a : params.args) positional.push_back(a->arg);
  std::vector<std::string> keyword_only;
  for (const auto& a : params.kwonlyargs) keyword_only.push_back(a->arg);
  auto keyword = [&](const std::string& name) -> Value {
    for (const auto& [k, v] : args.keywords) {
      if (k == name) return v;
    }
    return nullptr;
  };
  std::vector<std::pair<Value, std::string>> sources;
  // The last parameters take the defaults' last items (a program may set a longer
  // __defaults__).
  const auto* defaults = DynCast<PyTuple>(function.defaults);
  const size_t defaulted = defaults != nullptr ? std::min(defaults->size(), positional.size()) : 0;
  const size_t first_default = positional.size() - defaulted;
  for (size_t i = 0; i < positional.size(); ++i) {
    Value v = i < args.positional.size() ? args.positional[i] : keyword(positional[i]);
    if (!v && i >= first_default) {
      v = defaults->items()[defaults->size() - defaulted + (i - first_default)];
    }
    if (v) sources.emplace_back(v, fmt::format("L['{}']", positional[i]));
  }
  for (size_t i = positional.size(); params.vararg && i < args.positional.size(); ++i) {
    sources.emplace_back(args.positional[i],
                         fmt::format("L['{}'][{}]", params.vararg->arg, i - positional.size()));
  }
  const auto* kwdefaults = DynCast<PyDict>(function.kwdefaults);
  for (const std::string& name : keyword_only) {
    Value v = keyword(name);
    if (!v && kwdefaults != nullptr) v = kwdefaults->GetStr(name);
    if (v) sources.emplace_back(v, fmt::format("L['{}']", name));
  }
  for (const auto& [name, value] : args.keywords) {
    const bool named = std::ranges::find(positional, name) != positional.end() ||
                       std::ranges::find(keyword_only, name) != keyword_only.end();
    if (!named && params.kwarg) {
      sources.emplace_back(value, fmt::format("L['{}']['{}']", params.kwarg->arg, name));
    }
  }
  return sources;
}

}  // namespace

Dynamo::Dynamo(Interpreter& in, const RuleSet& rules, Value recorder, AtenLowering* aten,
               GraphBackend* backend)
    : in_(in), rules_(rules), recorder_(std::move(recorder)), aten_(aten), backend_(backend) {
  Process& p = in.process();
  p.compiler.op_observer = this;
  in.set_frame_hook(this);
  p.compiler.reset_listeners.push_back([this] {
    if (rules_.on(Rule::kReset)) Reset();
  });
  p.compiler.registries.allow_finalizer_deregisters = rules_.on(Rule::kAllowFinalizer);
  p.compiler.set_code_skipped = [this](const lang::Node& def, bool skip) {
    code_cache_.Of(CodeKey{&def}).skip =
        skip ? CodeState::Skip::kSkipFrame : CodeState::Skip::kNone;
  };
  const Modules& modules = p.modules();
  is_compiling_fns_ = {
      modules[ModuleId::kTorchCompiler]->GetAttr("is_compiling"),
      modules[ModuleId::kTorchCompiler]->GetAttr("is_dynamo_compiling"),  // kIsDynamoCompiling
      modules[ModuleId::kTorchDynamo]->GetAttr("is_compiling"),
      modules[ModuleId::kTorchUtils]->GetAttr("is_compiling")};
  torch_cond_ = modules[ModuleId::kTorch]->GetAttr("cond");
  Value ops_cond = in_.GetAttr(in_.GetAttr(modules[ModuleId::kTorchOps], "higher_order"), "cond");
  cond_op_type_ = DynCast<PyInstance>(ops_cond)->type;
}

Dynamo::~Dynamo() {
  in_.set_frame_hook(nullptr);
  in_.process().compiler.set_code_skipped = nullptr;
  in_.process().compiler.op_observer = nullptr;
}

void Dynamo::Reset() { code_cache_.Reset(); }

Trace* Dynamo::Tracing() const { return contexts_.empty() ? nullptr : contexts_.back().get(); }

std::optional<Value> Dynamo::OnCall(const Value& callee, CallArgs& args) {
  if (Tracing() != nullptr) return TraceCall(callee, args);
  if (aot_tracing_) {
    // AOT autograd's trace: is_compiling() is True, is_dynamo_compiling() False (torch
    // 2.13.0, probe in SEMANTICS §9).
    for (size_t i = 0; i < is_compiling_fns_.size(); ++i) {
      if (callee == is_compiling_fns_[i]) return in_.heap().Bool(i != kIsDynamoCompiling);
    }
    if (std::optional<std::string> target = CustomOpTarget(callee);
        target && rules_.on(Rule::kCustomOpNode)) {
      return AotCustomOpCall(callee, args, *target);
    }
    return std::nullopt;
  }
  auto* function = DynCast<PyFunction>(callee);
  if (function == nullptr) return std::nullopt;
  if (!function->is_native()) return RunFrame(Ref<PyFunction>(function), args);
  bool nonrecursive = DisableWrapperOf(callee) == DisableWrapper::kNonrecursive;
  if (nonrecursive && in_.process().compiler.eval_frame_callback &&
      rules_.on(Rule::kNonrecursiveRunOnly)) {
    Value original = apis::GetAttrOrNull(in_, callee, runtime::markers::kOrigCallable);
    auto* target = DynCast<PyFunction>(original);
    if (target != nullptr && !target->is_native())
      return RunFrame(Ref<PyFunction>(target), args, /*run_only=*/true);
  }
  return std::nullopt;
}

void Dynamo::OnLoadLocal(const Frame& frame, const std::string& name) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  const bool root = in_.frames()[t->root_depth] == &frame;
  if (root) t->reads.ReadLocal(name);
  auto slot = frame.scope->local_slot.find(name);
  if (slot == frame.scope->local_slot.end()) return;
  const Value& value = frame.fast[slot->second];
  if (!t->graph.Renamable(value)) return;  // most reads stop here, no source formed
  if (std::optional<std::string> source = ResumedLocalSource(*t, frame, name)) {
    t->graph.ReadThrough(value, *source);
  }
}

void Dynamo::OnLoadCell(const Frame& frame, const std::string& name, const PyCell& cell) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  t->reads.ReadCellOf(cell.id());
  if (in_.frames()[t->root_depth] == &frame) t->reads.ReadLocal(name);
  // A tensor the frame did not receive: an input named by where its cell came from. A cell
  // of the traced frame itself, read from any frame, holds a local of it, L['name'] (its
  // free variables; a resume function's cellvars, which torch hands it: probed, a closure
  // over them called after the break reads L['b'], not L['inner'].__closure__[1]).
  const Frame& root = *in_.frames()[t->root_depth];
  auto own = std::find_if(root.cells.begin(), root.cells.end(),
                          [&](const Ref<PyCell>& c) { return c.get() == &cell; });
  if (own != root.cells.end()) {
    const auto i = static_cast<size_t>(own - root.cells.begin());
    const std::vector<std::string>& cellvars = root.scope->cellvars;
    const std::string& own_name =
        i < cellvars.size() ? cellvars[i] : root.scope->freevars[i - cellvars.size()];
    t->graph.AddInput(cell.contents, fmt::format("L['{}']", own_name));
  } else if (auto known = t->cell_sources.find(cell.id()); known != t->cell_sources.end()) {
    t->graph.AddInput(cell.contents, known->second);
  }
}

namespace {

// A class statement's value the trace may use: a class (guarded by identity wherever it was
// read, as torch's ID_MATCH), an instance among the frame's own arguments (L['name']), its
// module globals or their attributes at any depth, or made by its traced code, and a
// method of its class bound to one. An instance from elsewhere (an inlined function's
// cell, an item of a list) is not modeled yet (their guards).
bool TracedUserValue(const Trace& t, const Value& v) {
  if (Is<PyType>(v)) return true;
  if (const auto* m = DynCast<PyMethod>(v)) {
    const auto* f = DynCast<PyFunction>(m->function);
    return f != nullptr && !f->is_native() && TracedUserValue(t, m->self);
  }
  if (!Is<PyInstance>(v)) return false;
  if (t.made.contains(v.get()) || t.Received(v)) return true;
  // A module global the trace read (G['config']), or an attribute of a frame value or of such
  // a global at any depth (L['model'].encoder): guarded with them, attributes included. Not
  // one in a list item or a closure cell, whose attributes no guard covers.
  auto guarded = [&](const std::vector<GuardedValue>& guards, bool roots) {
    return std::any_of(guards.begin(), guards.end(), [&](const GuardedValue& g) {
      return (roots || !g.attrs.empty()) && g.items.empty() && !g.cell && g.object == v->id();
    });
  };
  if (guarded(t.guards, false)) return true;
  const auto& global_guards = t.global_guards.items();
  return std::any_of(global_guards.begin(), global_guards.end(),
                     [&](const GlobalGuard& g) { return guarded(g.guards, true); });
}

}  // namespace

void Dynamo::OnUse(const Value& v) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  // Hot (every operand): only the kinds a class statement makes are looked at further.
  const ObjectKind kind = v->kind();
  if (kind == ObjectKind::kInstance || kind == ObjectKind::kType || kind == ObjectKind::kMethod) {
    CheckClassValueUse(*t, v);
  }
  if (kind == ObjectKind::kTensor) t->graph.Realize(v);
  t->reads.Use(v->id());
}

void Dynamo::OnItemRead(const Value& container, const Value& key) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  // A tuple's or list's item at an int in range is the one taken out (torch: `acc[0] == 1`
  // guarded, acc[1] not, though it holds the same small int); anything else uses the
  // container as a whole.
  const std::vector<Value>* items = ItemsOf(container);
  const auto* index = DynCast<runtime::PyInt>(key);
  if (items != nullptr && index != nullptr) {
    const auto size = static_cast<int64_t>(items->size());
    const int64_t at = index->value() < 0 ? index->value() + size : index->value();
    if (at >= 0 && at < size) {
      t->reads.ReadItem(container->id(), static_cast<size_t>(at));
      return;
    }
  }
  OnUse(container);
}

void Dynamo::CheckClassValueUse(Trace& t, const Value& v) {
  if (runtime::IsClassMachinery(v)) t.used_class_values = true;
  if (runtime::IsOfUserClass(v)) {
    t.used_class_values = true;
    if (!TracedUserValue(t, v)) {
      RefuseNotModeled(
          fmt::format("{} in traced code is not modeled", runtime::DescribeUserClassValue(v)));
    }
    // Its class's attributes are guarded no further: a store into the class is refused.
    PyType* type = Is<PyType>(v) ? RefCast<PyType>(v).get() : nullptr;
    if (const auto* instance = DynCast<PyInstance>(v)) type = instance->type.get();
    for (PyType* c = type; c != nullptr; c = c->base.get()) c->traced = true;
  }
}

void Dynamo::OnClassAttributeRead(const Value& instance, std::string_view name) {
  if (Trace* t = Tracing()) t->reads.ReadClassAttribute(instance->id(), std::string(name));
}

void Dynamo::OnMissingAttribute(const Value& object, std::string_view name) {
  // An instance the trace made has what the trace gave it: nothing to guard.
  if (const Trace* t = Tracing(); t != nullptr && !t->made.contains(object.get())) {
    RefuseNotModeled(fmt::format(
        "reading the absent attribute '{}' of {} in traced code is not modeled (torch guards "
        "its absence)",
        name, runtime::DescribeUserClassValue(object)));
  }
}

void Dynamo::OnTensorViewProperty(const Value& tensor, std::string_view name) {
  (void)tensor;
  // Dynamo records a `getattr(x, 'T')` node, and rebuilds a returned one from its source
  // instead of outputting it (probed on torch 2.13.0): not modeled.
  if (Tracing() != nullptr) {
    RefuseNotModeled(fmt::format("Tensor.{} in traced code is not modeled", name));
  }
}

void Dynamo::OnMutate(const Value& object) {
  if (contexts_.empty()) {
    changes_.clear();  // no trace is open: no call can be run again
    return;
  }
  changes_.push_back(object.get());
}

void Dynamo::OnStoreAttribute(const Value& object) {
  // A store on an instance the frame received runs now, as torch's replay after the graph
  // leaves it (a graph-computed tensor stored there is refused: AddReplayedStores).
  if (Tracing() != nullptr && Is<runtime::PyType>(object) && runtime::IsOfUserClass(object)) {
    RefuseNotModeled(fmt::format(
        "an attribute store on {} in traced code is not modeled (Dynamo replays it after the "
        "graph)",
        runtime::DescribeUserClassValue(object)));
  }
}

void Dynamo::OnLoadGlobal(const PyDict& globals, const std::string& name, const Value& value) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  std::string source = fmt::format("G['{}']", name);
  t->graph.AddInput(value, source);
  NameClosureCells(*t, value, source);
  if (!rules_.on(Rule::kGlobalGuard)) return;
  if (!t->global_guards.Has(globals, name)) {
    t->global_guards.Add({&globals, name, Guards(value, source, 0)});
  }
}

void Dynamo::NameClosureCells(Trace& t, const Value& v, const std::string& source) {
  const auto* f = DynCast<PyFunction>(v);
  const auto* closure = f != nullptr ? DynCast<PyTuple>(f->closure) : nullptr;
  for (size_t i = 0; closure != nullptr && i < closure->items().size(); ++i) {
    t.cell_sources.emplace(closure->items()[i]->id(),
                           fmt::format("{}.__closure__[{}].cell_contents", source, i));
  }
}

void Dynamo::OnReturn(const Frame& frame, const Value& result) {
  if (Trace* t = Tracing()) {
    const size_t depth = in_.frames().size() - 1;
    if (depth <= t->waiting_above && depth > t->root_depth) {
      t->waiting_above = depth - 1;  // its caller goes on
      t->chain_returns.push_back({depth, t->graph.mark(), result, frame.line,
                                  in_.process().compiler.error_on_graph_break, t->reads.UsedSoFar(),
                                  t->global_guards});
    }
    if (in_.frames()[t->root_depth] == &frame) Emit(*t, {result}, frame.line, /*at_return=*/true);
  }
  ResumeAround(frame, result);
}

void Dynamo::OnTensorOp(const OpCallSite& site, const CallArgs& as_called, const Value& result) {
  Trace* t = Tracing();
  if (t != nullptr) UseArguments(as_called);
  // Tensor.item(), nonzero(): torch breaks the graph there (capture_scalar_outputs and
  // capture_dynamic_output_shape_ops False), which the reference does not model.
  if (t != nullptr && site.op != nullptr && site.op->Has(runtime::kBreaksGraph) &&
      rules_.on(Rule::kDataDependentBranch)) {
    runtime::RefuseNotModeled(
        fmt::format("`{}` on a traced tensor (torch 2.13.0 breaks the graph there)", site.target));
  }
  if (!HoldsTensor(result)) return;
  if (t == nullptr) {
    if (body_recorder_ != nullptr) body_recorder_->Record(site, as_called, result);
    return;
  }
  const size_t first = t->graph.node_count();
  t->graph.AddCall(site.method ? graph::NodeOp::kCallMethod : graph::NodeOp::kCallFunction,
                   std::string(site.target), as_called, result, LowerOp(site, as_called, result),
                   site.accessor);
  NoteNodeOrigins(*t, first);
}

Fragment Dynamo::LowerOp(const OpCallSite& site, const CallArgs& as_called, const Value& result) {
  if (aten_ == nullptr) return Fragment::Unsupported("no ATen lowering was given");
  // A single op's tensors are all graph values: none is foreign.
  std::unique_ptr<FragmentRecorder> recorder =
      aten_->Start(TensorsOf(as_called), ForeignTensor::kConstant);
  recorder->Record(site, as_called, result);
  return recorder->Finish(result);
}

bool Dynamo::HasTensorInFrame(const lang::Node& def, const Value& globals,
                              const std::vector<Value>& values) const {
  if (!rules_.on(Rule::kFrameNoTensor)) return true;
  for (const Value& v : values) {
    if (HoldsTensor(v)) return true;
  }
  // A global the code reads that is torch or one of its modules (has_tensor_in_frame).
  GlobalNames names;
  if (def.kind == lang::NodeKind::kFunctionDef) {
    for (const auto& st : lang::As<lang::FunctionDef>(def).body) names.Walk(st.get());
  } else {
    names.Walk(lang::As<lang::Lambda>(def).body.get());
  }
  const auto* dict = DynCast<PyDict>(globals);
  for (const std::string& name : names.names) {
    const auto* module = DynCast<PyModule>(dict->GetStr(name));
    if (module != nullptr && (module->name() == "torch" || module->name().starts_with("torch.")))
      return true;
  }
  return false;
}

void Dynamo::Explain(std::string text) {
  if (records_.explanation.size() >= kMaxExplanationLines) {
    ++records_.explanation_omitted;
    return;
  }
  records_.explanation.push_back(std::string(2 * contexts_.size(), ' ') + std::move(text));
}

std::string Dynamo::Where(const PyFunction& function) {
  const auto& code = std::get<UserCode>(function.code);
  auto program = std::static_pointer_cast<const Program>(code.keep_alive);
  return fmt::format("{} ({}:{})", CodeQualname(program->scopes.Of(code.def)), program->filename,
                     code.def->span.begin.line);
}

std::unique_ptr<Trace> Dynamo::NewTrace(const CodeKey& key, const Sources& sources,
                                        std::string code_name, bool resume,
                                        std::shared_ptr<const CompileCallback> callback,
                                        const BackendKey& backend) {
  auto t = std::make_unique<Trace>();
  t->callback = std::move(callback);
  t->serial = next_trace_serial_++;
  t->changes_begin = changes_.size();
  t->key = key;
  t->code_name = std::move(code_name);
  t->resume = resume;
  t->grad_enabled = in_.process().grad_enabled;
  t->inputs = sources;
  std::vector<Value> frame_values;
  for (const auto& [v, source] : sources) {
    for (GuardedValue& g : Guards(v, source, frame_values.size()))
      t->guards.push_back(std::move(g));
    NameClosureCells(*t, v, source);
    frame_values.push_back(v);
  }
  if (const CacheEntry* hit = code_cache_.Lookup(key, frame_values, backend)) {
    t->record = false;
    t->cache_hit = true;
    t->cached_invocation = hit->invocation;
    t->cached_ending = hit->ending;
    Explain(fmt::format("{}: cache hit, runs its compiled code", t->code_name));
    return t;
  }
  CodeCache::Compile compile = code_cache_.BeginCompile(key);
  t->compile_id = std::move(compile.id);
  t->recompile = compile.recompile;
  Explain(fmt::format("{}: converting as frame {}{}", t->code_name, t->compile_id,
                      t->recompile ? " (recompile)" : ""));
  return t;
}

void Dynamo::FailOnRecompile(const PyFunction& function, const CodeKey& key,
                             const std::vector<Value>& values) {
  const auto& user = std::get<UserCode>(function.code);
  auto program = std::static_pointer_cast<const Program>(user.keep_alive);
  Raise(in_.heap(), ExcType::kRuntimeError,
        code_cache_.FailOnRecompileMessage(key, program->filename,
                                           CodeName(program->scopes.Of(user.def)),
                                           CodeFirstLine(*user.def), values));
}

void Dynamo::RefuseOtherCallForm(const CodeKey& key, const lang::Node& def,
                                 const Sources& sources) {
  const lang::Arguments& params = lang::ParametersOf(def);
  if (!params.vararg && !params.kwarg) return;  // its values are its parameters, always
  const CodeState* code = code_cache_.Find(key);
  if (code == nullptr) return;
  for (const CacheEntry& entry : code->cache) {
    // Another number of values fails the entry (CodeCache::Failure, torch's len(args) or
    // keys guard); as many from other sources (args[1] for kwargs['flag']) would be compared
    // by position.
    if (entry.input_names.size() != sources.size() ||
        std::equal(
            sources.begin(), sources.end(), entry.input_names.begin(),
            [](const auto& source, const std::string& name) { return source.second == name; })) {
      continue;
    }
    RefuseNotModeled(
        "a compiled function with *args or **kwargs called with other arguments than its "
        "cached code was compiled for (torch's guards on len(args) and the kwargs' keys)");
  }
}

void Dynamo::CountConvertedFrame(const CodeKey& key, const std::vector<Value>& values,
                                 const BackendKey& backend, const CompileCallback& callback) {
  if (callback.fullgraph) return;  // convert_frame_assert, with no ConvertFrame around it
  if (code_cache_.Of(key).converted_without_tensors) return;        // torch skips its code since
  if (code_cache_.Lookup(key, values, backend) != nullptr) return;  // no callback: cached code
  in_.process().compiler.counters.Add("frames", "total");
}

void Dynamo::RefuseIfSuppressed(const CompileCallback& callback, const PyError& error) {
  Value suppress =
      in_.process().modules()[ModuleId::kTorchDynamoConfig]->GetAttr("suppress_errors");
  // ConvertFrame.__call__ lets Unsupported and UserError through as graph breaks, and every
  // error under fullgraph (no ConvertFrame) or error_on_graph_break.
  const bool soft = IsSubclass(error.type(), ExcType::kUnsupported) ||
                    IsSubclass(error.type(), ExcType::kUserError);
  if (!suppress || !IsTruthy(suppress) || callback.fullgraph || soft ||
      in_.process().compiler.error_on_graph_break) {
    return;
  }
  RefuseNotModeled(fmt::format(
      "config.suppress_errors suppressing {} from a frame's conversion (torch runs the frame "
      "eagerly)",
      ExcTypeName(error.type())));
}

void Dynamo::RecompileLimitHit(const CompileCallback& callback, CodeCache::Limit limit) {
  Value fail =
      in_.process().modules()[ModuleId::kTorchDynamoConfig]->GetAttr("fail_on_recompile_limit_hit");
  // What torch raises where accumulated_recompile_limit stops a compile was not probed.
  if (limit == CodeCache::Limit::kAccumulated && ((fail && IsTruthy(fail)) || callback.fullgraph ||
                                                  in_.process().compiler.error_on_graph_break)) {
    RefuseNotModeled(
        "config.accumulated_recompile_limit reached under fail_on_recompile_limit_hit, fullgraph "
        "or error_on_graph_break");
  }
  if (fail && IsTruthy(fail)) {
    Raise(in_.heap(), ExcType::kFailOnRecompileLimitHit,
          "Hard failure due to fail_on_recompile_limit_hit");
  }
  if (callback.fullgraph) {
    Raise(in_.heap(), ExcType::kFailOnRecompileLimitHit, "Hard failure due to fullgraph=True");
  }
  // The Unsupported has no user stack: no "from user code" tail.
  if (in_.process().compiler.error_on_graph_break) {
    Raise(in_.heap(), ExcType::kUnsupported,
          FormatBreak(RecompileLimitText(code_cache_.RecompileLimit())));
  }
}

std::optional<Value> Dynamo::RunFrame(const Ref<PyFunction>& function, CallArgs& args,
                                      bool run_only) {
  std::shared_ptr<const CompileCallback> callback = in_.process().compiler.eval_frame_callback;
  if (!callback) return std::nullopt;
  const auto& code = std::get<UserCode>(function->code);
  CodeKey key{code.def, nullptr};
  const CodeState::Skip skip = code_cache_.Of(key).skip;
  if (skip == CodeState::Skip::kNoOps) {
    // A skipped code runs with the callback off for its whole extent: the frames it
    // calls are not offered either (golden graph_break/no_ops_frame_skipped, wrap).
    Explain(fmt::format(
        "{}: skipped (it traced no op before): runs without the callback, its callees too",
        Where(*function)));
    EagerRegion eager(*this, true);
    return in_.CallDirect(function, std::move(args));
  }
  if (skip == CodeState::Skip::kSkipFrame) {
    // torch 2.12+: a fullgraph=True call that compiles no frame and finds no cached code
    // (spec §2.20 [version]; golden version/fullgraph_no_compiled_frames): the compiled
    // call's own frame, not one met under cached code (its wrap variant).
    if (callback->fullgraph && contexts_.empty() && rules_.on(Rule::kSkipFrame)) {
      Raise(in_.heap(), ExcType::kRuntimeError,
            "torch.compile with fullgraph=True found no compiled frames. Compilation was not "
            "attempted and no cached "
            "compiled code was found.");
    }
    Explain(fmt::format("{}: skipped (a frame-skipping break): runs eagerly, its callees offered",
                        Where(*function)));
    return in_.CallDirect(function, std::move(args));
  }
  std::vector<std::pair<Value, std::string>> sources = ArgumentSources(*code.def, *function, args);
  const Scope& scope =
      std::static_pointer_cast<const Program>(code.keep_alive)->scopes.Of(code.def);
  // The frame's free variables are locals of it too (f_locals): guarded by what they hold,
  // once read and used (torch guards ___check_obj_id(L['func'].__code__) for a closure's
  // function it calls; golden variants/error_on_graph_break__s36_error_on_graph_break__wrap).
  if (const auto* closure = DynCast<PyTuple>(function->closure);
      closure != nullptr && rules_.on(Rule::kClosureGuard)) {
    for (size_t i = 0; i < closure->items().size() && i < scope.freevars.size(); ++i) {
      const auto* cell = DynCast<PyCell>(closure->items()[i]);
      if (cell != nullptr && cell->contents)
        sources.emplace_back(cell->contents, fmt::format("L['{}']", scope.freevars[i]));
    }
  }
  std::vector<Value> values;
  for (const auto& [v, source] : sources) values.push_back(v);
  RefuseOtherCallForm(key, *code.def, sources);
  // The disable(recursive=False) wrapper's callback is False: any backend's entry runs.
  const BackendKey backend = run_only ? BackendKey{} : BackendToMatch(*callback);
  if (run_only && !code_cache_.Lookup(key, values, backend)) {
    Explain(fmt::format(
        "{}: the disable(recursive=False) wrapper's function, no cached code: runs eagerly, "
        "its callees offered to Dynamo",
        Where(*function)));
    return in_.CallDirect(function, std::move(args));
  }
  if (callback->run_only && rules_.on(Rule::kRunOnly) &&
      !code_cache_.Lookup(key, values, backend)) {
    Explain(fmt::format(
        "{}: run-only callback (torch._dynamo.run, eager_on_recompile), no cached code: runs "
        "eagerly",
        Where(*function)));
    return std::nullopt;
  }
  CountConvertedFrame(key, values, backend, *callback);
  if (!always_optimize_.contains(code.def) &&
      !HasTensorInFrame(*code.def, function->globals, values)) {
    code_cache_.Of(key).converted_without_tensors = true;
    Explain(
        fmt::format("{}: not converted (no tensor argument, no torch global)", Where(*function)));
    return std::nullopt;
  }
  if (callback->fail_on_recompile && rules_.on(Rule::kStance) &&
      !code_cache_.Lookup(key, values, backend)) {
    FailOnRecompile(*function, key, values);
  }
  if (const CodeCache::Limit limit = code_cache_.AtRecompileLimit(key);
      limit != CodeCache::Limit::kNone && !code_cache_.Lookup(key, values, backend)) {
    RecompileLimitHit(*callback, limit);
    // torch warns that the frame hit config.recompile_limit and runs this call without
    // the callback: the frames it calls are not converted either (golden
    // variants/guards__recompile_limit__wrap).
    Explain(fmt::format("{}: {} reached: runs without the callback, its callees too",
                        Where(*function),
                        limit == CodeCache::Limit::kAccumulated ? "accumulated_recompile_limit"
                                                                : "recompile_limit"));
    EagerRegion eager(*this, true);
    return in_.CallDirect(function, std::move(args));
  }
  std::unique_ptr<Trace> t = NewTrace(key, sources, CodeQualname(scope), false, callback, backend);
  t->co_name = CodeName(scope);
  t->globals = function->globals;
  t->root_depth = in_.frames().size();
  t->waiting_above = t->root_depth;
  for (const auto& [v, source] : sources) t->graph.AddInput(v, source);
  if (!rules_.on(Rule::kPlaceholderFirstUse)) t->graph.UseAllInputs();
  size_t slot = contexts_.size();
  contexts_.push_back(std::move(t));
  CallArgs again = args;
  {
    struct Pop {
      std::vector<std::unique_ptr<Trace>>& contexts;
      std::vector<PendingResume>& pending;
      size_t slot;
      ~Pop() {
        contexts.resize(slot);
        std::erase_if(pending, [&](const PendingResume& p) { return p.slot >= slot; });
      }
    } pop{contexts_, pending_resumes_, slot};
    try {
      return in_.CallDirect(function, std::move(args));
    } catch (const RerunFrame& rerun) {
      if (rerun.slot != slot) throw;
    } catch (const TraceError& raised) {
      RefuseIfSuppressed(*callback, raised.error);
      throw raised.error;  // raised by the compiled call
    } catch (const PyError& error) {
      RaiseIfObservedUnhandled(error);
      if (!SkipOnObservedException(error, function)) throw;
    } catch (const Restart&) {
      // No inlined call of this trace took the break: a case the reference does not model.
      RefuseNotModeled("a graph break no frame of the trace could end is outside the reference");
    }
  }
  return RunFrame(function, again, run_only);
}

}  // namespace tdc::dynamo
