#include "reference/dynamo/liveness.h"

#include <optional>
#include <set>

#include "reference/lang/ast_fields.h"

namespace tdc::dynamo {

using namespace lang;  // NOLINT: the analysis names statement classes
using Names = std::set<std::string>;

namespace {

bool Before(const SourcePos& a, const SourcePos& b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

// The names a subtree reads (Load) and binds (Store, Del), nested scopes' bodies left out;
// with `after`, only reads that begin after that position.
class NameCollector : public FieldVisitor {
 public:
  explicit NameCollector(std::optional<SourcePos> after = std::nullopt) : after_(after) {}
  Names reads;
  Names binds;

  void Walk(const Node* node) {
    if (node == nullptr) return;
    if (node->kind == NodeKind::kName) {
      const auto& name = As<Name>(*node);
      if (name.ctx == ExprContext::kLoad) {
        if (!after_ || Before(*after_, node->span.begin)) reads.insert(name.id);
      } else {
        binds.insert(name.id);
      }
      return;
    }
    if (node->kind == NodeKind::kLambda) return;
    if (node->kind == NodeKind::kFunctionDef) {
      const auto& def = As<FunctionDef>(*node);
      binds.insert(def.name);
      for (const auto& d : def.decorator_list) Walk(d.get());
      return;
    }
    VisitFields(*node, *this);
  }
  void Child(std::string_view, const Node* child) override { Walk(child); }
  void Children(std::string_view, const std::vector<const Node*>& children) override {
    for (const Node* c : children) Walk(c);
  }

 private:
  std::optional<SourcePos> after_;
};

Names Reads(const Node* node) {
  NameCollector c;
  c.Walk(node);
  return c.reads;
}

Names Union(Names a, const Names& b) {
  a.insert(b.begin(), b.end());
  return a;
}

Names LiveIn(const StmtList& body, size_t from, Names out);

// Live before `st`, given live after it.
Names LiveBefore(const Stmt& st, Names out) {
  switch (st.kind) {
    case NodeKind::kReturn:
      return Reads(&st);
    case NodeKind::kRaise:
      return Reads(&st);
    case NodeKind::kAssign:
    case NodeKind::kDelete:
    case NodeKind::kImport:
    case NodeKind::kImportFrom:
    case NodeKind::kFunctionDef: {
      NameCollector c;
      c.Walk(&st);
      for (const std::string& bound : c.binds) out.erase(bound);
      return Union(out, c.reads);
    }
    case NodeKind::kIf: {
      const auto& s = As<If>(st);
      return Union(Union(LiveIn(s.body, 0, out), LiveIn(s.orelse, 0, out)), Reads(s.test.get()));
    }
    case NodeKind::kAugAssign:
    case NodeKind::kFor:
    case NodeKind::kWhile:
    case NodeKind::kWith:
    case NodeKind::kTry:
    case NodeKind::kAssert:
    case NodeKind::kGlobal:
    case NodeKind::kNonlocal:
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
  // Expression statements, augmented assignment (reads its target), loops, with and
  // try: everything read in them is live, and nothing they bind is killed.
  return Union(out, Reads(&st));
}

Names LiveIn(const StmtList& body, size_t from, Names out) {
  for (size_t i = body.size(); i > from; --i) out = LiveBefore(*body[i - 1], std::move(out));
  return out;
}

// Live after `target` completes, inside `body` whose own continuation is `out`; nullopt
// when `target` is not in `body`.
std::optional<Names> LiveAfter(const StmtList& body, const Stmt& target, const Names& out);

std::optional<Names> LiveAfterIn(const Stmt& st, const Stmt& target, const Names& out) {
  auto nested = [&](const StmtList& list, const Names& cont) {
    return LiveAfter(list, target, cont);
  };
  switch (st.kind) {
    case NodeKind::kIf: {
      const auto& s = As<If>(st);
      if (auto r = nested(s.body, out)) return r;
      return nested(s.orelse, out);
    }
    case NodeKind::kFor:
    case NodeKind::kWhile: {
      // Another iteration may follow: whatever the loop reads stays live.
      Names cont = Union(out, Reads(&st));
      const StmtList& body = st.kind == NodeKind::kFor ? As<For>(st).body : As<While>(st).body;
      const StmtList& orelse =
          st.kind == NodeKind::kFor ? As<For>(st).orelse : As<While>(st).orelse;
      if (auto r = nested(body, cont)) return r;
      return nested(orelse, out);
    }
    case NodeKind::kWith:
      return nested(As<With>(st).body, out);
    case NodeKind::kTry: {
      const auto& s = As<Try>(st);
      Names cont = Union(out, Reads(&st));
      if (auto r = nested(s.body, cont)) return r;
      for (const auto& h : s.handlers) {
        if (auto r = nested(h->body, cont)) return r;
      }
      if (auto r = nested(s.orelse, cont)) return r;
      return nested(s.finalbody, out);
    }
    case NodeKind::kFunctionDef:
    case NodeKind::kReturn:
    case NodeKind::kDelete:
    case NodeKind::kAssign:
    case NodeKind::kAugAssign:
    case NodeKind::kRaise:
    case NodeKind::kAssert:
    case NodeKind::kImport:
    case NodeKind::kImportFrom:
    case NodeKind::kGlobal:
    case NodeKind::kNonlocal:
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
  return std::nullopt;
}

std::optional<Names> LiveAfter(const StmtList& body, const Stmt& target, const Names& out) {
  for (size_t i = 0; i < body.size(); ++i) {
    Names cont = LiveIn(body, i + 1, out);
    if (body[i].get() == &target) return cont;
    if (auto r = LiveAfterIn(*body[i], target, cont)) return r;
  }
  return std::nullopt;
}

// Live after `call` returns inside statement `stmt` of function `def`.
Names LiveAfterCallInStatement(const Node& def, const Stmt& stmt, const Call& call) {
  Names live;
  if (def.kind == NodeKind::kFunctionDef && stmt.kind != NodeKind::kReturn) {
    live = LiveAfter(As<FunctionDef>(def).body, stmt, {}).value_or(Names{});
    if (stmt.kind == NodeKind::kIf &&
        Before(call.span.end, As<If>(stmt).body.front()->span.begin)) {
      const auto& s = As<If>(stmt);
      live = Union(LiveIn(s.body, 0, live), LiveIn(s.orelse, 0, live));
    } else if (stmt.kind == NodeKind::kAssign) {
      NameCollector c;
      for (const auto& t : As<Assign>(stmt).targets) c.Walk(t.get());
      for (const std::string& bound : c.binds) live.erase(bound);
    }
  }
  // Reads still to come in the statement itself (for a compound statement, its header).
  NameCollector rest(call.span.end);
  rest.Walk(stmt.kind == NodeKind::kIf ? static_cast<const Node*>(As<If>(stmt).test.get()) : &stmt);
  return Union(live, rest.reads);
}

// What the exception paths of the with blocks around `target` (in `body`, continued by
// `out`) read: a with's handler, when __exit__ suppresses the exception, goes on after the
// with statement, so what is live there is live at any instruction of its body that can
// raise (torch's livevars_analysis walks each exception-table target). Nullopt when `target`
// is not in `body`.
std::optional<Names> LiveOnWithExits(const StmtList& body, const Stmt& target, const Names& out) {
  for (size_t i = 0; i < body.size(); ++i) {
    Names cont = LiveIn(body, i + 1, out);
    const Stmt& st = *body[i];
    if (&st == &target) return Names{};
    std::optional<Names> inner;
    switch (st.kind) {
      case NodeKind::kIf:
        inner = LiveOnWithExits(As<If>(st).body, target, cont);
        if (!inner) inner = LiveOnWithExits(As<If>(st).orelse, target, cont);
        break;
      case NodeKind::kFor:
      case NodeKind::kWhile: {
        Names again = Union(cont, Reads(&st));
        inner = LiveOnWithExits(st.kind == NodeKind::kFor ? As<For>(st).body : As<While>(st).body,
                                target, again);
        if (!inner) {
          inner = LiveOnWithExits(
              st.kind == NodeKind::kFor ? As<For>(st).orelse : As<While>(st).orelse, target, cont);
        }
        break;
      }
      case NodeKind::kWith:
        inner = LiveOnWithExits(As<With>(st).body, target, cont);
        if (inner) inner = Union(std::move(*inner), cont);
        break;
      case NodeKind::kTry: {
        const auto& t = As<Try>(st);
        Names within = Union(cont, Reads(&st));
        inner = LiveOnWithExits(t.body, target, within);
        for (size_t h = 0; !inner && h < t.handlers.size(); ++h)
          inner = LiveOnWithExits(t.handlers[h]->body, target, within);
        if (!inner) inner = LiveOnWithExits(t.orelse, target, within);
        if (!inner) inner = LiveOnWithExits(t.finalbody, target, cont);
        break;
      }
      case NodeKind::kFunctionDef:
      case NodeKind::kReturn:
      case NodeKind::kDelete:
      case NodeKind::kAssign:
      case NodeKind::kAugAssign:
      case NodeKind::kRaise:
      case NodeKind::kAssert:
      case NodeKind::kImport:
      case NodeKind::kImportFrom:
      case NodeKind::kGlobal:
      case NodeKind::kNonlocal:
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
    if (inner) return inner;
  }
  return std::nullopt;
}

}  // namespace

bool ReturnedAtOnce(const Node& def, const Stmt* stmt, const Call& call) {
  if (stmt == nullptr) return def.kind == NodeKind::kLambda && As<Lambda>(def).body.get() == &call;
  return stmt->kind == NodeKind::kReturn && As<Return>(*stmt).value.get() == &call;
}

namespace {

std::vector<std::string> InVarnamesOrder(const runtime::Scope& scope, const Names& live) {
  std::vector<std::string> ordered;
  for (const std::string& name : scope.varnames) {
    if (live.count(name) && scope.local_slot.count(name)) ordered.push_back(name);
  }
  return ordered;
}

}  // namespace

std::vector<std::string> LiveLocalsBefore(const runtime::Scope& scope, const FunctionDef& def,
                                          const Stmt& stmt) {
  return InVarnamesOrder(scope, LiveBefore(stmt, LiveAfter(def.body, stmt, {}).value_or(Names{})));
}

std::vector<std::string> LiveLocalsAtBranch(const runtime::Scope& scope, const FunctionDef& def,
                                            const Stmt& branch, std::optional<bool> runs_body) {
  const Names after = LiveAfter(def.body, branch, {}).value_or(Names{});
  const bool loop = branch.kind == NodeKind::kWhile;
  const StmtList& body = loop ? As<While>(branch).body : As<If>(branch).body;
  const StmtList& orelse = loop ? As<While>(branch).orelse : As<If>(branch).orelse;
  // A while's body goes on to its test, and maybe another iteration: what the loop reads
  // stays live there.
  const Names after_body = loop ? Union(after, Reads(&branch)) : after;
  Names live;
  if (!runs_body || *runs_body) live = Union(live, LiveIn(body, 0, after_body));
  if (!runs_body || !*runs_body) live = Union(live, LiveIn(orelse, 0, after));
  return InVarnamesOrder(scope, live);
}

std::vector<std::string> LiveLocalsAfterCall(const runtime::Scope& scope, const Node& def,
                                             const Stmt* stmt, const Call& call) {
  Names live;
  if (stmt != nullptr) {
    live = LiveAfterCallInStatement(def, *stmt, call);
  } else {  // a lambda: only the rest of its body
    NameCollector rest(call.span.end);
    rest.Walk(As<Lambda>(def).body.get());
    live = rest.reads;
  }
  return InVarnamesOrder(scope, live);
}

std::vector<std::string> LiveLocalsDuringCall(const runtime::Scope& scope, const Node& def,
                                              const Stmt* stmt, const Call& call) {
  Names live;
  for (const std::string& name : LiveLocalsAfterCall(scope, def, stmt, call)) live.insert(name);
  if (stmt != nullptr && def.kind == NodeKind::kFunctionDef) {
    live = Union(std::move(live),
                 LiveOnWithExits(As<FunctionDef>(def).body, *stmt, {}).value_or(Names{}));
  }
  return InVarnamesOrder(scope, live);
}

}  // namespace tdc::dynamo
