// CPython 3.11's compile.c, as far as its errors go, walked in the order it compiles: a
// function's or class's body when its statement is reached, a comprehension's body before
// its outermost iterable, an assignment's value before its targets, a try statement's body,
// else, handlers, then finally. Each code block (module, class, function, lambda,
// comprehension) keeps its own loops and frame blocks.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "reference/lang/ast_fields.h"
#include "reference/lang/compile_errors_internal.h"

namespace tdc::lang {
namespace {

// CO_MAXBLOCKS: compiler_push_fblock refuses a 21st frame block in one code block.
constexpr int kMaxBlocks = 20;

class Generator {
 public:
  void Module(const struct Module& module) { Body(module.body); }

 private:
  // What compile.c keeps per code block.
  struct Unit {
    bool function = false;  // a function block: `return` is allowed
    int loops = 0;          // enclosing for and while bodies: break and continue allowed
    int blocks = 0;         // frame blocks (u_nfblocks)
  };

  template <typename Walk>
  void InUnit(bool function, Walk walk) {
    Unit outer = std::exchange(unit_, Unit{function});
    walk();
    unit_ = outer;
  }

  // Runs `walk` with `count` more frame blocks, pushed at `at`; where CPython places a
  // failed push elsewhere (`located` false: no statement's location), near the limit the
  // reference refuses instead of guessing (DESIGN D13).
  template <typename Walk>
  void WithBlocks(int count, SourcePos at, bool located, Walk walk) {
    if (unit_.blocks + count > kMaxBlocks) {
      if (located) Fail(at, "too many statically nested blocks");
      throw CompileError{at,
                         fmt::format("a try statement's blocks near CPython's limit of {} "
                                     "statically nested blocks are not modeled",
                                     kMaxBlocks),
                         DiagnosticKind::kUnsupported};
    }
    unit_.blocks += count;
    walk();
    unit_.blocks -= count;
  }

  void Body(const StmtList& body) {
    for (const StmtPtr& s : body) Statement(*s);
  }

  void Exprs(const ExprList& exprs) {
    for (const ExprPtr& e : exprs) {
      if (e) Expression(*e);
    }
  }

  void Optional(const ExprPtr& e) {
    if (e) Expression(*e);
  }

  // forbidden_name: __debug__ cannot be bound or deleted.
  static void Bind(const std::string& name, SourcePos at) {
    if (name == "__debug__") Fail(at, "cannot assign to __debug__");
  }

  static void DebugParameters(const Arguments& a, SourcePos at) {
    for (const ArgPtr& arg : a.posonlyargs) Bind(arg->arg, at);
    for (const ArgPtr& arg : a.args) Bind(arg->arg, at);
    if (a.vararg) Bind(a.vararg->arg, at);
    for (const ArgPtr& arg : a.kwonlyargs) Bind(arg->arg, at);
    if (a.kwarg) Bind(a.kwarg->arg, at);
  }

  // validate_keywords: the call is at `at`; a repeated keyword is located at its repeat.
  static void Keywords(const std::vector<std::unique_ptr<Keyword>>& keywords, SourcePos at) {
    for (size_t i = 0; i < keywords.size(); ++i) {
      if (!keywords[i]->arg) continue;
      Bind(*keywords[i]->arg, at);
      for (size_t j = i + 1; j < keywords.size(); ++j) {
        if (keywords[j]->arg == keywords[i]->arg) {
          Fail(keywords[j]->span.begin,
               fmt::format("keyword argument repeated: {}", *keywords[i]->arg));
        }
      }
    }
  }

  // Call arguments and class bases: a starred one is unpacked, its value compiled.
  void Arguments(const ExprList& args, const std::vector<std::unique_ptr<Keyword>>& keywords) {
    for (const ExprPtr& arg : args) Expression(Unstarred(*arg));
    for (const auto& keyword : keywords) Expression(*keyword->value);
  }

  static const Expr& Unstarred(const Expr& e) {
    return e.kind == NodeKind::kStarred ? *As<Starred>(e).value : e;
  }

