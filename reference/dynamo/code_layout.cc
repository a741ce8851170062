// The emitter follows CPython 3.11's compile.c for the statements and expressions of the
// subset: the same order of loads and stores, the same jumps (compiler_jump_if for tests,
// JUMP_IF_*_OR_POP for `and` / `or` values, FOR_ITER, the loops' backward jumps), the same
// unwinding on return / break / continue (compiler_unwind_fblock: a finally body copied, an
// except's name deleted) and the same exception-table handlers (a with's, a try's except
// and finally blocks, their cleanup blocks). Instructions that touch no local are left out
// but for those a position can be (POP_TOP after an expression statement's call, BEFORE_WITH
// after a context manager's, a statement's start): a no-op with the handler the instruction
// there has. Checked against torch's livevars_analysis on CPython 3.11.7's bytecode
// (reference/dynamo/testing/liveness_cross_check.py).
#include "reference/dynamo/code_layout.h"

#include <cstdint>
#include <deque>
#include <functional>

namespace tdc::dynamo {

using lang::As;
using lang::NodeKind;
using Op = LayoutInsn::Op;

namespace {

class Emitter {
 public:
  std::vector<LayoutInsn> code;
  CodeLayout::Positions positions;

  void FunctionBody(const lang::Node& def) {
    if (def.kind == NodeKind::kLambda) {
      Expr(*As<lang::Lambda>(def).body);
    } else {
      const lang::Arguments& params = *As<lang::FunctionDef>(def).args;
      for (const auto* list : {&params.posonlyargs, &params.args}) {
        if (first_param_ == nullptr && !list->empty()) first_param_ = &list->front()->arg;
      }
      Body(As<lang::FunctionDef>(def).body);
    }
    code[Emit(Op::kExit)].returns = true;  // the implicit `return None`
    Resolve();
  }

 private:
  // compile.c's fblock kinds that unwinding does something for.
  enum class Block {
    kLoop,
    kForLoop,
    kTryExcept,
    kFinallyTry,
    kFinallyEnd,
    kWith,
    kHandlerCleanup
  };
  struct FBlock {
    Block kind;
    size_t start = 0;                           // a loop's: where `continue` goes
    size_t exit = 0;                            // a loop's: where `break` goes
    const lang::StmtList* finalbody = nullptr;  // kFinallyTry
    const std::string* name = nullptr;          // kHandlerCleanup: the except's `as` name
  };

  // Labels are resolved to instruction indices once everything is emitted.
  size_t NewLabel() {
    labels_.push_back(SIZE_MAX);
    return labels_.size() - 1;
  }
  void Place(size_t label) { labels_[label] = code.size(); }
  size_t Emit(Op op, const std::string* name = nullptr, size_t label = 0) {
    LayoutInsn insn;
    insn.op = op;
    insn.name = name;
    insn.target = label;
    if (!handlers_.empty()) insn.handler = handlers_.back();  // a label, resolved later
    code.push_back(insn);
    return code.size() - 1;
  }
  // A statement's start: no instruction of its own (CPython drops the NOP a `pass`, `break`
  // or `return` begins with where the next instruction has its line), so no handler either;
  // a walk from it starts at the statement's first instruction.
  size_t Mark() {
    code.push_back(LayoutInsn{});
    return code.size() - 1;
  }
  // An instruction computing from the values below it (BINARY_OP, LOAD_ATTR, BUILD_LIST,
  // UNPACK_SEQUENCE, COPY...): one may follow a call's CALL inside the handler's region.
  void Operation() { Emit(Op::kNop); }
  void Resolve() {
    for (size_t i = 0; i < code.size(); ++i) {
      LayoutInsn& insn = code[i];
      if (insn.op == Op::kCondJump || insn.op == Op::kJump) insn.target = labels_[insn.target];
      if (insn.handler) insn.handler = labels_[*insn.handler];
      // remove_redundant_jumps: an unconditional jump to the next instruction goes.
      if (insn.op == Op::kJump && insn.target > i) {
        size_t next = i + 1;
        while (next < insn.target && code[next].op == Op::kMark) ++next;
        if (next == insn.target) insn.op = Op::kNop;
      }
    }
    for (auto& [key, site] : positions.jumps) site.target = labels_[site.target];
  }

