#include "reference/runtime/interp/scopes.h"

#include <functional>
#include <set>

namespace tdc::runtime {
namespace {

using namespace lang;  // NOLINT: the walker names many node classes

// What one scope's body does with names, before resolution.
struct RawScope {
  Scope* scope = nullptr;
  std::set<std::string> bound, used, declared_global, declared_nonlocal;
  std::vector<std::string> bind_order;  // first bindings, parameters first
  size_t param_count = 0;
  bool inside_class = false;  // a class body or a function defined (at any depth) in one

  void Bind(const std::string& name) {
    if (bound.insert(name).second) bind_order.push_back(name);
  }
  std::vector<std::unique_ptr<RawScope>> children;
};

class Collector {
 public:
  explicit Collector(std::unordered_map<const Node*, std::unique_ptr<Scope>>& out) : out_(out) {}

  std::unique_ptr<RawScope> Open(const Node* node, const RawScope* parent, std::string qualname) {
    auto raw = std::make_unique<RawScope>();
    raw->inside_class = parent != nullptr && (parent->inside_class || parent->scope->is_class);
    auto scope = std::make_unique<Scope>();
    scope->node = node;
    scope->parent = parent != nullptr ? parent->scope : nullptr;
    scope->is_module = parent == nullptr;
    scope->qualname = std::move(qualname);
    raw->scope = scope.get();
    out_[node] = std::move(scope);
    return raw;
  }

  void Body(const StmtList& body, RawScope& s) {
    for (const auto& stmt : body) Statement(*stmt, s);
  }

 private:
  // The qualname a function defined in `s` gets.
  static std::string Child(const RawScope& s, const std::string& name) {
    if (s.scope->is_module) return name;
    return s.scope->qualname + (s.scope->is_class ? "." : ".<locals>.") + name;
  }

  void Function(const Node* node, const Arguments* args, RawScope& s, const std::string& name,
                const std::function<void(RawScope&)>& body) {
    if (args != nullptr) {
      for (const auto& d : args->defaults) Expression(d.get(), s);
      for (const auto& d : args->kw_defaults) Expression(d.get(), s);
      auto annotate = [&](const ArgPtr& a) {
        if (a) Expression(a->annotation.get(), s);
      };
      for (const auto& a : args->posonlyargs) annotate(a);
      for (const auto& a : args->args) annotate(a);
      for (const auto& a : args->kwonlyargs) annotate(a);
      annotate(args->vararg);
      annotate(args->kwarg);
    }
    auto inner = Open(node, &s, Child(s, name));
    if (args != nullptr) {
      // CPython's co_varnames order: positional, keyword-only, *args, **kwargs.
      auto bind = [&](const ArgPtr& a) {
        if (a) inner->Bind(a->arg);
      };
      for (const auto& a : args->posonlyargs) bind(a);
      for (const auto& a : args->args) bind(a);
      for (const auto& a : args->kwonlyargs) bind(a);
      bind(args->vararg);
      bind(args->kwarg);
      inner->param_count = inner->bind_order.size();
    }
    body(*inner);
    s.children.push_back(std::move(inner));
  }

  void Target(const Expr* e, RawScope& s) {
    if (e == nullptr) return;
    switch (e->kind) {
      case NodeKind::kName:
        s.Bind(As<Name>(*e).id);
        break;
      case NodeKind::kTuple:
        for (const auto& x : As<Tuple>(*e).elts) Target(x.get(), s);
        break;
      case NodeKind::kList:
        for (const auto& x : As<List>(*e).elts) Target(x.get(), s);
        break;
      case NodeKind::kStarred:
        Target(As<Starred>(*e).value.get(), s);
        break;
      case NodeKind::kAttribute:  // attribute or subscript: its parts are read
      case NodeKind::kSubscript:
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
      case NodeKind::kSlice:
      case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        Expression(e, s);
        break;
    }
  }