  void Statement(const Stmt& s) {
    const SourcePos at = s.span.begin;
    switch (s.kind) {
      case NodeKind::kFunctionDef: {
        const auto& def = As<FunctionDef>(s);
        DebugParameters(*def.args, at);
        Exprs(def.decorator_list);
        Exprs(def.args->defaults);
        Exprs(def.args->kw_defaults);
        for (const ArgPtr& arg : def.args->args) Optional(arg->annotation);
        for (const ArgPtr& arg : def.args->posonlyargs) Optional(arg->annotation);
        if (def.args->vararg) Optional(def.args->vararg->annotation);
        for (const ArgPtr& arg : def.args->kwonlyargs) Optional(arg->annotation);
        if (def.args->kwarg) Optional(def.args->kwarg->annotation);
        Optional(def.returns);
        InUnit(true, [&] { Body(def.body); });
        Bind(def.name, at);
        return;
      }
      case NodeKind::kClassDef: {
        const auto& def = As<ClassDef>(s);
        Exprs(def.decorator_list);
        InUnit(false, [&] { Body(def.body); });
        Keywords(def.keywords, at);
        Arguments(def.bases, def.keywords);
        Bind(def.name, at);
        return;
      }
      case NodeKind::kReturn:
        if (!unit_.function) Fail(at, "'return' outside function");
        Optional(As<Return>(s).value);
        return;
      case NodeKind::kDelete:
        Exprs(As<Delete>(s).targets);
        return;
      case NodeKind::kAssign:
        Expression(*As<Assign>(s).value);
        Exprs(As<Assign>(s).targets);
        return;
      case NodeKind::kAugAssign: {
        const auto& aug = As<AugAssign>(s);
        // The target is read first (a name with no check), then stored after the value.
        if (aug.target->kind != NodeKind::kName) Children(*aug.target);
        Expression(*aug.value);
        if (aug.target->kind == NodeKind::kName) Expression(*aug.target);
        return;
      }
      case NodeKind::kFor: {
        const auto& loop = As<For>(s);
        Expression(*loop.iter);
        WithBlocks(1, at, true, [&] {
          Expression(*loop.target);
          ++unit_.loops;
          Body(loop.body);
          --unit_.loops;
        });
        Body(loop.orelse);
        return;
      }
      case NodeKind::kWhile: {
        const auto& loop = As<While>(s);
        WithBlocks(1, at, true, [&] {  // pushed before the test is compiled
          Expression(*loop.test);
          ++unit_.loops;
          Body(loop.body);
          --unit_.loops;
        });
        Body(loop.orelse);
        return;
      }
      case NodeKind::kWith:
        WithItems(As<With>(s), 0);
        return;
      case NodeKind::kTry:
        Try(As<struct Try>(s));
        return;
      case NodeKind::kImport:
      case NodeKind::kImportFrom: {
        const auto& names =
            s.kind == NodeKind::kImport ? As<Import>(s).names : As<ImportFrom>(s).names;
        for (const auto& alias : names) {
          if (alias->name == "*") continue;
          Bind(alias->asname ? *alias->asname : alias->name.substr(0, alias->name.find('.')), at);
        }
        return;
      }
      case NodeKind::kBreak:
        if (unit_.loops == 0) Fail(at, "'break' outside loop");
        return;
      case NodeKind::kContinue:
        if (unit_.loops == 0) Fail(at, "'continue' not properly in loop");
        return;
      case NodeKind::kIf:
      case NodeKind::kRaise:
      case NodeKind::kAssert:
      case NodeKind::kExprStmt:
        Children(s);
        return;
      case NodeKind::kGlobal:
      case NodeKind::kNonlocal:
      case NodeKind::kPass:
      case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        return;
    }
  }

  // compiler_with: each item's context, then one frame block from there on.
  void WithItems(const With& with, size_t i) {
    if (i == with.items.size()) {
      Body(with.body);
      return;
    }
    const WithItem& item = *with.items[i];
    Expression(*item.context_expr);
    WithBlocks(1, with.span.begin, true, [&] {
      Optional(item.optional_vars);
      WithItems(with, i + 1);
    });
  }

  // compiler_try_finally and compiler_try_except. The body is inside FINALLY_TRY and
  // TRY_EXCEPT (where there are a finally body and handlers), the else body inside
  // FINALLY_TRY, pushed where the try statement is. The handlers' EXCEPTION_HANDLER and
  // HANDLER_CLEANUP, and the FINALLY_END of the finally body's second compilation (one block
  // deeper than its first), are pushed with no statement's location (UNSET_LOC).
  void Try(const struct Try& t) {
    const SourcePos at = t.span.begin;
    const int finally = t.finalbody.empty() ? 0 : 1;
    const int handlers = t.handlers.empty() ? 0 : 1;
    WithBlocks(finally + handlers, at, true, [&] { Body(t.body); });
    WithBlocks(finally, at, true, [&] {
      Body(t.orelse);
      for (size_t i = 0; i < t.handlers.size(); ++i) {
        const ExceptHandler& handler = *t.handlers[i];
        if (!handler.type && i + 1 < t.handlers.size())
          Fail(handler.span.begin, "default 'except:' must be last");
        Optional(handler.type);
        if (handler.name) Bind(*handler.name, handler.span.begin);
        WithBlocks(2, handler.span.begin, false, [&] { Body(handler.body); });
      }
    });
    Body(t.finalbody);
    if (finally != 0) WithBlocks(1 + BlockDepth(t.finalbody), at, false, [] {});
  }

  // An upper bound of the frame blocks `body` holds at once, for the finally body's second
  // pass (walking it again would take time exponential in nested finally bodies).
  static int BlockDepth(const StmtList& body) {
    int depth = 0;
    for (const StmtPtr& s : body) depth = std::max(depth, BlockDepth(*s));
    return depth;
  }