  void Body(const lang::StmtList& body) {
    for (const auto& s : body) Stmt(*s);
  }

  // ---- statements (compiler_visit_stmt)
  void Stmt(const lang::Stmt& s) {
    positions.statement.emplace(&s, Mark());
    switch (s.kind) {
      case NodeKind::kExprStmt:
        Expr(*As<lang::ExprStmt>(s).value);
        Emit(Op::kNop);  // POP_TOP: after a call, the instruction its break resumes at
        return;
      case NodeKind::kAssign: {
        const auto& a = As<lang::Assign>(s);
        Expr(*a.value);
        for (size_t i = 0; i < a.targets.size(); ++i) {
          if (i + 1 < a.targets.size()) Operation();  // COPY
          Target(*a.targets[i]);
        }
        return;
      }
      case NodeKind::kAugAssign:
        AugAssign(As<lang::AugAssign>(s));
        return;
      case NodeKind::kDelete:
        for (const auto& target : As<lang::Delete>(s).targets) Target(*target);
        return;
      case NodeKind::kReturn: {
        const auto& r = As<lang::Return>(s);
        if (r.value && r.value->kind != NodeKind::kConstant) Expr(*r.value);
        const BlocksRestored restored(*this);
        Unwind(nullptr);
        code[Emit(Op::kExit)].returns = true;
        return;
      }
      case NodeKind::kRaise: {
        const auto& r = As<lang::Raise>(s);
        if (r.exc) Expr(*r.exc);
        if (r.cause) Expr(*r.cause);
        Emit(Op::kExit);
        return;
      }
      case NodeKind::kAssert: {
        const auto& a = As<lang::Assert>(s);
        const size_t end = NewLabel();
        JumpIf(*a.test, end, true);
        // The jump emitted last, if it is the one straight before the raise.
        for (auto& [key, site] : positions.jumps) {
          if (site.at + 1 == code.size() && site.if_true &&
              (!a.msg || a.msg->kind == NodeKind::kConstant)) {
            site.asserts = true;
          }
        }
        if (a.msg) Expr(*a.msg);
        Emit(Op::kExit);  // RAISE_VARARGS
        Place(end);
        return;
      }
      case NodeKind::kIf:
        If(As<lang::If>(s));
        return;
      case NodeKind::kWhile:
        While(As<lang::While>(s));
        return;
      case NodeKind::kFor:
        For(As<lang::For>(s));
        return;
      case NodeKind::kWith:
        With(As<lang::With>(s), 0);
        return;
      case NodeKind::kTry:
        Try(As<lang::Try>(s));
        return;
      case NodeKind::kBreak:
      case NodeKind::kContinue: {
        const BlocksRestored restored(*this);
        std::optional<FBlock> loop;
        Unwind(&loop);
        if (!loop) return;  // outside a loop: a SyntaxError the parser reports
        // (a break pops a for loop's iterator first: no local)
        Emit(Op::kJump, nullptr, s.kind == NodeKind::kContinue ? loop->start : loop->exit);
        return;
      }
      case NodeKind::kFunctionDef: {
        const auto& def = As<lang::FunctionDef>(s);
        for (const auto& d : def.decorator_list) Expr(*d);
        Parameters(*def.args);
        if (def.returns) Expr(*def.returns);
        Operation();  // MAKE_FUNCTION
        Emit(Op::kStore, &def.name);
        return;
      }
      case NodeKind::kImport:
        for (const auto& alias : As<lang::Import>(s).names) {
          Operation();  // IMPORT_NAME
          const std::string& name = alias->asname ? *alias->asname : alias->name;
          stored_names_.push_back(name.substr(0, name.find('.')));
          Emit(Op::kStore, &stored_names_.back());
        }
        return;
      case NodeKind::kImportFrom:
        Operation();  // IMPORT_NAME
        for (const auto& alias : As<lang::ImportFrom>(s).names) {
          Emit(Op::kStore, alias->asname ? &*alias->asname : &alias->name);
        }
        return;
      case NodeKind::kGlobal:
      case NodeKind::kNonlocal:
      case NodeKind::kPass:
      case NodeKind::kClassDef:  // a class statement in a function is refused when it runs
      case NodeKind::kUnsupportedStmt:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_STMT_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        return;
    }
  }

