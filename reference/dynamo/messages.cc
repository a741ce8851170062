#include "reference/dynamo/messages.h"

#include <fmt/format.h>

#include <algorithm>

namespace tdc::dynamo {

BreakText GraphBreakCallText(const std::optional<std::string>& keyword_msg,
                             const std::string& args_repr, const std::string& kwargs_repr) {
  return {
      "gb0025",
      "Call to `torch._dynamo.graph_break()`",
      fmt::format("User-inserted graph break. Message: {}", keyword_msg ? *keyword_msg : "None"),
      {"Remove the `torch._dynamo.graph_break()` call."},
      fmt::format("Called `torch._dynamo.graph_break()` with args `{}`, kwargs `{}`", args_repr,
                  kwargs_repr)};
}

BreakText SkipFrameText(const std::string& msg, const std::string& args_repr,
                        const std::string& kwargs_repr, const std::string& frame,
                        const std::string& file, int64_t line) {
  BreakText text{
      "gb4297",
      "Call to `torch._dynamo.skip_frame()`",
      fmt::format("User-inserted skip frame. Message: {}", msg),
      {"Remove the `torch._dynamo.skip_frame()` call."},
      fmt::format(
          "Called `torch._dynamo.skip_frame()` with args `{}`, kwargs `{}`. Skipping frame {} ({} "
          "line {}).",
          args_repr, kwargs_repr, frame, file, line)};
  text.then = BreakText::Then::kSkipFrame;
  return text;
}

BreakText NonstrictInputTypeText(const std::string& type_name) {
  return {
      "gb0236",
      "Invalid input type for nonstrict_trace-ed function",
      "For `nonstrict_trace`-ed functions, only basic types (e.g., torch.Tensor, int, float) or "
      "pytree containers "
      "of those are allowed as inputs. The provided argument contains an unsupported type.",
      {"Use one of the following to register the type with pytree:\n* "
       "`torch.utils._pytree.register_constant`\n"
       "* `torch.utils._pytree.register_dataclass`\n* `torch.utils._pytree.register_pytree_node`"},
      fmt::format("Encountered input of type <{}>.", type_name)};
}

BreakText NonstrictOutputTypeText(const std::string& function_name) {
  return {"gb0251",
          "Unsupported output type for nonstrict_trace-ed function",
          "For `nonstrict_trace`-ed functions, only basic types (e.g., torch.Tensor, int, list) "
          "are allowed as output. "
          "The result of this call contains an unsupported type.",
          {"It may be possible to write Dynamo tracing rules for this code. Please report an issue "
           "to PyTorch if you "
           "encounter this graph break often and it is causing performance issues."},
          fmt::format("Function: {}", function_name)};
}

BreakText NonstrictDefinedInsideText(const std::string& name) {
  return {"gb0078",
          "Limitation of `nonstrict_trace",
          fmt::format("Applying `nonstrict_trace` to function <{}>; however, `nonstrict_trace` "
                      "currently requires the "
                      "function to be defined outside `torch.compile` region.",
                      name),
          {fmt::format("make sure definition of {} is outside ", name), "`torch.compile` region"},
          "UserFunctionVariable()"};
}

BreakText ObservedExceptionText(const std::string& exception_repr) {
  return {"gb0088",
          "Observed exception",
          "Dynamo found no exception handler at the top-level compiled function when "
          "encountering an exception. Exception will propagate outside the compiled region.",
          {"Your code may result in an error when running in eager. Please double check that "
           "your code doesn't contain a similar error when actually running eager/uncompiled. "
           "You can do this by removing the `torch.compile` call, or by using "
           "`torch.compiler.set_stance(\"force_eager\")`. ",
           "It may be possible to write Dynamo tracing rules for this code. Please report an "
           "issue to PyTorch if you encounter this graph break often and it is causing "
           "performance issues."},
          fmt::format("raised exception {}", exception_repr)};
}

BreakText StepUnsupportedText() {
  BreakText text{"gb4636",
                 "Call to `torch._dynamo.step_unsupported()`",
                 "User-inserted step_unsupported.",
                 {"Remove the `torch._dynamo.step_unsupported()` call."},
                 ""};
  text.then = BreakText::Then::kStepUnsupported;
  return text;
}

BreakText StepUnsupportedErrorText() {
  return {"gb0284",
          "cannot resume from torch._dynamo.step_unsupported()",
          "traced torch._dynamo.step_unsupported(), but Dynamo is instructed to error on graph "
          "break. This graph "
          "break is used for debugging only.",
          {"Remove the torch._dynamo.step_unsupported() call.",
           "Make sure fullgraph=False and error_on_graph_break=False.",
           "This is likely to be a Dynamo bug. Please report an issue to PyTorch."},
          ""};
}

BreakText StepEmptyCheckpointText() {
  BreakText text{"gb0275",
                 "torch._dynamo.step_unsupported() with empty checkpoint",
                 "traced torch._dynamo.step_unsupported(), but there is no checkpoint to "
                 "step_graph_break from. This "
                 "graph break is used for debugging only.",
                 {"Remove the torch._dynamo.step_unsupported() call.",
                  "Include at least one checkpoint: (1) include at least 2 ops and (2) make sure "
                  "there is some line of "
                  "code that is not in a try/with block, and has an empty Python stack.",
                  "This is likely to be a Dynamo bug. Please report an issue to PyTorch."},
                 ""};
  text.then = BreakText::Then::kSkipFrame;
  return text;
}

namespace {

std::string Link(const std::string& gb_id) {
  return fmt::format("https://meta-pytorch.github.io/compile-graph-break-site/gb/{}.html", gb_id);
}

}  // namespace

BreakText LoopBreakText(BreakText original, const std::string& frame, const std::string& file,
                        int64_t line) {
  original.context += fmt::format(
      "\n\n For more details about this graph break, please visit: {}\n\n*** While handling this "
      "graph break, "
      "another graph break occurred: ***\n\ngraph break in loop\n  Explanation: torch.compile "
      "detected a graph "
      "break in a for/while loop. Skipping the frame and falling back to eager, as graph breaks in "
      "loops are not "
      "supported.\n  Hint: This graph break may have been caused by an earlier graph break. "
      "Resolving the earlier "
      "graph break may resolve this one.\n\n  Developer debug context: frame skipped: {} ({} line "
      "{})",
      Link(original.gb_id), frame, file, line);
  original.duplicate_type = "graph break in loop";
  original.gb_id = "gb7000";  // the text as a whole links to the loop's entry
  return original;
}

BreakText GenericContextBreakText(BreakText original, const std::vector<std::string>& classes) {
  std::vector<std::string> variables;
  for (const std::string& c : classes) {
    variables.push_back(fmt::format("GenericContextWrappingVariable({})", c));
  }
  original.context += fmt::format(
      "\n\n For more details about this graph break, please visit: {}\n\n*** While handling this "
      "graph break, another graph break occurred: ***\n\nGraph break under "
      "GenericContextWrappingVariable\n  Explanation: Attempted to graph break in an active "
      "context manager(s) that doesn't support graph breaking.\n  Hint: Move the offending "
      "context manager(s) to outside the compiled region.\n  Hint: This graph break may have "
      "been caused by an earlier graph break. Resolving the earlier graph break may resolve this "
      "one.\n\n  Developer debug context: Active generic context managers: [{}]",
      Link(original.gb_id), fmt::join(variables, ", "));
  original.duplicate_type = "Graph break under GenericContextWrappingVariable";
  original.gb_id = "gb0066";
  return original;
}

std::string FrameEndingReason(BreakText::Then then) {
  return then == BreakText::Then::kSkipFrame
             ? "Failed to handle graph break gracefully. Skipping the function and falling back to "
               "eager. Graph "
               "break encountered:"
             : "Encountered graph break that we cannot resume from. Compiling up to the previous "
               "resumable state, "
               "then skipping the rest of the function. Graph break encountered:";
}

BreakText DisabledCallText(const std::string& function_repr,
                           const std::optional<std::string>& reason) {
  return {"gb0098",
          "Skip calling `torch.compiler.disable()`d function",
          fmt::format("Skip calling function `{}` since it was wrapped with "
                      "`torch.compiler.disable` (reason: {})",
                      function_repr, reason ? *reason : "None"),
          {"Remove the `torch.compiler.disable` call"},
          function_repr};
}

BreakText SkipInliningText(const std::string& function_repr,
                           const std::optional<std::string>& reason) {
  return {"gb0099",
          "Skip inlining `torch.compiler.disable()`d function",
          fmt::format("Skip inlining function {} since it was wrapped with "
                      "`torch.compiler.disable` (reason: {})",
                      function_repr, reason ? *reason : "None"),
          {"Remove the `torch.compiler.disable` call"},
          function_repr,
          /*after_call=*/true};
}

BreakText SkippedCBuiltinText(const std::string& module, const std::string& qualname) {
  const std::string name = fmt::format("{}.{}", module, qualname);
  return {"gb0007",
          "Attempted to call function marked as skipped",
          fmt::format("Dynamo does not know how to trace the Python builtin `{}`.", name),
          {fmt::format("If you are attempting to call a logging function (e.g. `{}`), you can try "
                       "adding it to `torch._dynamo.config.reorderable_logging_functions`.",
                       name),
           "Please file an issue on GitHub so the PyTorch team can add support for it. "},
          fmt::format("module: {}, qualname: {}, skip reason: cannot determine source file for {} "
                      "(likely a C extension or builtin)",
                      module, qualname, module)};
}

BreakText SkippedBuiltinText(const std::string& module, const std::string& qualname,
                             const std::string& skip_repr) {
  return {
      "gb0007",
      "Attempted to call function marked as skipped",
      fmt::format(
          "Dynamo does not know how to trace the builtin `{}.{}.` This function is either a Python "
          "builtin (e.g. _warnings.warn) or a third-party C/C++ Python extension (perhaps created "
          "with pybind).",
          module, qualname),
      {"If it is a Python builtin, please file an issue on GitHub so the PyTorch team can add "
       "support for "
       "it and see the next case for a workaround.",
       "If it is a third-party C/C++ Python extension, please either wrap it into a "
       "PyTorch-understood "
       "custom operator (see https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html "
       "for more "
       "details) or, if it is traceable, use `torch.compiler.allow_in_graph`."},
      fmt::format("module: {}, qualname: {}, skip reason: {}", module, qualname, skip_repr)};
}

namespace {

// SkipFunctionVariable.call_function's text for a function with a source file `path`: only
// "Avoid calling" when the path has "_dynamo" in it; allow_in_graph's own explanation.
BreakText SkippedFunction(const std::string& name, const std::string& path, std::string context) {
  BreakText text{
      "gb0007",
      "Attempted to call function marked as skipped",
      fmt::format("Dynamo developers have intentionally marked that the function `{}` in "
                  "file `{}` should not be traced.",
                  name, path),
      {fmt::format("Avoid calling the function `{}`.", name)},
      std::move(context)};
  if (path.find("_dynamo") == std::string::npos) {
    text.hints.push_back(fmt::format(
        "Apply `@torch._dynamo.dont_skip_tracing` to the function `{}` to force tracing into the "
        "function. More graph breaks may occur as a result of attempting to trace into the "
        "function.",
        name));
    text.hints.push_back("Please file an issue to PyTorch.");
  }
  if (name == "allow_in_graph") {
    text.explanation =
        "torch.compiler.allow_in_graph (or torch._dynamo.allow_in_graph) was called inside a "
        "compiled region. Dynamically annotating functions inside a compiled region is not "
        "supported.";
    text.hints = {
        "Apply @torch.compiler.allow_in_graph as a decorator before compilation, not inside the "
        "compiled function."};
  }
  return text;
}

}  // namespace

BreakText SkippedFunctionText(const std::string& name, const std::string& file,
                              const std::string& module, const std::string& qualname,
                              const std::string& skip_repr) {
  return SkippedFunction(
      name, file,
      fmt::format("module: {}, qualname: {}, skip reason: {}", module, qualname, skip_repr));
}

BreakText BuiltinOperatorText(const std::string& name, const std::string& arg_types,
                              bool has_kwargs, const std::string& variable_classes) {
  return {
      "gb0059",
      "Failed to trace builtin operator",
      fmt::format("Dynamo does not know how to trace builtin operator `{}` with argument types {} "
                  "(has_kwargs {})",
                  name, arg_types, has_kwargs ? "True" : "False"),
      {fmt::format("Avoid calling builtin `{}` with argument types {}. Consider using an "
                   "equivalent alternative "
                   "function/method to `{}`.",
                   name, arg_types, name),
       "If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
       "`torch._dynamo.config.reorderable_logging_functions`.",
       "Please report an issue to PyTorch."},
      fmt::format("builtin {} {} {}", name, variable_classes, has_kwargs ? "True" : "False")};
}

namespace {

// Python's textwrap.indent(text, "    ") without its first line's indent: the lines after
// the first get four spaces unless they hold whitespace only.
std::string IndentLaterLines(const std::string& text) {
  std::string out;
  size_t start = 0;
  for (size_t end = text.find('\n');; end = text.find('\n', start)) {
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (start > 0 && line.find_first_not_of(" \t") != std::string::npos) out += "    ";
    out += line;
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string RecordedExplanation(const std::string& explanation) {
  std::string out;
  size_t start = 0;
  for (size_t end = explanation.find('\n');; end = explanation.find('\n', start)) {
    std::string line =
        explanation.substr(start, end == std::string::npos ? std::string::npos : end - start);
    // The oracle's _unindent takes four spaces off each later line: FormatBreak added them,
    // except to a line of whitespace only.
    if (start > 0 && line.find_first_not_of(" \t") == std::string::npos)
      line.erase(0, std::min<size_t>(4, line.size()));
    out += line;
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

BreakText DataDependentBranchText(const std::string& computation, std::vector<std::string> hints) {
  hints.push_back(
      "This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace "
      "through your code. Consider finding a workaround.");
  hints.push_back("Use `torch.cond` to express dynamic control flow.");
  BreakText text{"gb0170", "Data-dependent branching",
                 "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does "
                 "not support tracing dynamic control flow." +
                     computation,
                 std::move(hints), "attempted to jump with TensorVariable()"};
  text.at_jump = true;
  return text;
}

BreakText ItemCallText() {
  return {
      "gb0124",
      "Unsupported Tensor.item() call with capture_scalar_outputs=False",
      "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.",
      {"Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
       "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured "
       "graph."},
      "call_method TensorVariable() item () {}"};
}

BreakText DataDependentOperatorText() {
  BreakText text{"gb0033",
                 "Data dependent operator",
                 "Operator `aten._local_scalar_dense.default` has a non-Tensor output whose value "
                 "is dependent on the data of Tensor inputs.",
                 {"Enable tracing of data-dependent output operators with "
                  "`torch._dynamo.config.capture_scalar_outputs = True`"},
                 "aten._local_scalar_dense.default"};
  text.then = BreakText::Then::kStepBack;
  return text;
}

BreakText UnsupportedContextManagerText(const std::string& type_name) {
  BreakText text{
      "gb0142",
      "Unsupported context manager",
      fmt::format("Dynamo does not know how to enter a `{}` context manager.", type_name),
      {"Avoid using the unsupported context manager.",
       "If the context manager seems like it should be supported (e.g. torch.set_grad_enabled), "
       "then it may be the case that it was created outside the compiled region, which Dynamo "
       "does not support. Supported context managers can cross graph break boundaries only if "
       "they are local non-closure variables, or are intermediate values.",
       "File an issue to PyTorch. Simple context managers can potentially be supported, but note "
       "that context managers can't be supported in general"},
      fmt::format("Attempted SETUP_WITH/BEFORE_WITH/LOAD_SPECIAL on LazyVariableTracker(realized: "
                  "UserDefinedObjectVariable({}))",
                  type_name)};
  text.then = BreakText::Then::kStepBack;
  return text;
}

BreakText TolistNonIntegerText() {
  return {"gb0109",
          "Tensor.tolist() with non-integer tensor",
          "Dynamo currently does not support tracing `tolist()` on non-integer tensors.",
          {"Ensure the input tensor to `tolist()` is an integer type (e.g., int8, int16, int32, "
           "int64)."},
          "call_method TensorVariable() to_list"};
}

std::string FormatBreak(const BreakText& text) {
  std::string out =
      fmt::format("{}\n  Explanation: {}", text.gb_type, IndentLaterLines(text.explanation));
  for (std::string hint : text.hints) {
    // A hint's later lines are indented under it (golden
    // nonstrict_trace/invalid_input_and_output_types).
    for (size_t at = hint.find('\n'); at != std::string::npos; at = hint.find('\n', at + 5))
      hint.insert(at + 1, "    ");
    out += fmt::format("\n  Hint: {}", hint);
  }
  out += fmt::format("\n\n  Developer debug context: {}\n", text.context);
  return out + "\n For more details about this graph break, please visit: " + Link(text.gb_id);
}

std::string BreakReason(bool variadic_call) {
  return variadic_call ? "Encountered graph break when attempting to trace CALL_FUNCTION_EX: a "
                         "variadic function call, "
                         "e.g. f(*args):"
                       : "Encountered graph break when attempting to trace CALL: a function call, "
                         "e.g. f(x, y):";
}

std::string UserCodeTail(const std::string& traceback, bool verbose) {
  std::string tail = fmt::format("\n\nfrom user code:\n{}\n", traceback);
  if (verbose) return tail;
  return tail +
         "\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if "
         "you're reporting a bug to PyTorch). For even more developer context, set "
         "TORCH_LOGS=\"+dynamo\"\n";
}

BreakText RecompileLimitText(int64_t limit) {
  return {"gb0039",
          "Dynamo recompile limit exceeded",
          fmt::format("Dynamo attempted to recompile the code object too many times, exceeding "
                      "the recompile_limit cache size limit (currently set to {}). Excessive "
                      "recompilations can degrade performance due to the compilation overhead "
                      "of each recompilation.",
                      limit),
          {"To monitor recompilations, enable TORCH_LOGS=recompiles. If recompilations are "
           "expected, consider increasing torch._dynamo.config.recompile_limit to an "
           "appropriate value.",
           "See https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/"
           "programming_model.recompilation.html for tips on dealing with recompilations."},
          "Limit type: recompile_limit"};
}

std::string ForbiddenCallableMessage(const std::string& callable_repr) {
  return fmt::format("Attempt to trace forbidden callable {}", callable_repr);
}

}  // namespace tdc::dynamo
