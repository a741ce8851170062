// A with statement of traced code entering a grad-mode context manager (torch.no_grad,
// torch.enable_grad, torch.set_grad_enabled instances) or a contextlib.nullcontext as torch
// 2.13.0 does it (probed). A nullcontext() is entered wherever it came from; one given an
// enter_result only where the frame made it (torch fails to rebuild one across a break).
// Dynamo enters one its traced code made (a GradModeVariable) and records the mode changes as
// nodes. One made before a graph break and live after it is rebuilt by the compiled code,
// which calls torch.set_grad_enabled(mode) before the resume function, and the resume
// function enters it as its own (upstream ctx_manager/test_inactive_context_graph_break_local,
// _stack2). One that came from outside the traced code is a user object to Dynamo, and
// BEFORE_WITH on that is graph break gb0142 "Unsupported context manager" at the instruction
// (a kStepBack break: probed with the manager a parameter, a global, a closure cell's
// contents, an item of a list parameter, a parameter passed on to an inlined callee; golden
// graph_break/grad_context_from_outside). Refused (DESIGN D13) where torch was seen to do
// what the reference does not model: a rebuilt one whose mode is not the resume function's
// (the mode stays set after the frame returns) or, not probed, entered under another mode,
// one made by another frame of the trace
// (torch.set_grad_enabled(False) passed to an inlined callee records no mode change and
// leaks the mode after the call), one whose origin the reference cannot place, and one from
// outside under fullgraph or error_on_graph_break (not probed).
#include <fmt/format.h>

#include <algorithm>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// The name of `v`'s type when it is a context manager class Dynamo models: torch's grad-mode
// ones (GradModeVariable) and contextlib.nullcontext (NullContextVariable).
std::optional<std::string> KnownContextType(const Value& v) {
  const auto* type = DynCast<PyType>(v);
  if (type == nullptr) return std::nullopt;
  if (type->module == "contextlib" && type->name == "nullcontext") return type->name;
  if (type->module != "torch.autograd.grad_mode") return std::nullopt;
  if (type->name != "no_grad" && type->name != "enable_grad" && type->name != "set_grad_enabled")
    return std::nullopt;
  return type->name;
}

// A contextlib.nullcontext given an enter_result: torch 2.13.0 raises InternalTorchDynamoError
// rebuilding one across a graph break (probed); the reference models none but those the
// traced code makes and enters in the same frame.
bool IsNullContext(const Value& manager) {
  const auto* m = DynCast<PyInstance>(manager);
  return m != nullptr && m->type->module == "contextlib" && m->type->name == "nullcontext";
}

bool IsNullContextWithResult(const Value& manager) {
  return IsNullContext(manager) &&
         !Is<PyNone>(DynCast<PyInstance>(manager)->attrs->GetStr("enter_result"));
}

// The grad mode `manager` enters (GradModeVariable's target value).
bool TargetMode(const Value& manager) {
  const auto* m = DynCast<PyInstance>(manager);
  if (m->type->name == "set_grad_enabled") return IsTruthy(m->attrs->GetStr("mode"));
  return m->type->name == "enable_grad";
}

bool Holds(const Value& container, const Value& v) {
  const std::vector<Value>* items = nullptr;
  if (const auto* list = DynCast<PyList>(container)) items = &list->items();
  if (const auto* tuple = DynCast<PyTuple>(container)) items = &tuple->items();
  return items != nullptr && std::find(items->begin(), items->end(), v) != items->end();
}

}  // namespace

std::optional<Value> Dynamo::MakeContextManager(const Value& callee, CallArgs& args) {
  if (!KnownContextType(callee)) return std::nullopt;
  Trace& t = *Tracing();
  const size_t depth = in_.frames().size() - 1;
  Value made = in_.CallDirect(callee, std::move(args));
  t.made_contexts.emplace_back(made, depth);
  return made;
}

void Dynamo::CarryContextManagers(const Trace& old, Trace& t) const {
  for (const auto& entry : old.made_contexts) {
    const Value& made = entry.first;
    const bool received = std::any_of(t.inputs.begin(), t.inputs.end(),
                                      [&](const auto& input) { return input.first == made; });
    if (!received) continue;
    if (IsNullContextWithResult(made)) {
      RefuseNotModeled(
          "a contextlib.nullcontext(enter_result) made before a graph break and live after it "
          "(torch 2.13.0 raises InternalTorchDynamoError rebuilding it)");
    }
    if (IsNullContext(made)) continue;  // no mode to set
    if (TargetMode(made) != t.grad_enabled) {
      RefuseNotModeled(fmt::format(
          "a {} context manager made before a graph break and live after it, its mode not the "
          "resume function's (torch 2.13.0 sets its mode before calling the resume function and "
          "leaves it set)",
          *KnownContextType(TypeOf(in_, made))));
    }
    t.made_contexts.emplace_back(made, Trace::kCarriedAcrossBreak);
  }
}