  // Evaluates what a store, augmented store or del of `target` reads, then stores (a del of
  // a name is DELETE_FAST, which livevars_analysis counts as a read).
  void Target(const lang::Expr& target) {
    if (target.kind == NodeKind::kName) {
      const auto& n = As<lang::Name>(target);
      Emit(n.ctx == lang::ExprContext::kDel ? Op::kLoad : Op::kStore, &n.id);
    } else if (target.kind == NodeKind::kAttribute) {
      Expr(*As<lang::Attribute>(target).value);
    } else if (target.kind == NodeKind::kSubscript) {
      Expr(*As<lang::Subscript>(target).value);
      Expr(*As<lang::Subscript>(target).slice);
    } else if (target.kind == NodeKind::kStarred) {
      Target(*As<lang::Starred>(target).value);
    } else if (target.kind == NodeKind::kTuple || target.kind == NodeKind::kList) {
      const lang::ExprList& elts = target.kind == NodeKind::kTuple ? As<lang::Tuple>(target).elts
                                                                   : As<lang::List>(target).elts;
      if (Context(target) == lang::ExprContext::kStore) Operation();  // UNPACK_SEQUENCE
      for (const auto& elt : elts) Target(*elt);
    }
  }

  void AugAssign(const lang::AugAssign& a) {
    const lang::Expr& target = *a.target;
    if (target.kind == NodeKind::kName) {
      const auto& n = As<lang::Name>(target);
      Emit(Op::kLoad, &n.id);
      Expr(*a.value);
      Operation();  // BINARY_OP
      Emit(Op::kStore, &n.id);
      return;
    }
    Target(target);  // the object (and index) loaded once, then the value
    Expr(*a.value);
    Operation();
  }

  // compiler_if: a constant test compiles only the block it selects.
  void If(const lang::If& s) {
    if (std::optional<bool> truth = ConstantTruth(*s.test)) {
      Body(*truth ? s.body : s.orelse);
      return;
    }
    const size_t end = NewLabel();
    const size_t orelse = s.orelse.empty() ? end : NewLabel();
    JumpIf(*s.test, orelse, false);
    Body(s.body);
    if (!s.orelse.empty()) {
      Emit(Op::kJump, nullptr, end);
      Place(orelse);
      Body(s.orelse);
    }
    Place(end);
  }

  // compiler_while: the test before the body (jumping past it) and again at its end (jumping
  // back to it); `continue` goes back to the first. A constant true test has no jump.
  void While(const lang::While& s) {
    const bool forever = ConstantTruth(*s.test).value_or(false);
    const size_t loop = NewLabel(), body = NewLabel(), anchor = NewLabel(), end = NewLabel();
    Place(loop);
    fblocks_.push_back({Block::kLoop, loop, end});
    if (!forever) JumpIf(*s.test, anchor, false);
    Place(body);
    Body(s.body);
    if (forever) {
      Emit(Op::kJump, nullptr, body);
    } else {
      loop_end_ = true;
      JumpIf(*s.test, body, true);
      loop_end_ = false;
    }
    fblocks_.pop_back();
    Place(anchor);
    Body(s.orelse);
    Place(end);
  }

  void For(const lang::For& s) {
    const size_t start = NewLabel(), cleanup = NewLabel(), end = NewLabel();
    fblocks_.push_back({Block::kForLoop, start, end});
    Expr(*s.iter);
    Place(start);
    Emit(Op::kCondJump, nullptr, cleanup);  // FOR_ITER
    Target(*s.target);
    Body(s.body);
    Emit(Op::kJump, nullptr, start);
    Place(cleanup);
    fblocks_.pop_back();
    Body(s.orelse);
    Place(end);
  }