  void Statement(const Stmt& st, RawScope& s) {
    switch (st.kind) {
      case NodeKind::kFunctionDef: {
        const auto& f = As<FunctionDef>(st);
        for (const auto& d : f.decorator_list) Expression(d.get(), s);
        Expression(f.returns.get(), s);
        Function(&f, f.args.get(), s, f.name, [&](RawScope& inner) { Body(f.body, inner); });
        s.Bind(f.name);
        break;
      }
      case NodeKind::kClassDef: {
        const auto& c = As<ClassDef>(st);
        for (const auto& d : c.decorator_list) Expression(d.get(), s);
        Expressions(c.bases, s);
        for (const auto& k : c.keywords) Expression(k->value.get(), s);
        auto inner = Open(&c, &s, Child(s, c.name));
        inner->scope->is_class = true;
        inner->inside_class = true;
        Body(c.body, *inner);
        s.children.push_back(std::move(inner));
        s.Bind(c.name);
        break;
      }
      case NodeKind::kReturn:
        Expression(As<Return>(st).value.get(), s);
        break;
      case NodeKind::kDelete:
        for (const auto& t : As<Delete>(st).targets) Target(t.get(), s);
        break;
      case NodeKind::kAssign: {
        const auto& a = As<Assign>(st);
        Expression(a.value.get(), s);
        for (const auto& t : a.targets) Target(t.get(), s);
        break;
      }
      case NodeKind::kAugAssign: {
        const auto& a = As<AugAssign>(st);
        Expression(a.value.get(), s);
        if (a.target->kind == NodeKind::kName) s.used.insert(As<Name>(*a.target).id);
        Target(a.target.get(), s);
        break;
      }
      case NodeKind::kFor: {
        const auto& f = As<For>(st);
        Expression(f.iter.get(), s);
        Target(f.target.get(), s);
        Body(f.body, s);
        Body(f.orelse, s);
        break;
      }
      case NodeKind::kWhile: {
        const auto& w = As<While>(st);
        Expression(w.test.get(), s);
        Body(w.body, s);
        Body(w.orelse, s);
        break;
      }
      case NodeKind::kIf: {
        const auto& i = As<If>(st);
        Expression(i.test.get(), s);
        Body(i.body, s);
        Body(i.orelse, s);
        break;
      }
      case NodeKind::kWith: {
        const auto& w = As<With>(st);
        for (const auto& item : w.items) {
          Expression(item->context_expr.get(), s);
          Target(item->optional_vars.get(), s);
        }
        Body(w.body, s);
        break;
      }
      case NodeKind::kRaise:
        Expression(As<Raise>(st).exc.get(), s);
        Expression(As<Raise>(st).cause.get(), s);
        break;
      case NodeKind::kTry: {
        const auto& t = As<Try>(st);
        Body(t.body, s);
        for (const auto& h : t.handlers) {
          Expression(h->type.get(), s);
          if (h->name) s.Bind(*h->name);
          Body(h->body, s);
        }
        Body(t.orelse, s);
        Body(t.finalbody, s);
        break;
      }
      case NodeKind::kAssert:
        Expression(As<Assert>(st).test.get(), s);
        Expression(As<Assert>(st).msg.get(), s);
        break;
      case NodeKind::kImport:
        for (const auto& a : As<Import>(st).names) {
          s.Bind(a->asname ? *a->asname : a->name.substr(0, a->name.find('.')));
        }
        break;
      case NodeKind::kImportFrom:
        for (const auto& a : As<ImportFrom>(st).names) s.Bind(a->asname ? *a->asname : a->name);
        break;
      case NodeKind::kGlobal:
        for (const auto& n : As<Global>(st).names) s.declared_global.insert(n);
        break;
      case NodeKind::kNonlocal:
        for (const auto& n : As<Nonlocal>(st).names) s.declared_nonlocal.insert(n);
        break;
      case NodeKind::kExprStmt:
        Expression(As<ExprStmt>(st).value.get(), s);
        break;
      case NodeKind::kPass:
      case NodeKind::kBreak:
      case NodeKind::kContinue:
      case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        break;
    }
  }