std::optional<bool> Dynamo::ModeOfRebuiltContexts(const Trace& t,
                                                  const std::vector<ResumeLevel>& resuming) const {
  std::optional<bool> mode;
  for (const auto& entry : t.made_contexts) {
    const Value& made = entry.first;  // (a structured binding: clang 14 cannot capture it)
    if (IsNullContext(made)) continue;
    const bool live = std::any_of(resuming.begin(), resuming.end(), [&](const ResumeLevel& l) {
      return std::count(l.stack.begin(), l.stack.end(), made) +
                 std::count(l.values.begin(), l.values.end(), made) >
             0;
    });
    if (!live) continue;
    if (mode && *mode != TargetMode(made)) {
      RefuseNotModeled(
          "grad-mode context managers of both modes made before a graph break and live after it "
          "(torch 2.13.0 rebuilds each in turn, setting its mode; not probed)");
    }
    mode = TargetMode(made);
  }
  if (!mode || *mode == in_.process().grad_enabled) return std::nullopt;
  if (in_.process().grad_enabled != t.grad_enabled) {
    RefuseNotModeled(
        "a grad-mode context manager made before a graph break inside a block that changed the "
        "grad mode, live after it with another mode (not probed on torch 2.13.0)");
  }
  return mode;
}

std::optional<bool> Dynamo::ModeLeftByCall(const Trace& t, bool mode_at_call,
                                           const std::vector<ResumeLevel>& resuming) const {
  // The innermost grad-mode with block open at the break: each open block leaves its
  // manager's bound __exit__ on the stack.
  Value innermost;
  for (const ResumeLevel& level : resuming) {
    for (const Value& v : level.stack) {
      const auto* exit = DynCast<PyMethod>(v);
      if (exit != nullptr && KnownContextType(TypeOf(in_, exit->self)) &&
          !IsNullContext(exit->self)) {
        innermost = exit->self;
      }
    }
  }
  // Probed: outside any block, the resume function begins under the mode the call left (a
  // torch.set_grad_enabled(False) made outside and entered in the call restores the mode it
  // was made under; a frame of the call rebuilding a no_grad() leaves grad mode off: golden
  // graph_break/grad_context_rebuilt_mode).
  if (innermost == nullptr && mode_at_call == t.grad_enabled) return in_.process().grad_enabled;
  // Probed: inside grad-mode blocks the call runs in them (they restore the mode they found
  // when it returns) and the resume function enters them again, so the change is lost.
  if (innermost != nullptr && TargetMode(innermost) == mode_at_call) {
    in_.process().grad_enabled = mode_at_call;
    return std::nullopt;
  }
  RefuseNotModeled(
      "a graph break's call that leaves grad mode changed, after the frame set the mode "
      "otherwise than with a grad-mode with block (not probed on torch 2.13.0)");
}

void Dynamo::ForgetReturnedContextManager(Trace& t,
                                          const std::vector<ResumeLevel>& resuming) const {
  const Value& result = resuming.back().stack.back();
  auto made = std::find_if(t.made_contexts.begin(), t.made_contexts.end(),
                           [&](const auto& m) { return m.first == result; });
  if (made == t.made_contexts.end()) return;
  if (IsNullContext(result)) {
    t.made_contexts.erase(made);  // entered as it is either way (OnEnterContext)
    return;
  }
  size_t uses = 0;
  for (const ResumeLevel& level : resuming) {
    uses += std::count(level.stack.begin(), level.stack.end(), result);
    uses += std::count(level.values.begin(), level.values.end(), result);
  }
  if (uses > 1) {
    RefuseNotModeled(
        "a grad-mode context manager the trace made, returned by a graph break's call and live "
        "after it besides (torch hands on a rebuilt one beside the object itself)");
  }
  t.made_contexts.erase(made);
}

void Dynamo::CheckUserContextExit(const Value& callee, const CallArgs& args) const {
  const auto* exit = DynCast<PyMethod>(callee);
  if (exit == nullptr || !IsUserInstance(exit->self) || args.positional.empty() ||
      Is<PyNone>(args.positional[0])) {
    return;
  }
  const auto* function = DynCast<PyFunction>(exit->function);
  if (function != nullptr && function->name_text() == "__exit__") {
    RefuseNotModeled(
        fmt::format("an exception leaving the with block of {} in traced code is not modeled",
                    DescribeUserClassValue(exit->self)));
  }
}