  static int BlockDepth(const Stmt& s) {
    if (s.kind == NodeKind::kFor)
      return std::max(1 + BlockDepth(As<For>(s).body), BlockDepth(As<For>(s).orelse));
    if (s.kind == NodeKind::kWhile)
      return std::max(1 + BlockDepth(As<While>(s).body), BlockDepth(As<While>(s).orelse));
    if (s.kind == NodeKind::kWith)
      return static_cast<int>(As<With>(s).items.size()) + BlockDepth(As<With>(s).body);
    if (s.kind == NodeKind::kIf)
      return std::max(BlockDepth(As<If>(s).body), BlockDepth(As<If>(s).orelse));
    if (s.kind != NodeKind::kTry) return 0;
    const auto& t = As<struct Try>(s);
    const int finally = t.finalbody.empty() ? 0 : 1;
    int depth = std::max({finally + 1 + BlockDepth(t.body), finally + BlockDepth(t.orelse),
                          finally + BlockDepth(t.finalbody)});
    for (const auto& handler : t.handlers)
      depth = std::max(depth, finally + 2 + BlockDepth(handler->body));
    return depth;
  }

  // Unpacking into a tuple or list target: one starred item at most.
  static void UnpackTargets(const ExprList& elts, SourcePos at) {
    bool starred = false;
    for (size_t i = 0; i < elts.size(); ++i) {
      if (elts[i]->kind != NodeKind::kStarred) continue;
      if (starred) Fail(at, "multiple starred expressions in assignment");
      if (i >= (size_t{1} << 8)) Fail(at, "too many expressions in star-unpacking assignment");
      starred = true;
    }
  }

  void Expression(const Expr& e) {
    const SourcePos at = e.span.begin;
    if (e.kind == NodeKind::kName) {
      const auto& name = As<Name>(e);
      if (name.id != "__debug__") return;
      if (name.ctx == ExprContext::kStore) Fail(at, "cannot assign to __debug__");
      if (name.ctx == ExprContext::kDel) Fail(at, "cannot delete __debug__");
    } else if (e.kind == NodeKind::kStarred) {
      // Where a star is allowed (a display's item, an argument, an unpacked target) its
      // value is compiled and the star never reached.
      Fail(at, As<Starred>(e).ctx == ExprContext::kStore
                   ? "starred assignment target must be in a list or tuple"
                   : "can't use starred expression here");
    } else if (e.kind == NodeKind::kTuple || e.kind == NodeKind::kList) {
      const bool tuple = e.kind == NodeKind::kTuple;
      const ExprList& elts = tuple ? As<Tuple>(e).elts : As<List>(e).elts;
      const ExprContext ctx = tuple ? As<Tuple>(e).ctx : As<List>(e).ctx;
      if (ctx == ExprContext::kStore) UnpackTargets(elts, at);
      for (const ExprPtr& elt : elts) Expression(Unstarred(*elt));
    } else if (e.kind == NodeKind::kCall) {
      const auto& call = As<Call>(e);
      Keywords(call.keywords, at);
      Expression(*call.func);
      Arguments(call.args, call.keywords);
    } else if (e.kind == NodeKind::kAttribute) {
      const auto& attribute = As<Attribute>(e);
      Expression(*attribute.value);
      if (attribute.ctx == ExprContext::kStore) Bind(attribute.attr, at);
    } else if (e.kind == NodeKind::kLambda) {
      const auto& lambda = As<Lambda>(e);
      DebugParameters(*lambda.args, at);
      Exprs(lambda.args->defaults);
      Exprs(lambda.args->kw_defaults);
      InUnit(true, [&] { Expression(*lambda.body); });
    } else if (e.kind == NodeKind::kListComp) {
      const auto& comp = As<ListComp>(e);
      InUnit(true, [&] {
        for (size_t i = 0; i < comp.generators.size(); ++i) {
          const Comprehension& g = *comp.generators[i];
          if (i > 0) Expression(*g.iter);
          Expression(*g.target);
          Exprs(g.ifs);
        }
        Expression(*comp.elt);
      });
      Expression(*comp.generators[0]->iter);
    } else if (e.kind == NodeKind::kDict) {
      // compiler_dict compiles each key with its value.
      const auto& dict = As<Dict>(e);
      for (size_t i = 0; i < dict.values.size(); ++i) {
        if (dict.keys[i]) Expression(*dict.keys[i]);
        Expression(*dict.values[i]);
      }
    } else {
      Children(e);
    }
  }

  void Children(const Node& node) {
    ForEachChild(node, [this](const Node& child) {
      if (NodeKindIsStatement(child.kind)) {
        Statement(static_cast<const Stmt&>(child));
      } else {
        Expression(static_cast<const Expr&>(child));
      }
    });
  }

  Unit unit_;
};

}  // namespace

std::optional<CompileError> FirstCodeGeneratorError(const struct Module& module) {
  try {
    Generator().Module(module);
  } catch (const CompileError& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace tdc::lang
