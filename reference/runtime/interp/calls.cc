// Calls and names: invoking every kind of callable, binding a Python function's
// parameters with CPython 3.11's TypeError texts, and reading and writing names by scope.
#include <fmt/format.h>

#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_binding.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/torch_names.h"

namespace tdc::runtime {

using namespace lang;  // NOLINT

namespace {

// CPython's recursion limit is 1000 frames; the reference stops at the same depth.
constexpr size_t kMaxDepth = 1000;

}  // namespace

Value Interpreter::Call(const Value& callee, CallArgs args) {
  if (hook_ != nullptr) {
    if (std::optional<Value> replaced = hook_->OnCall(callee, args)) return *replaced;
  }
  return CallDirect(callee, std::move(args));
}

Value Interpreter::CallDirect(const Value& callee, CallArgs args) {
  if (auto* builtin = DynCast<PyBuiltin>(callee)) {
    try {
      return builtin->code()(args);
    } catch (const TorchError& e) {
      throw ToPyError(heap(), e);
    }
  }
  if (auto* fn = DynCast<PyFunction>(callee)) {
    Ref<PyFunction> function(fn);
    if (fn->is_native()) {
      try {
        return std::get<NativeCode>(fn->code)(*fn, args);
      } catch (const TorchError& e) {
        throw ToPyError(heap(), e);
      }
    }
    return CallUser(function, args);
  }
  return CallOther(*this, callee, std::move(args));  // bound methods, types
}

Value Interpreter::CallUser(const Ref<PyFunction>& function, CallArgs& args) {
  const auto& code = std::get<UserCode>(function->code);
  auto program = std::static_pointer_cast<const Program>(code.keep_alive);
  if (frames_.size() >= kMaxDepth) {
    Raise(heap(), ExcType::kRecursionError, "maximum recursion depth exceeded");
  }
  Frame frame;
  frame.program = program;
  frame.scope = &program->scopes.Of(code.def);
  frame.globals = RefCast<PyDict>(function->globals);
  frame.function = function;
  frame.line = code.def->span.begin.line;
  frame.grad_enabled_at_start = process_.grad_enabled;
  frame.fast.resize(frame.scope->varnames.size());
  for (size_t i = 0; i < frame.scope->cellvars.size(); ++i) frame.cells.push_back(heap().NewCell());
  if (auto* closure = DynCast<PyTuple>(function->closure)) {
    for (const Value& cell : closure->items()) frame.cells.push_back(RefCast<PyCell>(cell));
  }
  try {
    BindArguments(frame, *function, lang::ParametersOf(*code.def), args);
  } catch (const PyError& error) {
    if (hook_ != nullptr) hook_->OnBindFailure(*function, error);
    throw;
  }
  args = {};  // the caller's references to the arguments go once they are bound
  frames_.push_back(&frame);
  Value result;
  // The frame's locals die when the call ends, in varnames order, then its cells.
  struct Exit {
    Interpreter& in;
    Frame& frame;
    ~Exit() {
      in.frames_.pop_back();
      for (Value& v : frame.fast) v.Reset();
      for (Ref<PyCell>& c : frame.cells) c.Reset();
    }
  } exit{*this, frame};
  try {
    if (code.def->kind == NodeKind::kLambda) {
      result = Eval(frame, *As<Lambda>(*code.def).body);
    } else if (ExecFunctionBody(frame, As<FunctionDef>(*code.def).body, result) != Flow::kReturn) {
      result = heap().None();
    }
  } catch (const PyError& error) {
    if (hook_ != nullptr) hook_->OnErrorLeavingFrame(frame, error);
    throw;
  }
  if (hook_ != nullptr) hook_->OnReturn(frame, result);
  return result;
}

void Interpreter::BindArguments(Frame& frame, const PyFunction& function, const Arguments& params,
                                CallArgs& args) {
  ParamSpec spec;
  for (const auto& a : params.posonlyargs) spec.positional.push_back(a->arg);
  for (const auto& a : params.args) spec.positional.push_back(a->arg);
  spec.positional_only = params.posonlyargs.size();
  const auto* defaults = DynCast<PyTuple>(function.defaults);
  spec.positional_defaults = defaults != nullptr ? defaults->size() : 0;
  const auto* kwdefaults = DynCast<PyDict>(function.kwdefaults);
  for (const auto& a : params.kwonlyargs) {
    spec.keyword_only.push_back(a->arg);
    spec.keyword_only_has_default.push_back(kwdefaults != nullptr &&
                                            kwdefaults->Contains(heap().Intern(a->arg)));
  }
  spec.varargs = params.vararg != nullptr;
  spec.varkw = params.kwarg != nullptr;
  BoundCall bound = BindCall(heap(), function.qualname_text(), spec, args);
  size_t n_positional = spec.positional.size();
  for (size_t i = 0; i < n_positional; ++i) {
    if (!bound.params[i])
      bound.params[i] = defaults->items()[i - (n_positional - spec.positional_defaults)];
  }
  for (size_t i = 0; i < spec.keyword_only.size(); ++i) {
    Value& slot = bound.params[n_positional + i];
    if (!slot) slot = kwdefaults->GetStr(spec.keyword_only[i]);
  }
  auto store = [&](const std::string& name, Value value) {
    const Scope& scope = *frame.scope;
    auto local = scope.local_slot.find(name);
    if (local != scope.local_slot.end()) {
      frame.fast[local->second] = std::move(value);
    } else {
      frame.cells.at(scope.cell_slot.at(name))->contents = std::move(value);
    }
  };
  // Stored in co_varnames order: positional, keyword-only, *args, **kwargs.
  for (size_t i = 0; i < n_positional; ++i) store(spec.positional[i], std::move(bound.params[i]));
  for (size_t i = 0; i < spec.keyword_only.size(); ++i) {
    store(spec.keyword_only[i], std::move(bound.params[n_positional + i]));
  }
  if (params.vararg) store(params.vararg->arg, heap().NewTuple(std::move(bound.extra_positional)));
  if (params.kwarg) {
    Ref<PyDict> extra = heap().NewDict();
    for (auto& [name, value] : bound.extra_keywords) extra->SetStr(name, std::move(value));
    store(params.kwarg->arg, extra);
  }
}

Value Interpreter::LoadName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: {
      const Value& v = f.fast[f.scope->local_slot.at(name)];
      if (!v) {
        Raise(
            heap(), ExcType::kUnboundLocalError,
            fmt::format("cannot access local variable '{}' where it is not associated with a value",
                        name));
      }
      if (hook_ != nullptr) hook_->OnLoadLocal(f, name);
      return v;
    }
    case NameKind::kCell:
    case NameKind::kFree: {
      const auto& cell = f.cells.at(f.scope->cell_slot.at(name));
      const Value& v = cell->contents;
      if (!v) {
        bool free = f.scope->KindOf(name) == NameKind::kFree;
        Raise(
            heap(), free ? ExcType::kNameError : ExcType::kUnboundLocalError,
            free ? fmt::format("cannot access free variable '{}' where it is not associated with a "
                               "value in enclosing scope",
                               name)
                 : fmt::format(
                       "cannot access local variable '{}' where it is not associated with a value",
                       name));
      }
      if (hook_ != nullptr) hook_->OnLoadCell(f, name, *cell);
      return v;
    }
    case NameKind::kNamespace:
      if (Value v = f.class_namespace->GetStr(name)) return v;
      break;
    case NameKind::kGlobal:
      break;
  }
  if (Value v = f.globals->GetStr(name)) {
    if (hook_ != nullptr) hook_->OnLoadGlobal(*f.globals, name, v);
    return v;
  }
  if (Value v = process_.builtins()->GetAttr(name)) return v;
  if (Value v = ClassBuiltin(*this, name)) return v;
  if (TorchModuleHas("builtins", name)) {
    RefuseNotModeled(fmt::format("the builtin {} is not modeled", name));
  }
  Raise(heap(), ExcType::kNameError, fmt::format("name '{}' is not defined", name));
}

