// Expressions, evaluated in CPython 3.11's order.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/interp/step_budget.h"
#include "reference/runtime/stack_guard.h"

namespace tdc::runtime {

using namespace lang;  // NOLINT: the evaluator names every expression class

namespace {

// CPython's AST optimizer folds `-<number>` into one constant.
bool IsFoldedNegative(const Expr& e) {
  if (e.kind != NodeKind::kUnaryOp) return false;
  const auto& u = As<lang::UnaryOp>(e);
  if (u.op != UnaryOpKind::kUSub || u.operand->kind != NodeKind::kConstant) return false;
  auto k = As<lang::Constant>(*u.operand).value.kind;
  return k == ConstantValue::Kind::kInt || k == ConstantValue::Kind::kFloat;
}

// CPython's AST optimizer also folds a tuple display whose items are all constants
// (nested constant tuples included) into one constant of the code object.
bool IsConstantTuple(const Expr& e) {
  if (e.kind != NodeKind::kTuple) return false;
  for (const auto& elt : As<lang::Tuple>(e).elts) {
    bool constant =
        elt->kind == NodeKind::kConstant || IsFoldedNegative(*elt) || IsConstantTuple(*elt);
    if (!constant) return false;
  }
  return !As<lang::Tuple>(e).elts.empty();
}

// Names the call being made in its frame while the callee runs.
class CurrentCall {
 public:
  CurrentCall(Frame& f, const lang::Call& call) : f_(f), saved_(f.call) { f.call = &call; }
  ~CurrentCall() { f_.call = saved_; }
  CurrentCall(const CurrentCall&) = delete;
  CurrentCall& operator=(const CurrentCall&) = delete;

