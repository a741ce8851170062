// Calls and names: invoking every kind of callable, binding a Python function's
// parameters with CPython 3.11's TypeError texts, and reading and writing names by scope.
#include <fmt/format.h>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/attributes.h"
#include "reference/runtime/interp/py_ops.h"

namespace tdc::runtime {

using namespace lang;  // NOLINT

namespace {

// CPython's recursion limit is 1000 frames; the reference stops at the same depth.
constexpr size_t kMaxDepth = 1000;

// "'a'", "'a' and 'b'", "'a', 'b', and 'c'" (CPython's format_missing).
std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

}  // namespace

Value Interpreter::Call(const Value& callee, CallArgs args) {
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
    if (hook_ != nullptr) {
      if (std::optional<Value> replaced = hook_->OnCall(function, args)) return *replaced;
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
  frame.fast.resize(frame.scope->varnames.size());
  for (size_t i = 0; i < frame.scope->cellvars.size(); ++i) frame.cells.push_back(heap().NewCell());
  if (auto* closure = DynCast<PyTuple>(function->closure)) {
    for (const Value& cell : closure->items()) frame.cells.push_back(RefCast<PyCell>(cell));
  }
  const Arguments* params = code.def->kind == NodeKind::kFunctionDef
                                ? As<FunctionDef>(*code.def).args.get()
                                : As<Lambda>(*code.def).args.get();
  BindArguments(frame, *function, *params, args);
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
  if (code.def->kind == NodeKind::kLambda) {
    result = Eval(frame, *As<Lambda>(*code.def).body);
  } else if (ExecBlock(frame, As<FunctionDef>(*code.def).body, result) != Flow::kReturn) {
    result = heap().None();
  }
  return result;
}

void Interpreter::BindArguments(Frame& frame, const PyFunction& function, const Arguments& params,
                                CallArgs& args) {
  std::string qualname(function.qualname_text());
  std::vector<const Arg*> positional;
  for (const auto& a : params.posonlyargs) positional.push_back(a.get());
  for (const auto& a : params.args) positional.push_back(a.get());
  std::vector<Value> slots(positional.size() + params.kwonlyargs.size());
  auto store = [&](const std::string& name, Value value) {
    const Scope& scope = *frame.scope;
    auto local = scope.local_slot.find(name);
    if (local != scope.local_slot.end()) {
      frame.fast[local->second] = std::move(value);
    } else {
      frame.cells.at(scope.cell_slot.at(name))->contents = std::move(value);
    }
  };
  size_t given = args.positional.size();
  if (given > positional.size() && !params.vararg) {
    size_t defaults = params.defaults.size();
    std::string takes = defaults == 0 ? std::to_string(positional.size())
                                      : fmt::format("from {} to {}", positional.size() - defaults,
                                                    positional.size());
    Raise(heap(), ExcType::kTypeError,
          fmt::format("{}() takes {} positional argument{} but {} {} given", qualname, takes,
                      positional.size() == 1 && defaults == 0 ? "" : "s", given,
                      given == 1 ? "was" : "were"));
  }
  for (size_t i = 0; i < std::min(given, positional.size()); ++i) slots[i] = args.positional[i];
  Ref<PyDict> extra_keywords = params.kwarg ? heap().NewDict() : Ref<PyDict>();
  for (auto& [name, value] : args.keywords) {
    size_t index = slots.size();
    for (size_t i = params.posonlyargs.size(); i < positional.size(); ++i) {
      if (positional[i]->arg == name) index = i;
    }
    for (size_t i = 0; i < params.kwonlyargs.size(); ++i) {
      if (params.kwonlyargs[i]->arg == name) index = positional.size() + i;
    }
    if (index == slots.size()) {
      if (!extra_keywords) {
        Raise(heap(), ExcType::kTypeError,
              fmt::format("{}() got an unexpected keyword argument '{}'", qualname, name));
      }
      extra_keywords->SetStr(name, value);
      continue;
    }
    if (slots[index]) {
      Raise(heap(), ExcType::kTypeError,
            fmt::format("{}() got multiple values for argument '{}'", qualname, name));
    }
    slots[index] = value;
  }
  // Defaults fill the last positional parameters, then keyword-only ones.
  const auto* defaults = DynCast<PyTuple>(function.defaults);
  size_t n_defaults = defaults != nullptr ? defaults->size() : 0;
  std::vector<std::string> missing;
  for (size_t i = 0; i < positional.size(); ++i) {
    if (slots[i]) continue;
    size_t first_default = positional.size() - n_defaults;
    if (i >= first_default) {
      slots[i] = defaults->items()[i - first_default];
    } else {
      missing.push_back(positional[i]->arg);
    }
  }
  if (!missing.empty()) {
    Raise(heap(), ExcType::kTypeError,
          fmt::format("{}() missing {} required positional argument{}: {}", qualname, missing.size(),
                      missing.size() == 1 ? "" : "s", NameList(missing)));
  }
  const auto* kwdefaults = DynCast<PyDict>(function.kwdefaults);
  for (size_t i = 0; i < params.kwonlyargs.size(); ++i) {
    Value& slot = slots[positional.size() + i];
    if (!slot && kwdefaults != nullptr) slot = kwdefaults->GetStr(params.kwonlyargs[i]->arg);
    if (!slot) missing.push_back(params.kwonlyargs[i]->arg);
  }
  if (!missing.empty()) {
    Raise(heap(), ExcType::kTypeError,
          fmt::format("{}() missing {} required keyword-only argument{}: {}", qualname,
                      missing.size(), missing.size() == 1 ? "" : "s", NameList(missing)));
  }
  // Stored in co_varnames order: positional, keyword-only, *args, **kwargs.
  for (size_t i = 0; i < positional.size(); ++i) store(positional[i]->arg, std::move(slots[i]));
  for (size_t i = 0; i < params.kwonlyargs.size(); ++i) {
    store(params.kwonlyargs[i]->arg, std::move(slots[positional.size() + i]));
  }
  if (params.vararg) {
    std::vector<Value> rest;
    for (size_t i = positional.size(); i < given; ++i) rest.push_back(args.positional[i]);
    store(params.vararg->arg, heap().NewTuple(std::move(rest)));
  }
  if (params.kwarg) store(params.kwarg->arg, extra_keywords);
}

Value Interpreter::LoadName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: {
      const Value& v = f.fast[f.scope->local_slot.at(name)];
      if (!v) {
        Raise(heap(), ExcType::kUnboundLocalError,
              fmt::format("cannot access local variable '{}' where it is not associated with a value", name));
      }
      return v;
    }
    case NameKind::kCell:
    case NameKind::kFree: {
      const Value& v = f.cells.at(f.scope->cell_slot.at(name))->contents;
      if (!v) {
        bool free = f.scope->KindOf(name) == NameKind::kFree;
        Raise(heap(), free ? ExcType::kNameError : ExcType::kUnboundLocalError,
              free ? fmt::format("cannot access free variable '{}' where it is not associated with a "
                                 "value in enclosing scope", name)
                   : fmt::format("cannot access local variable '{}' where it is not associated with a value", name));
      }
      return v;
    }
    case NameKind::kGlobal: break;
  }
  if (Value v = f.globals->GetStr(name)) return v;
  if (Value v = process_.builtins()->GetAttr(name)) return v;
  Raise(heap(), ExcType::kNameError, fmt::format("name '{}' is not defined", name));
}