  // compiler_with, one item at a time: the `as` target and the body protected by the
  // handler, whose suppressing path goes on after the with statement.
  void With(const lang::With& s, size_t item) {
    const lang::WithItem& w = *s.items[item];
    const size_t handler = NewLabel(), cleanup = NewLabel(), suppress = NewLabel(),
                 exit = NewLabel();
    Expr(*w.context_expr);
    Emit(Op::kNop);  // BEFORE_WITH, outside the handler it sets up
    handlers_.push_back(handler);
    fblocks_.push_back({Block::kWith});
    if (w.optional_vars) Target(*w.optional_vars);
    if (item + 1 < s.items.size()) {
      With(s, item + 1);
    } else {
      Body(s.body);
    }
    fblocks_.pop_back();
    handlers_.pop_back();
    Emit(Op::kJump, nullptr, exit);  // after __exit__(None, None, None)
    Place(handler);
    handlers_.push_back(cleanup);
    Emit(Op::kCondJump, nullptr, suppress);  // WITH_EXCEPT_START's answer
    Emit(Op::kExit);                         // RERAISE 2
    handlers_.pop_back();
    Place(cleanup);
    Emit(Op::kExit);  // POP_EXCEPT, RERAISE 1
    Place(suppress);
    Place(exit);
  }

  void Try(const lang::Try& s) {
    if (s.finalbody.empty()) {
      TryExcept(s);
      return;
    }
    // compiler_try_finally: the body (with its except blocks) protected by the finally
    // handler, the finally body copied on the normal path and in the handler.
    const size_t handler = NewLabel(), cleanup = NewLabel(), exit = NewLabel();
    handlers_.push_back(handler);
    fblocks_.push_back({Block::kFinallyTry, 0, 0, &s.finalbody});
    if (s.handlers.empty()) {
      Body(s.body);
    } else {
      TryExcept(s);
    }
    fblocks_.pop_back();
    handlers_.pop_back();
    Body(s.finalbody);
    Emit(Op::kJump, nullptr, exit);
    Place(handler);
    handlers_.push_back(cleanup);
    fblocks_.push_back({Block::kFinallyEnd});
    Body(s.finalbody);
    fblocks_.pop_back();
    Emit(Op::kExit);  // RERAISE 0
    handlers_.pop_back();
    Place(cleanup);
    Emit(Op::kExit);
    Place(exit);
  }

  // compiler_try_except: the body protected by the except block; the else block after it,
  // unprotected; each handler's type test, its `as` name stored and, on every way out of
  // its body, set to None and deleted.
  void TryExcept(const lang::Try& s) {
    const size_t except = NewLabel(), cleanup = NewLabel(), end = NewLabel();
    handlers_.push_back(except);
    fblocks_.push_back({Block::kTryExcept});
    Body(s.body);
    fblocks_.pop_back();
    handlers_.pop_back();
    Body(s.orelse);
    Emit(Op::kJump, nullptr, end);
    Place(except);
    for (const auto& h : s.handlers) {
      handlers_.push_back(cleanup);
      const size_t next = NewLabel();
      if (h->type) {
        Expr(*h->type);
        Emit(Op::kCondJump, nullptr, next);  // CHECK_EXC_MATCH, POP_JUMP_IF_FALSE
      }
      if (h->name) {
        const size_t cleanup_end = NewLabel();
        Emit(Op::kStore, &*h->name);
        handlers_.push_back(cleanup_end);
        fblocks_.push_back({Block::kHandlerCleanup, 0, 0, nullptr, &*h->name});
        Body(h->body);
        fblocks_.pop_back();
        handlers_.pop_back();
        handlers_.pop_back();
        Emit(Op::kStore, &*h->name);  // name = None
        Emit(Op::kLoad, &*h->name);   // del name
        Emit(Op::kJump, nullptr, end);
        Place(cleanup_end);
        handlers_.push_back(cleanup);
        Emit(Op::kStore, &*h->name);
        Emit(Op::kLoad, &*h->name);
        Emit(Op::kExit);  // RERAISE 1
        handlers_.pop_back();
      } else {
        fblocks_.push_back({Block::kHandlerCleanup});
        Body(h->body);
        fblocks_.pop_back();
        handlers_.pop_back();
        Emit(Op::kJump, nullptr, end);
      }
      Place(next);
    }
    handlers_.push_back(cleanup);
    Emit(Op::kExit);  // RERAISE 0: no handler matched
    handlers_.pop_back();
    Place(cleanup);
    Emit(Op::kExit);
    Place(end);
  }