 private:
  Frame& f_;
  const lang::Call* saved_;
};

}  // namespace

Value Interpreter::Docstring(Frame& f, const lang::StmtList& body) {
  if (body.empty() || body.front()->kind != NodeKind::kExprStmt) return nullptr;
  const lang::Expr& first = *As<lang::ExprStmt>(*body.front()).value;
  if (first.kind != NodeKind::kConstant) return nullptr;
  const auto& literal = As<lang::Constant>(first);
  return literal.value.kind == ConstantValue::Kind::kStr ? Constant(f, literal) : nullptr;
}

Value Interpreter::Constant(Frame& f, const lang::Constant& c) {
  (void)f;
  auto cached = constants_.find(&c);
  if (cached != constants_.end()) return cached->second;
  Value v;
  const ConstantValue& cv = c.value;
  switch (cv.kind) {
    case ConstantValue::Kind::kNone:
      v = heap().None();
      break;
    case ConstantValue::Kind::kBool:
      v = heap().Bool(cv.boolean);
      break;
    case ConstantValue::Kind::kInt: {
      int64_t parsed = 0;
      auto [end, err] =
          std::from_chars(cv.integer.data(), cv.integer.data() + cv.integer.size(), parsed);
      if (err != std::errc() || end != cv.integer.data() + cv.integer.size()) {
        RefuseNotModeled("int literal outside the reference's int64 range");
      }
      v = heap().ConstantInt(parsed);
      break;
    }
    case ConstantValue::Kind::kFloat:
      v = heap().ConstantFloat(cv.real);
      break;
    case ConstantValue::Kind::kStr:
      v = heap().Intern(cv.text);
      break;
    case ConstantValue::Kind::kEllipsis:
      v = EllipsisObject(*this);
      break;
    case ConstantValue::Kind::kComplex:
    case ConstantValue::Kind::kBytes:
      RefuseNotModeled("bytes and complex constants are outside the reference");
  }
  constants_.emplace(&c, v);
  return v;
}

Value Interpreter::Eval(Frame& f, const Expr& e) {
  try {
    CheckStackLeft();
    return EvalNode(f, e);
  } catch (NotModeled& refusal) {
    LocateNotModeled(refusal, f, e);
    throw;
  }
}

Value Interpreter::EvalNode(Frame& f, const Expr& e) {
  // BUILD_SLICE's operands, None for a missing one, each waiting on the stack while the next
  // is evaluated.
  auto slice_parts = [&](const lang::Slice& sl, PendingValues& pending) {
    std::array<Value, 3> parts;
    const lang::ExprPtr* exprs[] = {&sl.lower, &sl.upper, &sl.step};
    for (size_t i = 0; i < 3; ++i) {
      parts[i] = *exprs[i] ? Eval(f, **exprs[i]) : heap().None();
      pending.Push(parts[i]);
    }
    return parts;
  };
  switch (e.kind) {
    case NodeKind::kConstant:
      return Constant(f, As<lang::Constant>(e));
    case NodeKind::kName:
      return LoadName(f, As<Name>(e).id);
    case NodeKind::kAttribute: {
      const auto& a = As<Attribute>(e);
      Value object = Eval(f, *a.value);
      ProgramAttributeRead(object, a.attr);
      return GetAttr(object, a.attr);
    }
    case NodeKind::kCall:
      return EvalCall(f, As<lang::Call>(e));
    case NodeKind::kBinOp: {
      const auto& b = As<BinOp>(e);
      Value left = Eval(f, *b.left);
      Value right;
      {
        PendingValues pending(f, left);
        right = Eval(f, *b.right);
      }
      return BinaryOperation(*this, b.op, left, right);
    }
    case NodeKind::kUnaryOp: {
      const auto& u = As<lang::UnaryOp>(e);
      if (IsFoldedNegative(e)) {
        auto cached = constants_.find(&e);
        if (cached != constants_.end()) return cached->second;
        Value positive = Constant(f, As<lang::Constant>(*u.operand));
        Value v = Is<PyFloat>(positive) ? heap().ConstantFloat(-DynCast<PyFloat>(positive)->value())
                                        : heap().ConstantInt(-DynCast<PyInt>(positive)->value());
        constants_.emplace(&e, v);
        return v;
      }
      if (u.op == lang::UnaryOpKind::kNot) return NotOperation(*this, Eval(f, *u.operand), e);
      return UnaryOperation(*this, u.op, Eval(f, *u.operand));
    }
    case NodeKind::kBoolOp: {
      const auto& b = As<BoolOp>(e);
      Value v;
      for (size_t i = 0; i < b.values.size(); ++i) {
        v = Eval(f, *b.values[i]);
        if (i + 1 == b.values.size()) break;  // the last operand is the value, never tested
        // JUMP_IF_FALSE_OR_POP / JUMP_IF_TRUE_OR_POP: the value stays when it decides.
        bool t = BranchTruth(*this, v, *b.values[i]);
        if (b.op == BoolOpKind::kAnd ? !t : t) return v;
      }
      return v;
    }
    case NodeKind::kCompare: {
      const auto& c = As<lang::Compare>(e);
      Value left = Eval(f, *c.left);
      Value result;
      for (size_t i = 0; i < c.ops.size(); ++i) {
        Value right;
        {
          PendingValues pending(f, left);  // the left operand (a chain's copy of the last one)
          right = Eval(f, *c.comparators[i]);
        }
        result = CompareOperation(*this, c.ops[i], left, right);
        if (i + 1 < c.ops.size() && !Truth(*this, result)) return result;
        left = std::move(right);
      }
      return result;
    }
    case NodeKind::kIfExp: {
      const auto& i = As<IfExp>(e);
      return Eval(f, JumpIf(f, *i.test, false) ? *i.orelse : *i.body);
    }
    case NodeKind::kLambda:
      return MakeFunction(f, e, "<lambda>", As<Lambda>(e).args.get());
    case NodeKind::kListComp:
      return EvalListComp(f, As<ListComp>(e));
    case NodeKind::kList:
    case NodeKind::kTuple: {
      if (IsConstantTuple(e)) {
        auto cached = constants_.find(&e);
        if (cached != constants_.end()) return cached->second;
        std::vector<Value> items;
        for (const auto& elt : As<lang::Tuple>(e).elts) items.push_back(Eval(f, *elt));
        Value folded = heap().ConstantTuple(std::move(items));
        constants_.emplace(&e, folded);
        return folded;
      }
      const ExprList& elts =
          e.kind == NodeKind::kList ? As<lang::List>(e).elts : As<lang::Tuple>(e).elts;
      // starunpack_helper: the items pushed, then BUILD_LIST / BUILD_TUPLE; from a starred
      // item on (or from the start, past the guideline) a list of the items so far is what
      // waits on the stack, extended as it goes (LIST_TO_TUPLE at the end of a tuple).
      const bool big = elts.size() > kStackUseGuideline;
      Ref<PyList> building;
      std::vector<Value> items;
      PendingValues pending(f);
      auto build = [&] {
        building = heap().NewList(items);
        pending.Collapse(building);
      };
      if (big) build();
      for (const auto& elt : elts) {
        if (elt->kind == NodeKind::kStarred) {
          if (!building) build();
          for (Value& v : Iterate(Eval(f, *As<Starred>(*elt).value))) {
            building->items().push_back(v);
            items.push_back(std::move(v));
          }
          continue;
        }
        Value v = Eval(f, *elt);
        if (building) {
          building->items().push_back(v);
        } else {
          pending.Push(v);
        }
        items.push_back(std::move(v));
      }
      if (e.kind == NodeKind::kList) {
        return building ? Value(building) : Value(heap().NewList(std::move(items)));
      }
      return heap().NewTuple(std::move(items));
    }
    case NodeKind::kDict: {
      const auto& d = As<lang::Dict>(e);
      Ref<PyDict> dict = heap().NewDict();
      // compiler_dict: up to 15 items without `**` are pushed (the values alone when every
      // key of two or more is a constant: BUILD_CONST_KEY_MAP), then BUILD_MAP; otherwise dicts
      // are built and merged as it goes, which the stack model does not follow.
      const bool unpacks =
          std::any_of(d.keys.begin(), d.keys.end(), [](const lang::ExprPtr& k) { return !k; });
      const bool const_keys = d.keys.size() > 1 &&
                              std::all_of(d.keys.begin(), d.keys.end(), [](const lang::ExprPtr& k) {
                                return k && k->kind == NodeKind::kConstant;
                              });
      OpaqueStack opaque(f, unpacks || d.keys.size() * 2 > kStackUseGuideline);
      PendingValues pending(f);
      for (size_t i = 0; i < d.keys.size(); ++i) {
        if (!d.keys[i]) {  // `**mapping`
          Value mapping = Eval(f, *d.values[i]);
          auto* source = DynCast<PyDict>(mapping);
          if (source == nullptr) {
            Raise(heap(), ExcType::kTypeError,
                  fmt::format("'{}' object is not a mapping", TypeName(mapping)));
          }
          for (auto& [k, v] : source->Items()) dict->Set(k, v);
          continue;
        }
        Value key = Eval(f, *d.keys[i]);
        if (!const_keys) pending.Push(key);
        Value value = Eval(f, *d.values[i]);
        pending.Push(value);
        dict->Set(std::move(key), std::move(value));
      }
      return dict;
    }
    case NodeKind::kSubscript: {
      const auto& s = As<Subscript>(e);
      Value container = Eval(f, *s.value);
      PendingValues pending(f, container);
      if (s.slice->kind == NodeKind::kSlice) {  // seq[a:b:c] without a slice object
        auto [lower, upper, step] = slice_parts(As<lang::Slice>(*s.slice), pending);
        return GetSlice(*this, container, lower, upper, step);
      }
      Value key = Eval(f, *s.slice);
      return GetItem(*this, container, key);
    }
    case NodeKind::kSlice: {  // a:b:c inside a tuple index (BUILD_SLICE)
      PendingValues pending(f);
      auto [lower, upper, step] = slice_parts(As<lang::Slice>(e), pending);
      return NewSlice(*this, std::move(lower), std::move(upper), std::move(step));
    }
    case NodeKind::kStarred:
    case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
      break;
  }
  RefuseNotModeled(
      fmt::format("expression '{}' is outside the reference", static_cast<int>(e.kind)));
}

Value Interpreter::EvalCall(Frame& f, const lang::Call& call) {
  if (f.made_call == &call) {
    f.made_call = nullptr;
    return std::move(f.made_value);
  }
  Value callee = Eval(f, *call.func);
  if (call.args.size() == 1 && call.keywords.empty() && call.args[0]->kind == NodeKind::kListComp &&
      As<ListComp>(*call.args[0]).generator) {
    CurrentCall current(f, call);
    if (std::optional<Value> v = ConsumeGenerator(f, callee, As<ListComp>(*call.args[0])))
      return *v;
  }
  CallArgs args;
  {
    // compiler_call_helper: a starred argument or `**` (or more than the guideline) builds
    // the arguments as a list and a dict as it goes (CALL_FUNCTION_EX).
    const bool ex_call =
        call.args.size() + call.keywords.size() > kStackUseGuideline ||
        std::any_of(call.args.begin(), call.args.end(),
                    [](const lang::ExprPtr& a) { return a->kind == NodeKind::kStarred; }) ||
        std::any_of(call.keywords.begin(), call.keywords.end(),
                    [](const std::unique_ptr<lang::Keyword>& k) { return !k->arg; });
    OpaqueStack opaque(f, ex_call);
    PendingValues pending(f, callee);
    for (const auto& arg : call.args) {
      if (arg->kind == NodeKind::kStarred) {
        for (Value& v : Iterate(Eval(f, *As<Starred>(*arg).value))) {
          pending.Push(v);
          args.positional.push_back(std::move(v));
        }
      } else {
        args.positional.push_back(Eval(f, *arg));
        pending.Push(args.positional.back());
      }
    }
    for (const auto& kw : call.keywords) {
      Value value = Eval(f, *kw->value);
      pending.Push(value);
      if (kw->arg) {
        args.keywords.emplace_back(*kw->arg, std::move(value));
        continue;
      }
      auto* mapping = DynCast<PyDict>(value);
      if (mapping == nullptr) {
        Raise(heap(), ExcType::kTypeError, "argument after ** must be a mapping");
      }
      for (auto& [k, v] : mapping->Items()) {
        auto* name = DynCast<PyStr>(k);
        if (name == nullptr) Raise(heap(), ExcType::kTypeError, "keywords must be strings");
        args.keywords.emplace_back(name->value(), v);
      }
    }
  }
  CurrentCall current(f, call);
  return Call(callee, std::move(args));
}

Value Interpreter::EvalListComp(Frame& f, const ListComp& comp) {
  if (comp.generator) {  // any use but the one generator_exp.cc models
    RefuseNotModeled(
        "a generator expression other than the only argument of any(), all(), sum(), sorted(), "
        "list() or tuple() is not modeled");
  }
  Ref<PyList> result = heap().NewList();
  ForEachComprehensionItem(f, comp, [&](Value item) {
    result->items().push_back(std::move(item));
    return true;
  });
  return result;
}

bool Interpreter::ForEachComprehensionItem(Frame& f, const ListComp& comp,
                                           const std::function<bool(Value)>& on_item) {
  const Scope& scope = f.program->scopes.Of(&comp);
  Frame inner;
  inner.program = f.program;
  inner.scope = &scope;
  inner.globals = f.globals;
  inner.function = f.function;
  inner.line = f.line;
  inner.grad_enabled_at_start = process_.grad_enabled;
  inner.fast.resize(scope.varnames.size());
  for (const std::string& name : scope.cellvars) {
    (void)name;
    inner.cells.push_back(heap().NewCell());
  }
  for (const std::string& name : scope.freevars)
    inner.cells.push_back(f.cells.at(f.scope->cell_slot.at(name)));
  std::vector<Value> first = Iterate(Eval(f, *comp.generators.front()->iter));
  frames_.push_back(&inner);
  struct Pop {
    std::vector<Frame*>& frames;
    ~Pop() { frames.pop_back(); }
  } pop{frames_};
  // Runs generator `level` over `items`, handing on elt for every binding that passes;
  // false once on_item asks to stop.
  std::function<bool(size_t, std::vector<Value>)> run = [&](size_t level,
                                                            std::vector<Value> items) {
    const Comprehension& gen = *comp.generators[level];
    for (Value& item : items) {
      TakeStep();
      Assign(inner, *gen.target, std::move(item));
      bool keep = true;
      for (const auto& cond : gen.ifs) {
        if (!Truth(*this, Eval(inner, *cond))) {
          keep = false;
          break;
        }
      }
      if (!keep) continue;
      const bool go_on =
          level + 1 < comp.generators.size()
              ? run(level + 1, Iterate(Eval(inner, *comp.generators[level + 1]->iter)))
              : on_item(Eval(inner, *comp.elt));
      if (!go_on) return false;
    }
    return true;
  };
  const bool finished = run(0, std::move(first));
  for (Value& v : inner.fast) v.Reset();
  return finished;
}

Value Interpreter::MakeFunction(Frame& f, const Node& def, const std::string& name,
                                const Arguments* params) {
  // Decorators, defaults and annotations wait on the stack in tuples and dicts being built.
  OpaqueStack opaque(f, true);
  std::vector<Value> decorators;
  if (def.kind == NodeKind::kFunctionDef) {
    for (const auto& d : As<FunctionDef>(def).decorator_list) decorators.push_back(Eval(f, *d));
  }
  std::vector<Value> defaults;
  Ref<PyDict> kwdefaults;
  if (params != nullptr) {
    for (const auto& d : params->defaults) defaults.push_back(Eval(f, *d));
    for (size_t i = 0; i < params->kwonlyargs.size(); ++i) {
      if (!params->kw_defaults[i]) continue;
      if (!kwdefaults) kwdefaults = heap().NewDict();
      kwdefaults->SetStr(params->kwonlyargs[i]->arg, Eval(f, *params->kw_defaults[i]));
    }
    // Annotations are evaluated when the def runs (no `from __future__ import annotations`).
    auto annotate = [&](const ArgPtr& a) {
      if (a && a->annotation) Eval(f, *a->annotation);
    };
    for (const auto& a : params->posonlyargs) annotate(a);
    for (const auto& a : params->args) annotate(a);
    annotate(params->vararg);
    for (const auto& a : params->kwonlyargs) annotate(a);
    annotate(params->kwarg);
  }
  if (def.kind == NodeKind::kFunctionDef && As<FunctionDef>(def).returns) {
    Eval(f, *As<FunctionDef>(def).returns);
  }
  const Scope& scope = f.program->scopes.Of(&def);
  Ref<PyFunction> fn = heap().NewFunction(UserCode{&def, f.program}, heap().Intern(name),
                                          heap().Intern(scope.qualname), f.globals);
  if (!defaults.empty()) fn->defaults = heap().NewTuple(std::move(defaults));
  if (kwdefaults) fn->kwdefaults = kwdefaults;
  if (def.kind == NodeKind::kFunctionDef) fn->doc = Docstring(f, As<FunctionDef>(def).body);
  if (!scope.freevars.empty()) {
    std::vector<Value> cells;
    for (const std::string& free : scope.freevars)
      cells.push_back(f.cells.at(f.scope->cell_slot.at(free)));
    fn->closure = heap().NewTuple(std::move(cells));
  }
  Value result = fn;
  fn.Reset();
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    result = Call(*it, {{result}, {}});
  }
  return result;
}

}  // namespace tdc::runtime