  void Expressions(const ExprList& list, RawScope& s) {
    for (const auto& e : list) Expression(e.get(), s);
  }

  void Expression(const Expr* e, RawScope& s) {
    if (e == nullptr) return;
    switch (e->kind) {
      case NodeKind::kName: {
        const auto& n = As<Name>(*e);
        if (n.ctx == ExprContext::kLoad) {
          s.used.insert(n.id);
          // Zero-argument super() reads the class from the implicit __class__ cell.
          if (n.id == "super" && s.inside_class && !s.scope->is_class) s.used.insert("__class__");
        } else
          s.Bind(n.id);
        break;
      }
      case NodeKind::kBoolOp:
        Expressions(As<BoolOp>(*e).values, s);
        break;
      case NodeKind::kBinOp:
        Expression(As<BinOp>(*e).left.get(), s);
        Expression(As<BinOp>(*e).right.get(), s);
        break;
      case NodeKind::kUnaryOp:
        Expression(As<UnaryOp>(*e).operand.get(), s);
        break;
      case NodeKind::kLambda: {
        const auto& l = As<Lambda>(*e);
        Function(&l, l.args.get(), s, "<lambda>",
                 [&](RawScope& inner) { Expression(l.body.get(), inner); });
        break;
      }
      case NodeKind::kIfExp:
        Expression(As<IfExp>(*e).test.get(), s);
        Expression(As<IfExp>(*e).body.get(), s);
        Expression(As<IfExp>(*e).orelse.get(), s);
        break;
      case NodeKind::kDict:
        Expressions(As<Dict>(*e).keys, s);
        Expressions(As<Dict>(*e).values, s);
        break;
      case NodeKind::kListComp: {
        const auto& c = As<ListComp>(*e);
        // The first iterable is evaluated in the enclosing scope, the rest inside.
        Expression(c.generators.front()->iter.get(), s);
        Function(&c, nullptr, s, "<listcomp>", [&](RawScope& inner) {
          inner.Bind(".0");
          inner.param_count = 1;
          for (size_t i = 0; i < c.generators.size(); ++i) {
            const auto& g = c.generators[i];
            if (i > 0) Expression(g->iter.get(), inner);
            Target(g->target.get(), inner);
            Expressions(g->ifs, inner);
          }
          Expression(c.elt.get(), inner);
        });
        break;
      }
      case NodeKind::kCompare:
        Expression(As<Compare>(*e).left.get(), s);
        Expressions(As<Compare>(*e).comparators, s);
        break;
      case NodeKind::kCall: {
        const auto& c = As<Call>(*e);
        Expression(c.func.get(), s);
        Expressions(c.args, s);
        for (const auto& k : c.keywords) Expression(k->value.get(), s);
        break;
      }
      case NodeKind::kAttribute:
        Expression(As<Attribute>(*e).value.get(), s);
        break;
      case NodeKind::kSubscript:
        Expression(As<Subscript>(*e).value.get(), s);
        Expression(As<Subscript>(*e).slice.get(), s);
        break;
      case NodeKind::kStarred:
        Expression(As<Starred>(*e).value.get(), s);
        break;
      case NodeKind::kList:
        Expressions(As<List>(*e).elts, s);
        break;
      case NodeKind::kTuple:
        Expressions(As<Tuple>(*e).elts, s);
        break;
      case NodeKind::kSlice:
        Expression(As<Slice>(*e).lower.get(), s);
        Expression(As<Slice>(*e).upper.get(), s);
        Expression(As<Slice>(*e).step.get(), s);
        break;
      case NodeKind::kConstant:
      case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        break;
    }
  }