  // The handlers and blocks a return, break or continue unwinds, back as they were once its
  // jump is emitted (the code after it is reached another way).
  class BlocksRestored {
   public:
    explicit BlocksRestored(Emitter& e) : e_(e), handlers_(e.handlers_), blocks_(e.fblocks_) {}
    ~BlocksRestored() {
      e_.handlers_ = handlers_;
      e_.fblocks_ = blocks_;
    }
    BlocksRestored(const BlocksRestored&) = delete;
    BlocksRestored& operator=(const BlocksRestored&) = delete;

   private:
    Emitter& e_;
    std::vector<size_t> handlers_;
    std::vector<FBlock> blocks_;
  };

  // compiler_unwind_fblock_stack: what a return (`loop` null: every block) or a break or
  // continue (up to the innermost loop, which it sets) runs on its way out.
  void Unwind(std::optional<FBlock>* loop) {
    while (!fblocks_.empty()) {
      FBlock top = fblocks_.back();
      if (loop != nullptr && (top.kind == Block::kLoop || top.kind == Block::kForLoop)) {
        *loop = top;
        break;
      }
      fblocks_.pop_back();
      switch (top.kind) {
        case Block::kLoop:
        case Block::kForLoop:
          break;
        case Block::kTryExcept:
        case Block::kWith:
        case Block::kFinallyEnd:
          handlers_.pop_back();
          break;
        case Block::kFinallyTry:
          handlers_.pop_back();
          Body(*top.finalbody);
          break;
        case Block::kHandlerCleanup:
          if (top.name != nullptr) handlers_.pop_back();
          handlers_.pop_back();
          if (top.name != nullptr) {
            Emit(Op::kStore, top.name);
            Emit(Op::kLoad, top.name);
          }
          break;
      }
    }
  }

  void Parameters(const lang::Arguments& args) {
    for (const auto& d : args.defaults) Expr(*d);
    for (const auto& d : args.kw_defaults) {
      if (d) Expr(*d);
    }
  }

