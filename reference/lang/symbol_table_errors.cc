// CPython 3.11's symtable.c, as far as its errors go: the table is built in one walk of the
// tree (which raises on a declaration after a use, a duplicate parameter, `import *` in a
// function), then analyzed block by block (which raises on a nonlocal name with no binding,
// or one also declared global). Only the flags those errors read are kept.
#include <fmt/format.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "reference/lang/ast_fields.h"
#include "reference/lang/compile_errors_internal.h"

namespace tdc::lang {
namespace {

// symtable.h's flags that the errors read.
enum SymbolFlag : unsigned {
  kDefGlobal = 1,
  kDefLocal = 2,
  kDefParam = 4,
  kDefNonlocal = 8,
  kUse = 16,
  kDefImport = 32,
};
constexpr unsigned kDefBound = kDefLocal | kDefParam | kDefImport;

enum class BlockKind { kModule, kFunction, kClass };

struct Block {
  explicit Block(BlockKind k) : kind(k) {}

  unsigned& FlagsOf(const std::string& name) {
    auto [it, added] = index.try_emplace(name, symbols.size());
    if (added) symbols.emplace_back(name, 0);
    return symbols[it->second].second;
  }

  BlockKind kind;
  std::vector<std::pair<std::string, unsigned>> symbols;  // in the order first met
  std::unordered_map<std::string, size_t> index;
  std::vector<std::pair<std::string, SourcePos>> directives;  // global and nonlocal names
  std::vector<std::unique_ptr<Block>> children;
};

// _Py_Mangle: `__x` inside class `_C` is `_C__x`, unless it ends with `__` or has a dot, or
// the class name is all underscores.
std::string Mangle(const std::string& class_name, const std::string& name) {
  if (class_name.empty() || !name.starts_with("__") || name.ends_with("__") ||
      name.find('.') != std::string::npos) {
    return name;
  }
  const size_t start = class_name.find_first_not_of('_');
  if (start == std::string::npos) return name;
  return "_" + class_name.substr(start) + name;
}

class TableBuilder {
 public:
  std::unique_ptr<Block> Build(const Module& module) {
    auto root = std::make_unique<Block>(BlockKind::kModule);
    module_ = current_ = root.get();
    Body(module.body);
    return root;
  }

 private:
  void AddDef(const std::string& name, unsigned flag, SourcePos at) {
    unsigned& flags = current_->FlagsOf(Mangle(class_name_, name));
    if ((flag & kDefParam) && (flags & kDefParam))
      Fail(at, fmt::format("duplicate argument '{}' in function definition", name));
    flags |= flag;
    // A global declaration anywhere marks the name in the module's own table (st_global).
    if ((flag & kDefGlobal) && current_ != module_)
      module_->FlagsOf(Mangle(class_name_, name)) |= flag;
  }