  std::unordered_map<const Node*, std::unique_ptr<Scope>>& out_;
};

// Resolves `raw` given the names bound by enclosing function scopes; returns the names
// free in `raw` or any scope inside it that `raw`'s enclosing scopes must supply.
std::set<std::string> Resolve(RawScope& raw, const std::set<std::string>& enclosing) {
  Scope& scope = *raw.scope;
  std::set<std::string> all = raw.bound;
  all.insert(raw.used.begin(), raw.used.end());
  all.insert(raw.declared_nonlocal.begin(), raw.declared_nonlocal.end());
  std::set<std::string> free;
  for (const std::string& name : all) {
    NameKind kind;
    if (scope.is_class && raw.declared_global.count(name) == 0 &&
        raw.declared_nonlocal.count(name) == 0) {
      kind = NameKind::kNamespace;
    } else if (scope.is_module || raw.declared_global.count(name) > 0) {
      kind = NameKind::kGlobal;
    } else if (raw.declared_nonlocal.count(name) > 0) {
      kind = NameKind::kFree;
    } else if (raw.bound.count(name) > 0) {
      kind = NameKind::kLocal;
    } else if (enclosing.count(name) > 0) {
      kind = NameKind::kFree;
    } else {
      kind = NameKind::kGlobal;
    }
    scope.names[name] = kind;
    if (kind == NameKind::kFree) free.insert(name);
  }
  std::set<std::string> inner_enclosing = enclosing;
  if (scope.is_class) inner_enclosing.insert("__class__");  // its names stay its own
  if (!scope.is_module && !scope.is_class) {
    for (const auto& [name, kind] : scope.names) {
      if (kind == NameKind::kLocal) inner_enclosing.insert(name);
    }
  }
  for (auto& child : raw.children) {
    for (const std::string& name : Resolve(*child, inner_enclosing)) {
      auto it = scope.names.find(name);
      if (scope.is_class && name == "__class__") {
        scope.names[name] = NameKind::kCell;
      } else if (it != scope.names.end() && it->second == NameKind::kLocal) {
        it->second = NameKind::kCell;
      } else if (it == scope.names.end() || it->second == NameKind::kFree) {
        scope.names[name] = NameKind::kFree;  // passes through to the inner function
        free.insert(name);
      }
    }
  }
  for (const auto& [name, kind] : scope.names) {  // std::map: sorted, as CPython orders them
    if (kind == NameKind::kCell) scope.cellvars.push_back(name);
    if (kind == NameKind::kFree) scope.freevars.push_back(name);
  }
  if (!scope.is_module) {
    scope.param_count = raw.param_count;
    for (const std::string& name : raw.bind_order) {
      if (scope.is_class) break;  // a class body has no fast locals
      if (scope.names[name] == NameKind::kLocal) scope.local_slot[name] = scope.varnames.size();
      if (scope.names[name] != NameKind::kGlobal) scope.varnames.push_back(name);
    }
    for (const std::string& name : scope.cellvars) scope.cell_slot[name] = scope.cell_slot.size();
    for (const std::string& name : scope.freevars) scope.cell_slot[name] = scope.cell_slot.size();
  }
  return free;
}

}  // namespace

NameKind Scope::KindOf(const std::string& name) const {
  auto it = names.find(name);
  return it == names.end() ? NameKind::kGlobal : it->second;
}

std::vector<const Scope*> ScopeTable::ChildrenOf(const Scope& parent) const {
  std::vector<const Scope*> children;
  for (const auto& [node, scope] : scopes_) {
    if (scope->parent == &parent) children.push_back(scope.get());
  }
  return children;
}

ScopeTable AnalyzeScopes(const lang::Module& module) {
  ScopeTable table;
  Collector collector(table.scopes_);
  auto root = collector.Open(&module, nullptr, "");
  collector.Body(module.body, *root);
  Resolve(*root, {});
  return table;
}

}  // namespace tdc::runtime