  // ---- expressions (compiler_visit_expr)
  void Expr(const lang::Expr& e) {
    switch (e.kind) {
      case NodeKind::kName:
        if (As<lang::Name>(e).ctx == lang::ExprContext::kLoad) {
          Emit(Op::kLoad, &As<lang::Name>(e).id);
        } else {
          Target(e);
        }
        return;
      case NodeKind::kBoolOp: {  // compiler_boolop: JUMP_IF_FALSE_OR_POP / JUMP_IF_TRUE_OR_POP
        const auto& b = As<lang::BoolOp>(e);
        const size_t end = NewLabel();
        for (size_t i = 0; i < b.values.size(); ++i) {
          Expr(*b.values[i]);
          if (i + 1 == b.values.size()) break;
          // A constant operand's jump is folded: never taken, or always, when the operands
          // after it are dead code CPython drops (and the jump, to the next instruction then).
          std::optional<bool> truth = ConstantTruth(*b.values[i]);
          if (!truth) {
            JumpSite site{Emit(Op::kCondJump, nullptr, end), b.op == lang::BoolOpKind::kOr, end};
            site.keeps_value = true;
            positions.jumps.emplace(std::pair{b.values[i].get(), loop_end_}, site);
          } else if (*truth == (b.op == lang::BoolOpKind::kOr)) {
            break;
          }
        }
        Place(end);
        return;
      }
      case NodeKind::kIfExp: {  // compiler_ifexp
        const auto& i = As<lang::IfExp>(e);
        if (std::optional<bool> truth = ConstantTruth(*i.test)) {  // the other part is dead
          Expr(*truth ? *i.body : *i.orelse);
          return;
        }
        const size_t orelse = NewLabel(), end = NewLabel();
        JumpIf(*i.test, orelse, false);
        Expr(*i.body);
        Emit(Op::kJump, nullptr, end);
        Place(orelse);
        Expr(*i.orelse);
        Place(end);
        return;
      }
      case NodeKind::kCompare: {
        const auto& c = As<lang::Compare>(e);
        Expr(*c.left);
        if (c.comparators.size() == 1) {
          Expr(*c.comparators[0]);
          Operation();
          return;
        }
        // compiler_compare: JUMP_IF_FALSE_OR_POP to a cleanup after each but the last.
        const size_t cleanup = NewLabel(), end = NewLabel();
        for (size_t i = 0; i + 1 < c.comparators.size(); ++i) {
          Expr(*c.comparators[i]);
          Emit(Op::kCondJump, nullptr, cleanup);
        }
        Expr(*c.comparators.back());
        Emit(Op::kJump, nullptr, end);
        Place(cleanup);
        Place(end);
        return;
      }
      case NodeKind::kCall: {
        const auto& c = As<lang::Call>(e);
        Expr(*c.func);
        // Dynamo rewrites zero-argument super() as super(__class__, <first argument>)
        // (bytecode_transformation.explicit_super), so the first argument is read there.
        if (IsZeroArgumentSuper(c) && first_param_ != nullptr) {
          Emit(Op::kLoad, &kClassCell);
          Emit(Op::kLoad, first_param_);
        }
        for (const auto& a : c.args) Expr(*a);
        for (const auto& k : c.keywords) Expr(*k->value);
        // A call's break resumes at the instruction after its CALL, whatever it is (a store
        // stores before its handler is walked).
        positions.at_call.emplace(&c, Emit(Op::kNop));
        positions.after_call.emplace(&c, code.size());
        return;
      }
      case NodeKind::kLambda:
        Parameters(*As<lang::Lambda>(e).args);
        Operation();  // MAKE_FUNCTION
        return;
      case NodeKind::kListComp:  // a code of its own, called on its first iterable
        Expr(*As<lang::ListComp>(e).generators.front()->iter);
        Operation();
        return;
      case NodeKind::kBinOp:
        Expr(*As<lang::BinOp>(e).left);
        Expr(*As<lang::BinOp>(e).right);
        Operation();
        return;
      case NodeKind::kUnaryOp:
        Expr(*As<lang::UnaryOp>(e).operand);
        Operation();
        return;
      case NodeKind::kDict: {
        const auto& d = As<lang::Dict>(e);
        for (size_t i = 0; i < d.values.size(); ++i) {
          if (d.keys[i]) Expr(*d.keys[i]);
          Expr(*d.values[i]);
        }
        Operation();
        return;
      }
      case NodeKind::kAttribute:
        Expr(*As<lang::Attribute>(e).value);
        Operation();
        return;
      case NodeKind::kSubscript:
        if (As<lang::Subscript>(e).ctx != lang::ExprContext::kLoad) {
          Target(e);
          return;
        }
        Expr(*As<lang::Subscript>(e).value);
        Expr(*As<lang::Subscript>(e).slice);
        Operation();
        return;
      case NodeKind::kStarred:
      case NodeKind::kList:
      case NodeKind::kTuple:
        if (Context(e) != lang::ExprContext::kLoad) {
          Target(e);
        } else if (e.kind == NodeKind::kStarred) {
          Expr(*As<lang::Starred>(e).value);
        } else {
          for (const auto& elt :
               e.kind == NodeKind::kList ? As<lang::List>(e).elts : As<lang::Tuple>(e).elts)
            Expr(*elt);
          Operation();
        }
        return;
      case NodeKind::kSlice: {
        const auto& s = As<lang::Slice>(e);
        for (const lang::ExprPtr* part : {&s.lower, &s.upper, &s.step}) {
          if (*part) Expr(**part);
        }
        Operation();
        return;
      }
      case NodeKind::kConstant:
        Operation();  // LOAD_CONST
        return;
      case NodeKind::kUnsupportedExpr:
#define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
        return;
    }
  }