  // Runs `walk` inside a new child block of the current one.
  template <typename Walk>
  void InBlock(BlockKind kind, Walk walk) {
    Block* parent = current_;
    parent->children.push_back(std::make_unique<Block>(kind));
    current_ = parent->children.back().get();
    walk();
    current_ = parent;
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

  void Parameters(const Arguments& a) {
    for (const auto* list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
      for (const ArgPtr& arg : *list) AddDef(arg->arg, kDefParam, arg->span.begin);
    }
    if (a.vararg) AddDef(a.vararg->arg, kDefParam, a.vararg->span.begin);
    if (a.kwarg) AddDef(a.kwarg->arg, kDefParam, a.kwarg->span.begin);
  }

  // symtable_visit_annotations' order.
  void Annotations(const Arguments& a, const ExprPtr& returns) {
    for (const ArgPtr& arg : a.posonlyargs) Optional(arg->annotation);
    for (const ArgPtr& arg : a.args) Optional(arg->annotation);
    if (a.vararg) Optional(a.vararg->annotation);
    if (a.kwarg) Optional(a.kwarg->annotation);
    for (const ArgPtr& arg : a.kwonlyargs) Optional(arg->annotation);
    Optional(returns);
  }

  void Declaration(const Stmt& s, const std::vector<std::string>& names, bool global) {
    const char* what = global ? "global" : "nonlocal";
    for (const std::string& name : names) {
      const std::string mangled = Mangle(class_name_, name);
      const unsigned flags = current_->FlagsOf(mangled);
      if (flags & kDefParam)
        Fail(s.span.begin, fmt::format("name '{}' is parameter and {}", name, what));
      if (flags & kUse) {
        Fail(s.span.begin, fmt::format("name '{}' is used prior to {} declaration", name, what));
      }
      if (flags & kDefLocal) {
        Fail(s.span.begin,
             fmt::format("name '{}' is assigned to before {} declaration", name, what));
      }
      AddDef(name, global ? kDefGlobal : kDefNonlocal, s.span.begin);
      current_->directives.emplace_back(mangled, s.span.begin);
    }
  }

  void Alias(const struct Alias& alias) {
    if (alias.name == "*") {
      if (current_->kind != BlockKind::kModule)
        Fail(alias.span.begin, "import * only allowed at module level");
      return;
    }
    AddDef(alias.asname ? *alias.asname : alias.name.substr(0, alias.name.find('.')), kDefImport,
           alias.span.begin);
  }

  void Statement(const Stmt& s) {
    switch (s.kind) {
      case NodeKind::kFunctionDef: {
        const auto& def = As<FunctionDef>(s);
        AddDef(def.name, kDefLocal, s.span.begin);
        Exprs(def.args->defaults);
        Exprs(def.args->kw_defaults);
        Annotations(*def.args, def.returns);
        Exprs(def.decorator_list);
        InBlock(BlockKind::kFunction, [&] {
          Parameters(*def.args);
          Body(def.body);
        });
        return;
      }
      case NodeKind::kClassDef: {
        const auto& def = As<ClassDef>(s);
        AddDef(def.name, kDefLocal, s.span.begin);
        Exprs(def.bases);
        for (const auto& keyword : def.keywords) Expression(*keyword->value);
        Exprs(def.decorator_list);
        InBlock(BlockKind::kClass, [&] {
          std::string outer = std::exchange(class_name_, def.name);
          Body(def.body);
          class_name_ = std::move(outer);
        });
        return;
      }
      case NodeKind::kTry: {
        const auto& t = As<Try>(s);
        Body(t.body);
        Body(t.orelse);
        for (const auto& handler : t.handlers) {
          Optional(handler->type);
          if (handler->name) AddDef(*handler->name, kDefLocal, handler->span.begin);
          Body(handler->body);
        }
        Body(t.finalbody);
        return;
      }
      case NodeKind::kImport:
        for (const auto& alias : As<Import>(s).names) Alias(*alias);
        return;
      case NodeKind::kImportFrom:
        for (const auto& alias : As<ImportFrom>(s).names) Alias(*alias);
        return;
      case NodeKind::kGlobal:
        Declaration(s, As<Global>(s).names, true);
        return;
      case NodeKind::kNonlocal:
        Declaration(s, As<Nonlocal>(s).names, false);
        return;
      case NodeKind::kReturn:
      case NodeKind::kDelete:
      case NodeKind::kAssign:
      case NodeKind::kAugAssign:
      case NodeKind::kFor:
      case NodeKind::kWhile:
      case NodeKind::kIf:
      case NodeKind::kWith:
      case NodeKind::kRaise:
      case NodeKind::kAssert:
      case NodeKind::kExprStmt:
      case NodeKind::kPass:
      case NodeKind::kBreak:
      case NodeKind::kContinue:
      case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        break;
    }
    // The rest are visited in field order, as symtable_visit_stmt does.
    Children(s);
  }

  void Children(const Node& node) {
    ForEachChild(node, [this](const Node& child) {
      if (child.kind == NodeKind::kWithItem) {
        Children(child);
      } else if (child.kind == NodeKind::kKeyword) {
        Expression(*As<Keyword>(child).value);
      } else if (NodeKindIsStatement(child.kind)) {
        Statement(static_cast<const Stmt&>(child));
      } else {
        Expression(static_cast<const Expr&>(child));
      }
    });
  }

  void Expression(const Expr& e) {
    if (e.kind == NodeKind::kName) {
      // CPython's AST optimizer makes a load of __debug__ a constant before this table.
      const auto& name = As<Name>(e);
      if (name.ctx == ExprContext::kLoad && name.id == "__debug__") return;
      AddDef(name.id, name.ctx == ExprContext::kLoad ? kUse : kDefLocal, e.span.begin);
    } else if (e.kind == NodeKind::kLambda) {
      const auto& lambda = As<Lambda>(e);
      Exprs(lambda.args->defaults);
      Exprs(lambda.args->kw_defaults);
      InBlock(BlockKind::kFunction, [&] {
        Parameters(*lambda.args);
        Expression(*lambda.body);
      });
    } else if (e.kind == NodeKind::kListComp) {
      // The outermost iterable is evaluated where the comprehension is, the rest in its own
      // function block, which receives that iterable as its parameter `.0`.
      const auto& comp = As<ListComp>(e);
      Expression(*comp.generators[0]->iter);
      InBlock(BlockKind::kFunction, [&] {
        AddDef(".0", kDefParam, e.span.begin);
        for (size_t i = 0; i < comp.generators.size(); ++i) {
          const Comprehension& g = *comp.generators[i];
          Expression(*g.target);
          if (i > 0) Expression(*g.iter);
          Exprs(g.ifs);
        }
        Expression(*comp.elt);
      });
    } else {
      Children(e);
    }
  }

  Block* module_ = nullptr;
  Block* current_ = nullptr;
  std::string class_name_;  // st_private: the innermost class, for mangling
};

// analyze_block: `bound` holds the names bound in enclosing function blocks (null for the
// module, whose nonlocal names have nowhere to bind); each child gets its own copy.
void Analyze(const Block& block, std::optional<std::unordered_set<std::string>> bound) {
  auto fail_at_directive = [&](const std::string& name, std::string message) {
    for (const auto& [declared, at] : block.directives) {
      if (declared == name) Fail(at, std::move(message));
    }
    Fail({1, 0}, std::move(message));  // a directive is recorded with every such flag
  };
  std::unordered_set<std::string> passed_down;
  if (block.kind == BlockKind::kClass && bound) passed_down = *bound;
  std::unordered_set<std::string> local;
  for (const auto& [name, flags] : block.symbols) {
    if (flags & kDefGlobal) {
      if (flags & kDefNonlocal)
        fail_at_directive(name, fmt::format("name '{}' is nonlocal and global", name));
      if (bound) bound->erase(name);
    } else if (flags & kDefNonlocal) {
      if (!bound) fail_at_directive(name, "nonlocal declaration not allowed at module level");
      if (!bound->contains(name))
        fail_at_directive(name, fmt::format("no binding for nonlocal '{}' found", name));
    } else if (flags & kDefBound) {
      local.insert(name);
    }
  }
  // A class's names are not visible in its methods, but for the implicit __class__; a
  // function's are, with its enclosers'.
  if (block.kind == BlockKind::kClass) {
    passed_down.insert("__class__");
  } else {
    if (block.kind == BlockKind::kFunction) passed_down.insert(local.begin(), local.end());
    if (bound) passed_down.insert(bound->begin(), bound->end());
  }
  for (const auto& child : block.children) Analyze(*child, passed_down);
}

}  // namespace

std::optional<CompileError> FirstSymbolTableError(const Module& module) {
  try {
    std::unique_ptr<Block> table = TableBuilder().Build(module);
    Analyze(*table, std::nullopt);
  } catch (const CompileError& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace tdc::lang
