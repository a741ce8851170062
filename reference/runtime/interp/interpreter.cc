// Statements: the module body, blocks, assignment and deletion targets, control flow,
// try/except/finally, with, import.
#include "reference/runtime/interp/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "reference/lang/source_text.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/step_budget.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::runtime {

using namespace lang;  // NOLINT: the interpreter names every statement class

void Interpreter::RunModule(std::shared_ptr<const Program> program, const Ref<PyDict>& globals) {
  Frame frame;
  frame.program = program;
  frame.scope = &program->scopes.Of(program->module.get());
  frame.globals = globals;
  frames_.push_back(&frame);
  struct Pop {
    std::vector<Frame*>& frames;
    ~Pop() { frames.pop_back(); }
  } pop{frames_};
  Value result;
  ExecBlock(frame, program->module->body, result);
}

Interpreter::Flow Interpreter::ExecBlock(Frame& f, const StmtList& body, Value& result) {
  for (const auto& stmt : body) {
    Flow flow = Exec(f, *stmt, result);
    if (flow != Flow::kNext) return flow;
  }
  return Flow::kNext;
}

namespace {

// The statement of `body` that is `stmt` or holds it in an if statement's branches.
const Stmt* Holding(const StmtList& body, const Stmt& stmt);

bool Holds(const Stmt& st, const Stmt& stmt) {
  if (&st == &stmt) return true;
  if (st.kind != NodeKind::kIf) return false;
  const auto& i = As<If>(st);
  return Holding(i.body, stmt) != nullptr || Holding(i.orelse, stmt) != nullptr;
}

const Stmt* Holding(const StmtList& body, const Stmt& stmt) {
  for (const auto& st : body) {
    if (Holds(*st, stmt)) return st.get();
  }
  return nullptr;
}

}  // namespace

bool Interpreter::CanResumeAt(const StmtList& body, const Stmt& stmt) {
  return Holding(body, stmt) != nullptr;
}

Interpreter::Flow Interpreter::ExecFrom(Frame& f, const StmtList& body, const Stmt& stmt,
                                        Value& result) {
  auto it =
      std::find_if(body.begin(), body.end(), [&](const auto& st) { return Holds(*st, stmt); });
  Flow flow;
  if (it->get() == &stmt) {
    flow = Exec(f, stmt, result);
  } else {
    // The branch holding it was taken: the test is not evaluated again.
    const auto& i = As<If>(**it);
    f.line = i.span.begin.line;
    flow = ExecFrom(f, Holding(i.body, stmt) != nullptr ? i.body : i.orelse, stmt, result);
  }
  for (++it; flow == Flow::kNext && it != body.end(); ++it) flow = Exec(f, **it, result);
  return flow;
}

Interpreter::Flow Interpreter::ExecFunctionBody(Frame& f, const StmtList& body, Value& result) {
  try {
    return ExecBlock(f, body, result);
  } catch (ResumeFrame& resume) {
    if (resume.frame != &f) throw;
    for (;;) {
      f.fast = std::move(resume.fast);
      f.stack.clear();
      f.made_call = resume.made;
      f.made_value = std::move(resume.value);
      try {
        return ExecFrom(f, body, *resume.stmt, result);
      } catch (ResumeFrame& again) {
        if (again.frame != &f) throw;
        resume = std::move(again);
      }
    }
  }
}

void LocateNotModeled(NotModeled& refusal, const Frame& f, const lang::Node& node) {
  if (refusal.located()) return;
  const SourcePos& at = node.span.begin;
  refusal.Locate(fmt::format("{}:{}:{}", f.program->filename, at.line,
                             lang::SourceText(f.program->source).CharColumn(at.line, at.col)));
}

Interpreter::Flow Interpreter::Exec(Frame& f, const Stmt& st, Value& result) {
  try {
    return ExecNode(f, st, result);
  } catch (NotModeled& refusal) {
    LocateNotModeled(refusal, f, st);
    throw;
  }
}