void Interpreter::StoreName(Frame& f, const std::string& name, Value value) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: f.fast[f.scope->local_slot.at(name)] = std::move(value); return;
    case NameKind::kCell:
    case NameKind::kFree: f.cells.at(f.scope->cell_slot.at(name))->contents = std::move(value); return;
    case NameKind::kGlobal: f.globals->SetStr(name, std::move(value)); return;
  }
}

void Interpreter::DeleteName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: {
      Value& slot = f.fast[f.scope->local_slot.at(name)];
      if (!slot) {
        Raise(heap(), ExcType::kUnboundLocalError,
              fmt::format("cannot access local variable '{}' where it is not associated with a value", name));
      }
      slot.Reset();
      return;
    }
    case NameKind::kCell:
    case NameKind::kFree: f.cells.at(f.scope->cell_slot.at(name))->contents.Reset(); return;
    case NameKind::kGlobal:
      if (!f.globals->EraseStr(name)) {
        Raise(heap(), ExcType::kNameError, fmt::format("name '{}' is not defined", name));
      }
      return;
  }
}

void Interpreter::ClearName(Frame& f, const std::string& name) {
  switch (f.scope->KindOf(name)) {
    case NameKind::kLocal: f.fast[f.scope->local_slot.at(name)].Reset(); return;
    case NameKind::kCell:
    case NameKind::kFree: f.cells.at(f.scope->cell_slot.at(name))->contents.Reset(); return;
    case NameKind::kGlobal: f.globals->EraseStr(name); return;
  }
}

}  // namespace tdc::runtime