  static lang::ExprContext Context(const lang::Expr& e) {
    if (e.kind == NodeKind::kStarred) return As<lang::Starred>(e).ctx;
    if (e.kind == NodeKind::kList) return As<lang::List>(e).ctx;
    return As<lang::Tuple>(e).ctx;
  }

  // compiler_jump_if: jumps to `next` when `e`'s truth is `cond`, falls through otherwise;
  // each leaf's conditional jump is a JumpSite.
  void JumpIf(const lang::Expr& e, size_t next, bool cond) {
    if (e.kind == NodeKind::kUnaryOp && As<lang::UnaryOp>(e).op == lang::UnaryOpKind::kNot) {
      JumpIf(*As<lang::UnaryOp>(e).operand, next, !cond);
      return;
    }
    if (e.kind == NodeKind::kBoolOp) {
      const auto& b = As<lang::BoolOp>(e);
      const bool cond2 = b.op == lang::BoolOpKind::kOr;
      const size_t next2 = cond2 == cond ? next : NewLabel();
      for (size_t i = 0; i + 1 < b.values.size(); ++i) JumpIf(*b.values[i], next2, cond2);
      JumpIf(*b.values.back(), next, cond);
      if (next2 != next) Place(next2);
      return;
    }
    if (e.kind == NodeKind::kIfExp) {
      const auto& i = As<lang::IfExp>(e);
      if (std::optional<bool> truth = ConstantTruth(*i.test)) {
        JumpIf(*truth ? *i.body : *i.orelse, next, cond);
        return;
      }
      const size_t orelse = NewLabel(), end = NewLabel();
      JumpIf(*i.test, orelse, false);
      JumpIf(*i.body, next, cond);
      Emit(Op::kJump, nullptr, end);
      Place(orelse);
      JumpIf(*i.orelse, next, cond);
      Place(end);
      return;
    }
    if (e.kind == NodeKind::kCompare && As<lang::Compare>(e).comparators.size() > 1) {
      const auto& c = As<lang::Compare>(e);
      const size_t cleanup = NewLabel(), end = NewLabel();
      Expr(*c.left);
      for (size_t i = 0; i + 1 < c.comparators.size(); ++i) {
        Expr(*c.comparators[i]);
        Emit(Op::kCondJump, nullptr, cleanup);
      }
      Expr(*c.comparators.back());
      Emit(Op::kCondJump, nullptr, next);
      Emit(Op::kJump, nullptr, end);
      Place(cleanup);
      if (!cond) Emit(Op::kJump, nullptr, next);
      Place(end);
      return;
    }
    // CPython's optimizer folds a jump on a constant: always taken, or gone.
    if (std::optional<bool> truth = ConstantTruth(e)) {
      if (*truth == cond) Emit(Op::kJump, nullptr, next);
      return;
    }
    Expr(e);
    const size_t at = Emit(Op::kCondJump, nullptr, next);
    positions.jumps.emplace(std::pair{&e, loop_end_}, JumpSite{at, cond, next});
  }

  // The truth of an expression CPython 3.11 compiles to a constant (its AST optimizer folds
  // a unary operator or a tuple of constants); nullopt for any other.
  static std::optional<bool> ConstantTruth(const lang::Expr& e) {
    if (e.kind == NodeKind::kConstant) return Truthy(As<lang::Constant>(e));
    if (e.kind == NodeKind::kUnaryOp) {
      const auto& u = As<lang::UnaryOp>(e);
      std::optional<bool> operand = ConstantTruth(*u.operand);
      if (!operand || u.op == lang::UnaryOpKind::kInvert) return std::nullopt;
      return u.op == lang::UnaryOpKind::kNot ? !*operand : *operand;
    }
    if (e.kind == NodeKind::kTuple && As<lang::Tuple>(e).ctx == lang::ExprContext::kLoad) {
      for (const auto& elt : As<lang::Tuple>(e).elts) {
        if (!ConstantTruth(*elt)) return std::nullopt;
      }
      return !As<lang::Tuple>(e).elts.empty();
    }
    return std::nullopt;
  }