bool Dynamo::CameFromOutsideTrace(const Trace& t, const Frame& frame, const Value& v) const {
  for (const Value& globals : {t.globals, frame.function ? frame.function->globals : Value()}) {
    const auto* dict = DynCast<PyDict>(globals);
    if (dict == nullptr) continue;
    for (const auto& [name, value] : dict->Items()) {
      if (value == v) return true;
    }
  }
  // A closure cell of the root frame's function, or of a function the trace read from its
  // inputs or globals (Trace::cell_sources).
  const Frame& root = *in_.frames()[t.root_depth];
  for (const Frame* f : {&root, &frame}) {
    for (const Ref<PyCell>& cell : f->cells) {
      if (cell->contents == v && (f == &root || t.cell_sources.contains(cell->id()))) return true;
    }
  }
  for (const auto& [input, source] : t.inputs) {
    // A resume function's named locals are values an earlier trace may have made.
    const bool outside = !t.resume || source.find("___stack") != std::string::npos;
    if (outside && (input == v || Holds(input, v))) return true;
  }
  return false;
}

void Dynamo::OnEnterContext(const Frame& frame, const Value& manager) {
  Trace* t = Tracing();
  if (t == nullptr) return;
  if (runtime::IsUserInstance(manager)) return EnterUserContext(*t, manager);
  std::optional<std::string> type = KnownContextType(TypeOf(in_, manager));
  if (!type) return;
  const size_t depth = in_.frames().size() - 1;
  if (IsNullContext(manager)) {
    // Entered the same wherever it came from (probed: a parameter, a global, one made before a
    // break or handed back by a break's call).
    const bool made_here = std::any_of(
        t->made_contexts.begin(), t->made_contexts.end(),
        [&](const auto& made) { return made.first == manager && made.second == depth; });
    if (made_here || !IsNullContextWithResult(manager)) return;
    RefuseNotModeled(
        "entering a contextlib.nullcontext(enter_result) the frame did not make in the trace");
  }
  for (const auto& [made, made_depth] : t->made_contexts) {
    if (made != manager) continue;
    if (made_depth == depth) return;  // a GradModeVariable: entered and recorded
    if (made_depth == Trace::kCarriedAcrossBreak) {
      // Entered under its own mode (and, a set_grad_enabled one, made under it), torch's
      // rebuilt one and the reference's agree: neither changes the mode, entering or leaving.
      const bool target = TargetMode(manager);
      const auto* m = DynCast<PyInstance>(manager);
      const bool made_under_it =
          *type != "set_grad_enabled" || IsTruthy(m->attrs->GetStr("prev")) == target;
      if (in_.process().grad_enabled == target && made_under_it) return;
      RefuseNotModeled(fmt::format(
          "entering a {} context manager made before a graph break under a grad mode it does not "
          "set (not probed on torch 2.13.0)",
          *type));
    }
    RefuseNotModeled(fmt::format(
        "entering a {} context manager another frame of the trace made (torch 2.13.0 records "
        "no grad-mode change for a torch.set_grad_enabled one passed to an inlined callee)",
        *type));
  }
  if (!CameFromOutsideTrace(*t, frame, manager)) {
    RefuseNotModeled(fmt::format(
        "entering a {} context manager the trace did not make and the reference cannot place",
        *type));
  }
  BreakAtUnsupportedContext(*t, *type);
}

void Dynamo::EnterUserContext(const Trace& t, const Value& manager) {
  // One the traced code made is Dynamo's GenericContextWrappingVariable: __enter__ and
  // __exit__ inlined like any method (a graph break inside the block:
  // RefuseBreakAroundClassValues; an exception leaving it: CheckUserContextExit).
  if (t.made.contains(manager.get())) return;
  // One the frame received is a user object to Dynamo, as a grad-mode one from outside
  // (golden classes/traced_user_context_managers).
  if (!t.Received(manager)) {
    RefuseNotModeled(fmt::format("{} as a context manager in traced code is not modeled",
                                 DescribeUserClassValue(manager)));
  }
  BreakAtUnsupportedContext(t, DynCast<PyInstance>(manager)->type->name);
}

void Dynamo::BreakAtUnsupportedContext(const Trace& t, const std::string& type) {
  if (t.callback->fullgraph || in_.process().compiler.error_on_graph_break) {
    RefuseNotModeled(
        fmt::format("entering a {} context manager made outside the traced code under fullgraph or "
                    "error_on_graph_break (not probed on torch 2.13.0)",
                    type));
  }
  CallArgs none;
  Break(UnsupportedContextManagerText(type), Value(), none);
}

}  // namespace tdc::dynamo