Interpreter::Flow Interpreter::ExecNode(Frame& f, const Stmt& st, Value& result) {
  f.line = st.span.begin.line;
  f.stmt = &st;
  TakeStep();
  CheckStackLeft();
  if (hook_ != nullptr) hook_->OnStatement(f, st);
  switch (st.kind) {
    case NodeKind::kExprStmt:
      Eval(f, *As<ExprStmt>(st).value);  // the value dies here, as POP_TOP drops it
      return Flow::kNext;
    case NodeKind::kAssign: {
      const auto& a = As<lang::Assign>(st);
      Value value = Eval(f, *a.value);
      for (size_t i = 0; i < a.targets.size(); ++i) {
        // COPY: a copy of the value waits for the targets after this one.
        PendingValues copy(f);
        if (i + 1 < a.targets.size()) copy.Push(value);
        Assign(f, *a.targets[i], value);
      }
      return Flow::kNext;
    }
    case NodeKind::kAugAssign:
      ExecAugAssign(f, As<AugAssign>(st));
      return Flow::kNext;
    case NodeKind::kFunctionDef: {
      const auto& def = As<FunctionDef>(st);
      StoreName(f, def.name, MakeFunction(f, def, def.name, def.args.get()));
      return Flow::kNext;
    }
    case NodeKind::kClassDef: {
      const auto& def = As<lang::ClassDef>(st);
      StoreName(f, def.name, MakeClass(f, def));
      return Flow::kNext;
    }
    case NodeKind::kReturn: {
      const auto& r = As<Return>(st);
      result = r.value ? Eval(f, *r.value) : heap().None();
      return Flow::kReturn;
    }
    case NodeKind::kDelete:
      for (const auto& target : As<lang::Delete>(st).targets) Delete(f, *target);
      return Flow::kNext;
    case NodeKind::kIf: {
      const auto& i = As<If>(st);
      const bool taken = JumpsToBody(f, st, *i.test, false);
      return ExecBlock(f, taken ? i.body : i.orelse, result);
    }
    case NodeKind::kWhile:
      return ExecWhile(f, As<While>(st), result);
    case NodeKind::kFor:
      return ExecFor(f, As<For>(st), result);
    case NodeKind::kTry:
      return ExecTry(f, As<Try>(st), result);
    case NodeKind::kWith:
      return ExecWith(f, As<With>(st), 0, result);
    case NodeKind::kRaise:
      ExecRaise(f, As<lang::Raise>(st));
      return Flow::kNext;
    case NodeKind::kAssert: {
      const auto& a = As<Assert>(st);
      // compiler_assert: the test's jumps go past the raise when it holds.
      if (!JumpIf(f, *a.test, true)) {
        if (a.msg) {
          Value message = Eval(f, *a.msg);
          throw PyError(heap().NewException(ExcType::kAssertionError, heap().NewTuple({message})));
        }
        throw PyError(heap().NewException(ExcType::kAssertionError, heap().NewTuple({})));
      }
      return Flow::kNext;
    }
    case NodeKind::kImport:
    case NodeKind::kImportFrom:
      ExecImport(f, st);
      return Flow::kNext;
    case NodeKind::kGlobal:
    case NodeKind::kNonlocal:
    case NodeKind::kPass:
      return Flow::kNext;
    case NodeKind::kBreak:
      return Flow::kBreak;
    case NodeKind::kContinue:
      return Flow::kContinue;
    case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  RefuseNotModeled("statement outside the tdconform subset");
}

Interpreter::Flow Interpreter::ExecFor(Frame& f, const For& st, Value& result) {
  Value iterable = Eval(f, *st.iter);
  std::vector<Value> items = Iterate(iterable);
  iterable.Reset();
  bool broke = false;
  for (Value& item : items) {
    Assign(f, *st.target, std::move(item));
    Flow flow = ExecBlock(f, st.body, result);
    if (flow == Flow::kBreak) {
      broke = true;
      break;
    }
    if (flow == Flow::kReturn) return flow;
  }
  items.clear();
  return broke ? Flow::kNext : ExecBlock(f, st.orelse, result);
}

bool Interpreter::JumpsToBody(Frame& f, const lang::Stmt& stmt, const lang::Expr& test,
                              bool loop_end) {
  // CPython 3.11 compiles a while's test twice: before the body (a forward jump past it) and
  // at the end of the body (a backward jump to its start), the second at the while
  // statement's line; `continue` goes back to the first.
  f.line = stmt.span.begin.line;
  f.stmt = &stmt;
  struct Copy {
    Frame& f;
    ~Copy() { f.in_loop_end_test = false; }
  } copy{f};
  f.in_loop_end_test = loop_end;
  return loop_end ? JumpIf(f, test, true) : !JumpIf(f, test, false);
}

bool Interpreter::JumpIf(Frame& f, const lang::Expr& e, bool cond) {
  // `not` inverts the jumps of its operand; `and` / `or` jump on each operand in turn, past
  // the rest when one decides; a ternary jumps on its test, then on the part it selects.
  if (e.kind == NodeKind::kUnaryOp && As<lang::UnaryOp>(e).op == lang::UnaryOpKind::kNot) {
    return JumpIf(f, *As<lang::UnaryOp>(e).operand, !cond);
  }
  if (e.kind == NodeKind::kBoolOp) {
    const auto& b = As<BoolOp>(e);
    const bool decides = b.op == BoolOpKind::kOr;  // the operand truth that ends the test
    for (size_t i = 0; i + 1 < b.values.size(); ++i) {
      if (JumpIf(f, *b.values[i], decides)) return decides == cond;
    }
    return JumpIf(f, *b.values.back(), cond);
  }
  if (e.kind == NodeKind::kIfExp) {
    const auto& i = As<IfExp>(e);
    return JumpIf(f, JumpIf(f, *i.test, false) ? *i.orelse : *i.body, cond);
  }
  return BranchTruth(*this, Eval(f, e), e) == cond;
}

Interpreter::Flow Interpreter::ExecWhile(Frame& f, const While& st, Value& result) {
  bool loop_end = false;
  while (JumpsToBody(f, st, *st.test, loop_end)) {
    Flow flow = ExecBlock(f, st.body, result);
    if (flow == Flow::kBreak) return Flow::kNext;
    if (flow == Flow::kReturn) return flow;
    loop_end = flow != Flow::kContinue;
  }
  return ExecBlock(f, st.orelse, result);
}

Interpreter::Flow Interpreter::ExecTry(Frame& f, const Try& st, Value& result) {
  Flow flow = Flow::kNext;
  auto run_finally = [&]() {
    if (st.finalbody.empty()) return;
    Value ignored;
    Flow fin = ExecBlock(f, st.finalbody, ignored);
    if (fin != Flow::kNext) {
      flow = fin;
      result = ignored;
    }
  };
  try {
    try {
      flow = ExecBlock(f, st.body, result);
    } catch (const PyError& error) {
      Value exception = error.exception();
      for (const auto& handler : st.handlers) {
        if (handler->type && !ExceptionMatches(*this, exception, Eval(f, *handler->type))) continue;
        handling_.push_back(exception);
        struct PopHandling {
          std::vector<Value>& stack;
          ~PopHandling() { stack.pop_back(); }
        } pop{handling_};
        if (handler->name) StoreName(f, *handler->name, exception);
        exception.Reset();
        try {
          flow = ExecBlock(f, handler->body, result);
        } catch (...) {
          if (handler->name) ClearName(f, *handler->name);
          throw;
        }
        // CPython deletes the `as` name when the handler ends.
        if (handler->name) ClearName(f, *handler->name);
        run_finally();
        return flow;
      }
      throw;
    }
    if (flow == Flow::kNext) flow = ExecBlock(f, st.orelse, result);
  } catch (const PyError&) {
    run_finally();  // a return/break in finally swallows the exception, as in Python
    if (flow != Flow::kNext && !st.finalbody.empty()) return flow;
    throw;
  }
  run_finally();
  return flow;
}

Interpreter::Flow Interpreter::ExecWith(Frame& f, const With& st, size_t item, Value& result) {
  if (item == st.items.size()) return ExecBlock(f, st.body, result);
  const WithItem& w = *st.items[item];
  Value manager = Eval(f, *w.context_expr);
  if (hook_ != nullptr) hook_->OnEnterContext(f, manager);
  Value enter, exit;
  if (IsUserInstance(manager)) {
    std::tie(enter, exit) = ContextMethods(*this, manager);
  } else {
    // BEFORE_WITH looks __enter__ up, then __exit__; a missing one is its TypeError.
    auto method = [&](std::string_view name) -> Value {
      try {
        return GetAttr(manager, name);
      } catch (const PyError& e) {
        if (e.type() != ExcType::kAttributeError) throw;
        return nullptr;
      }
    };
    const std::string protocol =
        fmt::format("'{}' object does not support the context manager protocol", TypeName(manager));
    enter = method("__enter__");
    if (!enter) Raise(heap(), ExcType::kTypeError, protocol);
    exit = method("__exit__");
    if (!exit) Raise(heap(), ExcType::kTypeError, protocol + " (missed __exit__ method)");
  }
  Value entered = Call(enter, {});
  enter.Reset();
  manager.Reset();
  // __exit__ waits on the frame's stack while the block runs, as CPython's BEFORE_WITH
  // leaves it (a resume function inside the block names it ___stack0).
  struct OnStack {
    Frame& f;
    size_t depth;
    ~OnStack() {
      f.stack.resize(depth);
      f.with_exits.pop_back();
    }
  } on_stack{f, f.stack.size()};
  f.with_exits.push_back(f.stack.size());
  f.stack.push_back(exit);
  if (w.optional_vars) Assign(f, *w.optional_vars, std::move(entered));
  entered.Reset();
  Flow flow;
  try {
    flow = ExecWith(f, st, item + 1, result);
  } catch (const PyError& error) {
    Value exception = error.exception();
    Value suppress = Call(exit, {{TypeOf(*this, exception), exception, heap().None()}, {}});
    if (!Truth(*this, suppress)) throw;
    return Flow::kNext;
  } catch (...) {
    // Dynamo abandoning the frame (a restart, a skipped root): the block is left, so its
    // state (grad mode, error_on_graph_break) is restored before the frame runs again
    // (golden error_on_graph_break/s39_nested_deep). The abandoning stays what propagates.
    try {
      Call(exit, {{heap().None(), heap().None(), heap().None()}, {}});
    } catch (const PyError&) {
    }
    throw;
  }
  Call(exit, {{heap().None(), heap().None(), heap().None()}, {}});
  // A return leaves through the block's exit code, which CPython 3.11 places at the with
  // statement's line (the outermost block's, unwinding from the innermost).
  if (flow == Flow::kReturn) f.line = st.span.begin.line;
  return flow;
}

void Interpreter::ExecImport(Frame& f, const Stmt& st) {
  if (st.kind == NodeKind::kImport) {
    for (const auto& alias : As<lang::Import>(st).names) {
      Value module = ImportModule(*this, alias->name);  // raises ModuleNotFoundError
      if (alias->asname) {
        StoreName(f, *alias->asname, module);
      } else {
        std::string top = alias->name.substr(0, alias->name.find('.'));
        StoreName(f, top, ImportModule(*this, top));
      }
    }
    return;
  }
  const auto& from = As<lang::ImportFrom>(st);
  if (from.level > 0) {  // runpy runs the fixture as a script: it has no package
    Raise(heap(), ExcType::kImportError, "attempted relative import with no known parent package");
  }
  Value module = ImportModule(*this, from.module.value_or(""));
  for (const auto& alias : from.names) {
    StoreName(f, alias->asname.value_or(alias->name), ImportFrom(*this, module, alias->name));
  }
}

void Interpreter::Assign(Frame& f, const Expr& target, Value value) {
  switch (target.kind) {
    case NodeKind::kName:
      StoreName(f, As<Name>(target).id, std::move(value));
      return;
    case NodeKind::kAttribute: {  // STORE_ATTR: the value waits below the object
      const auto& a = As<Attribute>(target);
      Value object;
      {
        PendingValues pending(f, value);
        object = Eval(f, *a.value);
      }
      SetAttr(object, a.attr, std::move(value));
      return;
    }
    case NodeKind::kSubscript: {  // STORE_SUBSCR: the value, then the container, wait
      const auto& s = As<Subscript>(target);
      Value container, key;
      {
        PendingValues pending(f, value);
        container = Eval(f, *s.value);
        pending.Push(container);
        key = Eval(f, *s.slice);
      }
      SetItem(*this, container, key, std::move(value));
      return;
    }
    case NodeKind::kTuple:
    case NodeKind::kList: {
      const ExprList& elts =
          target.kind == NodeKind::kTuple ? As<Tuple>(target).elts : As<List>(target).elts;
      // UNPACK_SEQUENCE leaves the items on the stack, which the stack model does not follow
      // while a target's object or index is evaluated.
      OpaqueStack opaque(f, true);
      std::vector<Value> items = Iterate(value);
      value.Reset();
      const auto starred = std::find_if(elts.begin(), elts.end(), [](const lang::ExprPtr& e) {
        return e->kind == NodeKind::kStarred;
      });
      if (starred == elts.end()) {
        if (items.size() != elts.size()) {
          Raise(heap(), ExcType::kValueError,
                items.size() > elts.size()
                    ? fmt::format("too many values to unpack (expected {})", elts.size())
                    : fmt::format("not enough values to unpack (expected {}, got {})", elts.size(),
                                  items.size()));
        }
        for (size_t i = 0; i < elts.size(); ++i) Assign(f, *elts[i], std::move(items[i]));
        return;
      }
      // UNPACK_EX: the targets before and after the starred one take an item each; the
      // starred one a list of what is left between them.
      const size_t before = static_cast<size_t>(starred - elts.begin());
      const size_t after = elts.size() - before - 1;
      if (items.size() < before + after) {
        Raise(heap(), ExcType::kValueError,
              fmt::format("not enough values to unpack (expected at least {}, got {})",
                          before + after, items.size()));
      }
      const auto rest_begin = items.begin() + static_cast<std::ptrdiff_t>(before);
      const auto rest_end = items.end() - static_cast<std::ptrdiff_t>(after);
      Value rest = heap().NewList(std::vector<Value>(rest_begin, rest_end));
      for (size_t i = 0; i < before; ++i) Assign(f, *elts[i], std::move(items[i]));
      Assign(f, *As<Starred>(**starred).value, std::move(rest));
      for (size_t i = 0; i < after; ++i) {
        Assign(f, *elts[before + 1 + i], std::move(items[items.size() - after + i]));
      }
      return;
    }
    case NodeKind::kBoolOp:
    case NodeKind::kBinOp:
    case NodeKind::kUnaryOp:
    case NodeKind::kLambda:
    case NodeKind::kIfExp:
    case NodeKind::kDict:
    case NodeKind::kListComp:
    case NodeKind::kCompare:
    case NodeKind::kCall:
    case NodeKind::kConstant:
    case NodeKind::kStarred:
    case NodeKind::kSlice:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  RefuseNotModeled("assignment target outside the reference");
}

void Interpreter::Delete(Frame& f, const Expr& target) {
  switch (target.kind) {
    case NodeKind::kName:
      DeleteName(f, As<Name>(target).id);
      return;
    case NodeKind::kSubscript: {
      const auto& s = As<Subscript>(target);
      Value container = Eval(f, *s.value);
      Value key;
      {
        PendingValues pending(f, container);
        key = Eval(f, *s.slice);
      }
      DelItem(*this, container, key);
      return;
    }
    case NodeKind::kAttribute: {
      const auto& a = As<Attribute>(target);
      DelAttr(*this, Eval(f, *a.value), a.attr);
      return;
    }
    case NodeKind::kTuple:
      for (const auto& e : As<Tuple>(target).elts) Delete(f, *e);
      return;
    case NodeKind::kList:
      for (const auto& e : As<List>(target).elts) Delete(f, *e);
      return;
    case NodeKind::kBoolOp:
    case NodeKind::kBinOp:
    case NodeKind::kUnaryOp:
    case NodeKind::kLambda:
    case NodeKind::kIfExp:
    case NodeKind::kDict:
    case NodeKind::kListComp:
    case NodeKind::kCompare:
    case NodeKind::kCall:
    case NodeKind::kConstant:
    case NodeKind::kStarred:
    case NodeKind::kSlice:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  RefuseNotModeled("del target outside the reference");
}

void Interpreter::ExecRaise(Frame& f, const lang::Raise& st) {
  if (!st.exc) {
    if (handling_.empty()) Raise(heap(), ExcType::kRuntimeError, "No active exception to reraise");
    if (hook_ != nullptr) hook_->OnRaise(handling_.back());
    throw PyError(handling_.back());
  }
  Value raised = Eval(f, *st.exc);
  if (st.cause) Eval(f, *st.cause);  // the cause is not observable in outcomes
  Value exception = MakeRaisable(*this, raised);
  if (hook_ != nullptr) hook_->OnRaise(exception);
  throw PyError(exception);
}

}  // namespace tdc::runtime