  static bool Truthy(const lang::Constant& c) {
    using Kind = lang::ConstantValue::Kind;
    const lang::ConstantValue& v = c.value;
    switch (v.kind) {
      case Kind::kNone:
        return false;
      case Kind::kBool:
        return v.boolean;
      case Kind::kInt:
        return v.integer.find_first_not_of('0') != std::string::npos;
      case Kind::kFloat:
      case Kind::kComplex:
        return v.real != 0;
      case Kind::kStr:
      case Kind::kBytes:
        return !v.text.empty();
      case Kind::kEllipsis:
        return true;
    }
    return true;
  }

  std::vector<size_t> labels_;
  std::vector<size_t> handlers_;  // the exception-table handlers in force, innermost last
  std::vector<FBlock> fblocks_;
  static bool IsZeroArgumentSuper(const lang::Call& c) {
    return c.func->kind == NodeKind::kName && As<lang::Name>(*c.func).id == "super" &&
           c.args.empty() && c.keywords.empty();
  }
  static inline const std::string kClassCell = "__class__";
  const std::string* first_param_ = nullptr;  // the function's first positional parameter
  std::deque<std::string> stored_names_;      // names `import a.b` binds
  bool loop_end_ = false;                     // emitting a while's test at the end of its body
};

}  // namespace

CodeLayout::CodeLayout(const lang::Node& def) {
  Emitter e;
  e.FunctionBody(def);
  code_ = std::move(e.code);
  positions_ = std::move(e.positions);
}

std::optional<size_t> CodeLayout::AtCall(const lang::Call& call) const {
  auto it = positions_.at_call.find(&call);
  return it == positions_.at_call.end() ? std::nullopt : std::optional(it->second);
}

std::optional<size_t> CodeLayout::AfterCall(const lang::Call& call) const {
  auto it = positions_.after_call.find(&call);
  return it == positions_.after_call.end() ? std::nullopt : std::optional(it->second);
}

std::optional<size_t> CodeLayout::StatementStart(const lang::Stmt& stmt) const {
  auto it = positions_.statement.find(&stmt);
  return it == positions_.statement.end() ? std::nullopt : std::optional(it->second);
}

const JumpSite* CodeLayout::Jump(const lang::Expr& leaf, bool loop_end) const {
  auto it = positions_.jumps.find({&leaf, loop_end});
  return it == positions_.jumps.end() ? nullptr : &it->second;
}

bool CodeLayout::BackedgeAfter(size_t at) const {
  for (size_t i = at + 1; i < code_.size(); ++i) {
    const LayoutInsn& insn = code_[i];
    if (insn.op == Op::kExit && insn.returns) return false;
    if ((insn.op == Op::kCondJump || insn.op == Op::kJump) && insn.target < at) return true;
  }
  return false;
}

std::set<std::string> CodeLayout::LiveFrom(size_t start) const {
  // bytecode_analysis.livevars_analysis: a read counts unless a store on the straight line
  // from `start` (the `must` walk, up to its first jump) came before it; after a jump or
  // through a handler the `may` walk goes on, its own stores counting for nothing.
  struct State {
    std::set<std::string> reads, writes;
    std::set<size_t> visited;
  };
  State must, may;
  std::function<void(State*, size_t)> walk = [&](State* state, size_t from) {
    if (!state->visited.insert(from).second) return;
    for (size_t i = from; i < code_.size(); ++i) {
      const LayoutInsn& insn = code_[i];
      if (insn.op == Op::kLoad && !must.writes.contains(*insn.name))
        state->reads.insert(*insn.name);
      if (insn.op == Op::kStore) state->writes.insert(*insn.name);
      if (insn.handler) walk(&may, *insn.handler);
      if (insn.op == Op::kCondJump || insn.op == Op::kJump) {
        walk(&may, insn.target);
        state = &may;
      }
      if (insn.op == Op::kJump || insn.op == Op::kExit) return;
    }
  };
  walk(&must, start);
  must.reads.insert(may.reads.begin(), may.reads.end());
  return must.reads;
}

}  // namespace tdc::dynamo
