// torch.compile (torch/__init__.py of torch 2.13.0): the keyword checks and backend
// validation run, then torch._dynamo.optimize returns a _NullDecorator, which hands back the
// model itself, when disable=True or TORCHDYNAMO_DISABLE is "1" (always in the eager run).
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/os_environ.h"

namespace tdc::runtime {
namespace {

using apis::Param;

const std::vector<Param>& CompileParams() {
  static const std::vector<Param> params = {{"model", true},
                                            {"fullgraph", true, true},
                                            {"dynamic", true, true},
                                            {"backend", true, true},
                                            {"mode", true, true},
                                            {"options", true, true},
                                            {"name", true, true},
                                            {"disable", true, true},
                                            {"recompile_limit", true, true},
                                            {"isolate_recompiles", true, true},
                                            {"shapes_spec", true, true}};
  return params;
}
enum Arg {
  kModel,
  kFullgraph,
  kDynamic,
  kBackend,
  kMode,
  kOptions,
  kName,
  kDisable,
  kRecompileLimit,
  kIsolate,
  kShapesSpec,
  kArgCount
};

constexpr const char* kBackends[] = {"aot_eager",
                                     "aot_eager_decomp_partition",
                                     "aot_eager_decomp_partition_crossref",
                                     "aot_eager_decomp_partition_with_mode",
                                     "aot_eager_default_partitioner",
                                     "aot_ts",
                                     "cudagraphs",
                                     "dynamo_accuracy_minifier_backend",
                                     "dynamo_minifier_backend",
                                     "eager",
                                     "eager_debug",
                                     "eager_noexcept",
                                     "inductor",
                                     "invoke_subgraph",
                                     "non_leaf_compile_error_TESTING_ONLY",
                                     "openxla",
                                     "openxla_eval",
                                     "pre_dispatch_eager",
                                     "relu_accuracy_error_TESTING_ONLY",
                                     "relu_compile_error_TESTING_ONLY",
                                     "relu_runtime_error_TESTING_ONLY",
                                     "ts",
                                     "tvm"};

bool IsStr(const Value& v, std::string_view text) {
  const auto* s = DynCast<PyStr>(v);
  return s != nullptr && s->value() == text;
}

// _TorchCompileInductorWrapper.apply_options checks every option against inductor's
// config; the reference does not model inductor's configuration (SEMANTICS §7.2).
void ApplyInductorOptions(Interpreter& in, const Value& options) {
  if (!options || !Truth(in, options)) return;
  RefuseNotModeled("torch.compile(options=...) with the inductor backend is outside the reference");
}

Value Compile(Interpreter& in, std::vector<Value> a) {
  Heap& h = in.heap();
  if (!a[kBackend] || a[kBackend] == h.None()) a[kBackend] = h.Intern("inductor");
  const Value& model = a[kModel];
  if (!model || model == h.None()) {
    // Decorator mode: fn closes over every keyword (co_freevars sorted by name; the cells
    // are made in parameter order when compile's frame starts).
    std::vector<Ref<PyCell>> cells(kArgCount);
    for (int i = kFullgraph; i < kArgCount; ++i) cells[i] = h.NewCell(a[i] ? a[i] : h.None());
    if (!a[kFullgraph]) cells[kFullgraph]->contents = h.False();
    if (!a[kDisable]) cells[kDisable]->contents = h.False();
    if (!a[kIsolate]) cells[kIsolate]->contents = h.False();
    Ref<PyTuple> closure = h.NewTuple(
        {cells[kBackend], cells[kDisable], cells[kDynamic], cells[kFullgraph], cells[kIsolate],
         cells[kMode], cells[kName], cells[kOptions], cells[kRecompileLimit], cells[kShapesSpec]});
    return apis::MakeLibFunction(
        in, apis::LibGlobals(in, "torch"), "compile.<locals>.fn",
        [&in](PyFunction& me, CallArgs& args) -> Value {
          std::vector<Value> bound = apis::BindParams(in, "compile.<locals>.fn", {{"model"}}, args);
          if (bound[0] == in.heap().None())
            Raise(in.heap(), ExcType::kRuntimeError, "Model can't be None");
          const auto& c = DynCast<PyTuple>(me.closure)->items();
          auto cell = [&](size_t i) { return DynCast<PyCell>(c[i])->contents; };
          std::vector<Value> b(kArgCount);
          b[kModel] = bound[0];
          b[kBackend] = cell(0);
          b[kDisable] = cell(1);
          b[kDynamic] = cell(2);
          b[kFullgraph] = cell(3);
          b[kIsolate] = cell(4);
          b[kMode] = cell(5);
          b[kName] = cell(6);
          b[kOptions] = cell(7);
          b[kRecompileLimit] = cell(8);
          b[kShapesSpec] = cell(9);
          return Compile(in, std::move(b));
        },
        closure);
  }
  Value mode = a[kMode] ? a[kMode] : h.None();
  Value options = a[kOptions] ? a[kOptions] : h.None();
  if (mode != h.None() && options != h.None()) {
    Raise(h, ExcType::kRuntimeError,
          "Either mode or options can be specified, but both can't be specified at the same time.");
  }
  if (mode == h.None() && options == h.None()) mode = h.Intern("default");
  if (auto* dict = DynCast<PyDict>(options); dict != nullptr && dict->size() > 0) {
    dict->EraseStr("guard_filter_fn");
    dict->EraseStr("use_aoti");
  }
  const Value& backend = a[kBackend];
  if (IsStr(backend, "inductor")) {
    if (Truth(in, mode) && !IsStr(mode, "default")) {
      static constexpr const char* kModes[] = {"default", "lite", "reduce-overhead",
                                               "max-autotune-no-cudagraphs", "max-autotune"};
      bool known = false;
      for (const char* m : kModes) known = known || IsStr(mode, m);
      if (!known) {
        Raise(h, ExcType::kRuntimeError,
              fmt::format("Unrecognized mode={}, should be one of: default, lite, reduce-overhead, "
                          "max-autotune-no-cudagraphs, max-autotune",
                          Str(mode)));
      }
    }
    ApplyInductorOptions(in, options);
  } else if (const auto* s = DynCast<PyStr>(backend)) {
    bool known = false;
    for (const char* b : kBackends) known = known || s->value() == b;
    if (!known) {
      Raise(
          h, ExcType::kInvalidBackend,
          fmt::format(
              "Invalid backend: '{}', see `torch._dynamo.list_backends()` for available backends.",
              s->value()));
    }
  }
  // torch._dynamo.optimize(...) is a _NullDecorator under TORCHDYNAMO_DISABLE=1.
  if (!apis::IsCallable(in, model)) {
    Raise(h, ExcType::kAssertionError,
          fmt::format("A callable function is expected, but {} is provided.",
                      apis::TypeRepr(in, model)));
  }
  const bool disable = a[kDisable] && Truth(in, a[kDisable]);
  if (!disable && !DynamoDisabledByEnviron(in)) {
    CompileCallback callback{backend, a[kFullgraph] && Truth(in, a[kFullgraph])};
    return in.process().compiler.make_compile_wrapper(model, std::move(callback));
  }
  return model;
}

}  // namespace

void InstallCompileApi(Interpreter& in) {
  PyModule& torch = *in.process().modules()[ModuleId::kTorch];
  torch.SetAttr("compile", apis::MakeLibFunction(in, apis::LibGlobals(in, "torch"), "compile",
                                                 [&in](PyFunction&, CallArgs& args) -> Value {
                                                   return Compile(
                                                       in, apis::BindParams(in, "compile",
                                                                            CompileParams(), args));
                                                 }));
}

}  // namespace tdc::runtime