void Interpreter::StoreName(Frame& f, const std::string& name, Value value) {
  const NameKind kind = f.scope->KindOf(name);
  if (hook_ != nullptr && Is<PyTensor>(value) && kind != NameKind::kGlobal &&
      kind != NameKind::kNamespace) {
    hook_->OnStoreTensor(f, name, value, kind != NameKind::kFree);
  }
  switch (kind) {
    case NameKind::kLocal:
      f.fast[f.scope->local_slot.at(name)] = std::move(value);
      return;
    case NameKind::kCell:
    case NameKind::kFree:
      Mutate(f.cells.at(f.scope->cell_slot.at(name)));
      f.cells.at(f.scope->cell_slot.at(name))->contents = std::move(value);
      return;
    case NameKind::kGlobal:
      Mutate(f.globals);
      f.globals->SetStr(name, std::move(value));
      return;
    case NameKind::kNamespace:
      f.class_namespace->SetStr(name, std::move(value));
      return;
  }
}

void Interpreter::DeleteName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: {
      Value& slot = f.fast[f.scope->local_slot.at(name)];
      if (!slot) {
        Raise(
            heap(), ExcType::kUnboundLocalError,
            fmt::format("cannot access local variable '{}' where it is not associated with a value",
                        name));
      }
      slot.Reset();
      return;
    }
    case NameKind::kCell:
    case NameKind::kFree:
      Mutate(f.cells.at(f.scope->cell_slot.at(name)));
      f.cells.at(f.scope->cell_slot.at(name))->contents.Reset();
      return;
    case NameKind::kGlobal:
      Mutate(f.globals);
      if (!f.globals->EraseStr(name)) {
        Raise(heap(), ExcType::kNameError, fmt::format("name '{}' is not defined", name));
      }
      return;
    case NameKind::kNamespace:
      if (!f.class_namespace->EraseStr(name)) {
        Raise(heap(), ExcType::kNameError, fmt::format("name '{}' is not defined", name));
      }
      return;
  }
}

void Interpreter::ClearName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal:
      f.fast[f.scope->local_slot.at(name)].Reset();
      return;
    case NameKind::kCell:
    case NameKind::kFree:
      f.cells.at(f.scope->cell_slot.at(name))->contents.Reset();
      return;
    case NameKind::kGlobal:
      f.globals->EraseStr(name);
      return;
    case NameKind::kNamespace:
      f.class_namespace->EraseStr(name);
      return;
  }
}

}  // namespace tdc::runtime
