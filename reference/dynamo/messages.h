// The texts Dynamo gives a graph break (torch 2.13.0's graph_break_registry, read off
// the goldens): gb type, explanation, hints, developer context and the link, and how
// they are joined into a counter key and an Unsupported message.
#ifndef TDCONFORM_REFERENCE_DYNAMO_MESSAGES_H_
#define TDCONFORM_REFERENCE_DYNAMO_MESSAGES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tdc::dynamo {

// One graph break's texts.
struct BreakText {
  std::string gb_id;  // "gb0025": the registry entry, for the link
  std::string gb_type;
  std::string explanation;
  std::vector<std::string> hints;
  std::string context;
  // Dynamo raises it from the instruction after the call (its traceback's position).
  bool after_call = false;
  // What the frame reaching it does (spec §2.7, §2.8): resume after the call, skip the
  // whole frame (skip_frame), or compile what was traced and run the rest eagerly
  // (step_unsupported). Reached in an inlined callee, either is an ordinary break at the
  // root frame's call site (classic). kStepBack: an instruction Dynamo can neither trace
  // nor resume after (`not t`): the frame steps back to its checkpoint, or is skipped
  // without one; an inlined frame without one hands an ordinary break to its caller.
  enum class Then { kResume, kSkipFrame, kStepUnsupported, kStepBack } then = Then::kResume;
  // The gb type torch's duplicate-break checker keys on when it is not gb_type (the
  // exception raised last: "graph break in loop" for a break in a loop).
  std::string duplicate_type = {};
  // Reached at a conditional jump (generic_jump), not at a call: its record's reason is its
  // gb type and no counter counts it.
  bool at_jump = false;
  // Raised by an inlined frame's conditional jump and unwinding to its callers: the jumping
  // frame's call wrapper never saw it (no GenericContextWrappingVariable text of its own).
  bool from_inlined_jump = false;
};

// A conditional jump on a traced tensor (gb0170): `computation` is how the tensor was
// computed (the explanation's tail, "" for none), `hints` the hints before the two fixed
// ones.
BreakText DataDependentBranchText(const std::string& computation, std::vector<std::string> hints);

// Tensor.item() traced with capture_scalar_outputs off (gb0124): also what bool(), int() and
// float() of a traced tensor reach.
BreakText ItemCallText();

// `not t` on a traced tensor (UNARY_NOT reads its data, gb0033), a kStepBack break; also
// what tolist() of a tensor that is not floating breaks with at its call.
BreakText DataDependentOperatorText();
// A with statement entering a context manager of library type `type_name` (`no_grad`) that
// came from outside the traced code (gb0142): an instruction Dynamo cannot trace, a kStepBack
// break.
BreakText UnsupportedContextManagerText(const std::string& type_name);
// tolist() of a tensor not of int8 .. int64 (gb0109).
BreakText TolistNonIntegerText();

// A nonstrict_trace'd function given an argument leaf of type `type_name` (`set`), or
// returning a leaf it cannot (`function_name`: the traceable function's __name__).
BreakText NonstrictInputTypeText(const std::string& type_name);
BreakText NonstrictOutputTypeText(const std::string& function_name);
// nonstrict_trace applied, inside the compiled region, to a function defined there (S23).
BreakText NonstrictDefinedInsideText(const std::string& name);

// torch._dynamo.graph_break(): `keyword_msg` is the msg= keyword (a positional message
// is not read, SEMANTICS §4.1); `args_repr` / `kwargs_repr` are the call's arguments as
// VariableTracker reprs (`[ConstantVariable(str: 'x')]`, `{'msg': ...}`).
BreakText GraphBreakCallText(const std::optional<std::string>& keyword_msg,
                             const std::string& args_repr, const std::string& kwargs_repr);
// torch._dynamo.skip_frame(msg): `frame` is the code reaching it (co_name) defined at
// `file`:`line` (co_firstlineno; a resume function's is its break's line).
BreakText SkipFrameText(const std::string& msg, const std::string& args_repr,
                        const std::string& kwargs_repr, const std::string& frame,
                        const std::string& file, int64_t line);
// torch._dynamo.step_unsupported(); `ErrorOnStepText`: the Unsupported it is under fullgraph.
// An exception raised in a fullgraph trace that no traced frame handles (`context`: its repr).
BreakText ObservedExceptionText(const std::string& exception_repr);
BreakText StepUnsupportedText();
BreakText StepUnsupportedErrorText();
// step_unsupported() with no checkpoint before it (no statement of the frame began with an
// op already traced): the frame is skipped instead.
BreakText StepEmptyCheckpointText();
// `original`, a break met with a loop's backward jump ahead: Dynamo's "graph break in
// loop" is chained to it (the frame `frame` at `file`:`line` is skipped).
BreakText LoopBreakText(BreakText original, const std::string& frame, const std::string& file,
                        int64_t line);
// `original`, met in a traced frame with class statements' context managers active
// (`classes`, outermost first): "Graph break under GenericContextWrappingVariable" chained.
BreakText GenericContextBreakText(BreakText original, const std::vector<std::string>& classes);
// A record's `reason` when the root frame itself reaches skip_frame / step_unsupported.
std::string FrameEndingReason(BreakText::Then then);

// A call of a torch.compiler.disable'd function (recursive); `function_repr` is the
// wrapped function's repr with its address normalized, `reason` the disable reason.
BreakText DisabledCallText(const std::string& function_repr,
                           const std::optional<std::string>& reason);
// A call of a torch.compiler.disable(recursive=False)'d function met while tracing:
// Dynamo does not inline it (gb0099).
BreakText SkipInliningText(const std::string& function_repr,
                           const std::optional<std::string>& reason);
// A disallowed builtin of `module` named `qualname` (torch.sub: torch,
// _VariableFunctionsClass.sub), `skip_repr` its repr.
// A C builtin of CPython's whose source file torch cannot find (`_warnings.warn`): skipped,
// with the logging hint (gb0007).
BreakText SkippedCBuiltinText(const std::string& module, const std::string& qualname);
BreakText SkippedBuiltinText(const std::string& module, const std::string& qualname,
                             const std::string& skip_repr);
// A disallowed Python function `name` defined in `file`, module `module`.
BreakText SkippedFunctionText(const std::string& name, const std::string& file,
                              const std::string& module, const std::string& qualname,
                              const std::string& skip_repr);

// A builtin Dynamo cannot trace with these argument types (print): gb0059.
BreakText BuiltinOperatorText(const std::string& name, const std::string& arg_types,
                              bool has_kwargs, const std::string& variable_classes);

// The text a break is counted under and begins an Unsupported message with.
std::string FormatBreak(const BreakText& text);
// A break's explanation as its graph_breaks record holds it: the oracle reads it back out of
// FormatBreak's text, where a line of spaces only is left unindented (textwrap.indent) and
// so loses four of them.
std::string RecordedExplanation(const std::string& explanation);

// A graph_breaks record's `reason`: the root frame's instruction at the break.
std::string BreakReason(bool variadic_call);

// The tail Dynamo appends to an error raised while tracing: the user-code traceback
// (`traceback` already formatted) and, unless torch._dynamo.config.verbose, the verbosity
// hint (exc.py augment_exc_message).
std::string UserCodeTail(const std::string& traceback, bool verbose);

// A frame whose code's cache is full (gb0039, convert_frame.py): the Unsupported that
// error_on_graph_break raises, `limit` being torch._dynamo.config.recompile_limit.
BreakText RecompileLimitText(int64_t limit);

// AssertionError of a forbidden callable (forbid_in_graph).
std::string ForbiddenCallableMessage(const std::string& callable_repr);

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_MESSAGES_H_
