// CPython 3.11's compile.c, as far as its errors go, walked in the order it compiles: a
// function's or class's body when its statement is reached, a comprehension's body before
// its outermost iterable, an assignment's value before its targets, a try statement's body,
// else, handlers, then finally (twice: on the normal path, then on the exceptional one one
// block deeper), and again where a break, continue or return leaves it. Each code block
// (module, class, function, lambda, comprehension) keeps its own stack of frame blocks.
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "reference/lang/ast_fields.h"
#include "reference/lang/compile_errors_internal.h"

namespace tdc::lang {
namespace {

// CO_MAXBLOCKS: compiler_push_fblock refuses a 21st frame block in one code block.
constexpr size_t kMaxBlocks = 20;
constexpr size_t kMaxStatements = 1'000'000;

class Generator {
 public:
  explicit Generator(int future_line) : future_line_(future_line) {}
  void Module(const struct Module& module) { Body(module.body); }

 private:
  // compile.c's frame blocks, as far as a jump out of them goes: a loop ends the search of
  // break and continue; FINALLY_TRY has its finally body compiled where a jump leaves it.
  enum class BlockType { kLoop, kFinallyTry, kOther };
  struct Block {
    BlockType type;
    const StmtList* finally_body;  // kFinallyTry's
  };
  // What compile.c keeps per code block.
  struct Unit {
    bool function = false;  // a function block: `return` is allowed
    std::vector<Block> blocks;
  };

  template <typename Walk>
  void InUnit(bool function, Walk walk) {
    Unit outer = std::exchange(unit_, Unit{function, {}});
    walk();
    unit_ = std::move(outer);
  }

  // compiler_push_fblock at `at`: at most kMaxBlocks in one code block.
  template <typename Walk>
  void InBlock(BlockType type, SourcePos at, Walk walk, const StmtList* finally_body = nullptr) {
    if (unit_.blocks.size() >= kMaxBlocks) Fail(at, "too many statically nested blocks");
    unit_.blocks.push_back({type, finally_body});
    walk();
    unit_.blocks.pop_back();
  }

  // compiler_unwind_fblock_stack: the blocks a jump leaves, innermost first, up to the
  // innermost loop (`to_loop`: break, continue) or all of them (return). Each finally body
  // left is compiled there, inside only the blocks below its try (and one holding the
  // returned value, `keep_value`). Returns whether a loop ended the search.
  bool Unwind(bool to_loop, bool keep_value, SourcePos at) {
    std::vector<Block>& blocks = unit_.blocks;
    for (size_t i = blocks.size(); i-- > 0;) {
      if (to_loop && blocks[i].type == BlockType::kLoop) return true;
      if (blocks[i].type != BlockType::kFinallyTry) continue;
      std::vector<Block> left(blocks.begin() + static_cast<std::ptrdiff_t>(i), blocks.end());
      blocks.resize(i);
      if (keep_value) {
        InBlock(BlockType::kOther, at, [&] { Body(*left.front().finally_body); });
      } else {
        Body(*left.front().finally_body);
      }
      blocks.insert(blocks.end(), left.begin(), left.end());
    }
    return false;
  }

  void Body(const StmtList& body) {
    for (const StmtPtr& s : body) {
      // Finally bodies are compiled again at each jump out of them, as CPython does, which
      // nested ones make exponential; past this many statements the reference refuses.
      if (++statements_ > kMaxStatements) {
        throw CompileError{s->span.begin,
                           "a program whose finally bodies CPython would compile more than a "
                           "million statements for is not modeled",
                           DiagnosticKind::kUnsupported};
      }
      Statement(*s);
    }
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
      case NodeKind::kReturn: {
        if (!unit_.function) Fail(at, "'return' outside function");
        const ExprPtr& value = As<Return>(s).value;
        Optional(value);
        Unwind(false, value && value->kind != NodeKind::kConstant, at);
        return;
      }
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
        InBlock(BlockType::kLoop, at, [&] {  // pushed before the iterable is compiled
          Expression(*loop.iter);
          Expression(*loop.target);
          Body(loop.body);
        });
        Body(loop.orelse);
        return;
      }
      case NodeKind::kWhile: {
        const auto& loop = As<While>(s);
        InBlock(BlockType::kLoop, at, [&] {  // pushed before the test is compiled
          Expression(*loop.test);
          Body(loop.body);
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
        if (s.kind == NodeKind::kImportFrom && As<ImportFrom>(s).module == "__future__" &&
            at.line > future_line_) {
          Fail(at, "from __future__ imports must occur at the beginning of the file");
        }
        const auto& names =
            s.kind == NodeKind::kImport ? As<Import>(s).names : As<ImportFrom>(s).names;
        for (const auto& alias : names) {
          if (alias->name == "*") continue;
          Bind(alias->asname ? *alias->asname : alias->name.substr(0, alias->name.find('.')), at);
        }
        return;
      }
      case NodeKind::kBreak:
        if (!Unwind(true, false, at)) Fail(at, "'break' outside loop");
        return;
      case NodeKind::kContinue:
        if (!Unwind(true, false, at)) Fail(at, "'continue' not properly in loop");
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
    InBlock(BlockType::kOther, with.span.begin, [&] {
      Optional(item.optional_vars);
      WithItems(with, i + 1);
    });
  }

  // compiler_try_finally around compiler_try_except, each part where the try statement is
  // unless said. EXCEPTION_HANDLER and FINALLY_END are pushed where TRY_EXCEPT and
  // FINALLY_TRY were, so they never overflow first.
  void Try(const struct Try& t) {
    const SourcePos at = t.span.begin;
    if (t.finalbody.empty()) {
      TryExcept(t);
      return;
    }
    InBlock(
        BlockType::kFinallyTry, at, [&] { TryExcept(t); }, &t.finalbody);
    Body(t.finalbody);
    InBlock(BlockType::kOther, at, [&] { Body(t.finalbody); });  // FINALLY_END
  }

  void TryExcept(const struct Try& t) {
    if (t.handlers.empty()) {
      Body(t.body);
      return;
    }
    InBlock(BlockType::kOther, t.span.begin, [&] { Body(t.body); });  // TRY_EXCEPT
    Body(t.orelse);
    InBlock(BlockType::kOther, t.span.begin, [&] {  // EXCEPTION_HANDLER
      for (size_t i = 0; i < t.handlers.size(); ++i) {
        const ExceptHandler& handler = *t.handlers[i];
        if (!handler.type && i + 1 < t.handlers.size())
          Fail(handler.span.begin, "default 'except:' must be last");
        Optional(handler.type);
        if (handler.name) Bind(*handler.name, handler.span.begin);
        InBlock(BlockType::kOther, handler.span.begin, [&] { Body(handler.body); });
      }
    });
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
      // update_start_location_to_match_attr: an attribute spanning lines is placed at its
      // name, on its last line.
      SourcePos name_at = at;
      const int name_length = static_cast<int>(attribute.attr.size());
      if (e.span.begin.line != e.span.end.line && name_length <= e.span.end.col)
        name_at = {e.span.end.line, e.span.end.col - name_length};
      if (attribute.ctx == ExprContext::kStore) Bind(attribute.attr, name_at);
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

  const int future_line_;
  Unit unit_;
  size_t statements_ = 0;
};

}  // namespace

std::optional<CompileError> FirstCodeGeneratorError(const struct Module& module, int future_line) {
  try {
    Generator(future_line).Module(module);
  } catch (const CompileError& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace tdc::lang
