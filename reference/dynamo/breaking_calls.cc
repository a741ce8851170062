// Which calls of a traced frame break the graph, and the text torch gives each (spec §1.3,
// §2; SEMANTICS §8.2): graph_break, skip_frame, step_unsupported, nonstrict_trace applied in
// the region, torch's and the standard library's skipped functions, disallowed and disabled
// callables, and the builtins Dynamo has no handler for (object(), print, operator.indexOf).
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/dynamo/skipped_lib_calls.h"
#include "reference/dynamo/variable_repr.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::optional<BreakText> Dynamo::BreakTextOf(const Value& callee, const CallArgs& args) {
  Process& p = in_.process();
  const Value graph_break = p.modules()[ModuleId::kTorchDynamo]->GetAttr("graph_break");
  if (callee == graph_break && rules_.on(Rule::kGraphBreakCall)) {
    std::optional<std::string> msg;
    for (const auto& [k, v] : args.keywords) {
      if (k == "msg" && Is<PyStr>(v)) msg = DynCast<PyStr>(v)->value();
    }
    return GraphBreakCallText(msg, VariableList(args.positional), VariableDict(args.keywords));
  }
  const Value skip_frame = p.modules()[ModuleId::kTorchDynamo]->GetAttr("skip_frame");
  if (callee == skip_frame && rules_.on(Rule::kSkipFrame)) {
    std::string msg;
    for (const auto& [k, v] : args.keywords) {
      if (k == "msg" && Is<PyStr>(v)) msg = DynCast<PyStr>(v)->value();
    }
    if (!args.positional.empty() && Is<PyStr>(args.positional[0]))
      msg = DynCast<PyStr>(args.positional[0])->value();
    auto [name, line] = SkippedFrame();
    return SkipFrameText(msg, VariableList(args.positional), VariableDict(args.keywords), name,
                         in_.frames().back()->program->filename, line);
  }
  if (callee == p.modules()[ModuleId::kTorchDynamo]->GetAttr("step_unsupported") &&
      rules_.on(Rule::kStepUnsupported)) {
    return StepUnsupportedText();
  }
  // nonstrict_trace applied in the region to a function defined there (S23).
  if (callee == p.modules()[ModuleId::kTorchDynamo]->GetAttr("nonstrict_trace") &&
      rules_.on(Rule::kNonstrictNode)) {
    Value fn = args.positional.empty() ? Value() : args.positional[0];
    for (const auto& [k, v] : args.keywords) {
      if (k == "traceable_fn") fn = v;
    }
    if (DefinedInTrace(fn))
      return NonstrictDefinedInsideText(std::string(DynCast<PyFunction>(fn)->name_text()));
  }
  if (std::optional<BreakText> skipped = SkippedLibCallText(callee);
      skipped && rules_.on(Rule::kSkippedLibCall)) {
    return skipped;
  }
  // warnings.warn, the runtime's one builtin of that name.
  if (const auto* b = DynCast<PyBuiltin>(callee);
      b != nullptr && b->name() == "warn" && rules_.on(Rule::kSkippedLibCall)) {
    return SkippedCBuiltinText("_warnings", "warn");
  }
  // torch 2.13.0 traces into custom_op and breaks at torch._library's infer_schema: the
  // frames between are not modeled.
  if (const auto* f = DynCast<PyFunction>(callee); f != nullptr && f->is_native() &&
                                                   ModuleNameOf(*f) == "torch.library" &&
                                                   f->qualname_text() == "custom_op") {
    RefuseNotModeled("torch.library.custom_op called in traced code");
  }
  if (p.compiler.registries.disallowed.contains(callee->id()) && callee != graph_break &&
      rules_.on(Rule::kDisallowedBreak)) {
    if (const auto* b = DynCast<PyBuiltin>(callee)) {
      bool torch_fn = b->name().starts_with("_VariableFunctionsClass.");
      return SkippedBuiltinText(torch_fn ? "torch" : "builtins", b->name(), FunctionReprOf(callee));
    }
    if (const auto* f = DynCast<PyFunction>(callee)) {
      std::string file =
          f->is_native()
              ? "<torch>"
              : std::static_pointer_cast<const Program>(std::get<UserCode>(f->code).keep_alive)
                    ->filename;
      return SkippedFunctionText(std::string(f->name_text()), file, ModuleNameOf(*f),
                                 std::string(f->qualname_text()), FunctionReprOf(callee));
    }
    // A custom op's packet or overload (aten's stay in the graph: disallow_in_graph does
    // nothing for ATen operators, golden names/aten_direct_call).
    if (CustomOpTarget(callee)) {
      return SkippedBuiltinText(InstanceText(callee, "__module__"),
                                InstanceText(callee, "__qualname__"), Repr(callee));
    }
  }
  DisableWrapper wrapper = DisableWrapperOf(callee);
  // A context manager's function wrapper has its function's marks (functools.wraps copies
  // __dict__): torch inlines one the traced code made, its function's call breaking
  // (R-context-wrapper-break); one made before is a user function marked disabled, whose
  // inlining is skipped (probed under torch 2.13.0, golden library/
  // context_wrapper_break_locations).
  if (wrapper != DisableWrapper::kNone && IsContextWrapper(callee)) {
    wrapper = Tracing()->made_context_wrappers.contains(callee.get())
                  ? DisableWrapper::kNone
                  : DisableWrapper::kNonrecursive;
  }
  if (wrapper != DisableWrapper::kNone) {
    Value msg = apis::GetAttrOrNull(in_, callee, runtime::markers::kDisableMsg);
    std::optional<std::string> reason;
    if (msg && Is<PyStr>(msg)) reason = DynCast<PyStr>(msg)->value();
    // The wrapper as functools.wraps made it: the original's __qualname__ (a custom op
    // packet's is its pybind11 function's; golden custom_op/s15_disable_custom_op).
    std::string shown = FunctionReprOf(callee);
    if (wrapper == DisableWrapper::kRecursive && rules_.on(Rule::kDisabledCallBreak)) {
      return DisabledCallText(shown, reason);
    }
    if (wrapper == DisableWrapper::kNonrecursive && rules_.on(Rule::kNonrecursiveBreak)) {
      return SkipInliningText(shown, reason);
    }
  }
  // object(): Dynamo has no handler for the builtin class (probed, upstream decorators/
  // test_patch_dynamo_config_errors); with arguments eager Python raises TypeError instead.
  if (callee.get() == in_.process().types().object().get()) {
    if (!args.positional.empty() || !args.keywords.empty()) {
      RefuseNotModeled("object() with arguments in traced code is not modeled");
    }
    return BuiltinOperatorText("object", "[]", false, "[]");
  }
  // Builtins Dynamo 2.13.0 has no handler for (probed): print, operator.indexOf.
  if (const auto* b = DynCast<PyBuiltin>(callee);
      b != nullptr && (b->name() == "print" || b->name() == "indexOf")) {
    std::vector<std::string> types;
    std::vector<std::string> classes;
    for (const Value& v : args.positional) {
      types.push_back(fmt::format("'{}'", Is<PyTensor>(v) ? "Tensor" : TypeName(v)));
      classes.push_back(VariableClassOf(v));
    }
    return BuiltinOperatorText(b->name(), fmt::format("[{}]", fmt::join(types, ", ")),
                               !args.keywords.empty(),
                               fmt::format("[{}]", fmt::join(classes, ", ")));
  }
  return std::nullopt;
}

}  // namespace tdc::dynamo
