// A function's code as CPython 3.11 lays it out (compile.c), reduced to what torch 2.13.0's
// livevars_analysis reads of it (bytecode_analysis.py): the loads and stores of locals in
// code order, the jumps and where they go, the instructions that end a path (return,
// raise, an unconditional jump), and each instruction's exception-table handler. Dynamo
// passes a resume function exactly the bound locals livevars_analysis finds from the
// instruction it resumes at, and a graph outputs the computed ones (spec §3.3): the reads
// on the straight line from there up to the first jump that come before a store of the
// same local, and every read reachable after a jump or through a handler that no store of
// that straight line preceded (stores after a jump do not count).
#ifndef TDCONFORM_REFERENCE_DYNAMO_CODE_LAYOUT_H_
#define TDCONFORM_REFERENCE_DYNAMO_CODE_LAYOUT_H_

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/lang/ast.h"

namespace tdc::dynamo {

struct LayoutInsn {
  enum class Op {
    kLoad,      // LOAD_FAST, LOAD_DEREF, DELETE_FAST: a read to livevars_analysis
    kStore,     // STORE_FAST, STORE_DEREF
    kCondJump,  // a conditional jump, FOR_ITER, JUMP_IF_*_OR_POP: it may go on
    kJump,      // JUMP_FORWARD / JUMP_BACKWARD: it does not
    kExit,      // RETURN_VALUE, RAISE_VARARGS, RERAISE
    kNop,       // one touching no local that a position names (POP_TOP, BEFORE_WITH, ...)
    kMark,      // no instruction: where a statement starts (with no handler)
  };
  Op op = Op::kMark;
  const std::string* name = nullptr;  // kLoad, kStore
  bool returns = false;               // kExit: RETURN_VALUE (not a raise)
  size_t target = 0;                  // kCondJump, kJump: the instruction jumped to
  std::optional<size_t> handler;      // its exception-table entry's target, if any
};

// A conditional jump on a value: one of compiler_jump_if's leaves (an if, while or assert
// statement's or a ternary's test through its `not`s, each operand of its `and` / `or`, a
// ternary's parts), or an `and` / `or` operand as a value; a while's test is compiled twice,
// before and at the end of its body.
struct JumpSite {
  size_t at = 0;         // the jump instruction
  bool if_true = false;  // POP_JUMP_IF_TRUE (jumps when the value is true), else IF_FALSE
  size_t target = 0;     // where it jumps; it falls through to `at + 1`
  // An assert statement's POP_JUMP_IF_TRUE straight before its raise (LOAD_ASSERTION_ERROR,
  // a constant message or none, RAISE_VARARGS): torch rewrites a jump on a tensor there into
  // a torch._assert_async node (_detect_and_normalize_assert_statement).
  bool asserts = false;
  // JUMP_IF_FALSE_OR_POP / JUMP_IF_TRUE_OR_POP (an `and` / `or` operand as a value): the
  // value stays on the stack when it jumps (the result), is popped when it falls through.
  bool keeps_value = false;
  // Where control goes when the tested value's truth is `truth`.
  size_t Next(bool truth) const { return truth == if_true ? target : at + 1; }
};

class CodeLayout {
 public:
  // `def`: a FunctionDef or a Lambda.
  explicit CodeLayout(const lang::Node& def);

  const std::vector<LayoutInsn>& code() const { return code_; }
  // `call`'s CALL instruction (where a frame is while the call runs), and the one after it
  // (where a break at the call resumes).
  std::optional<size_t> AtCall(const lang::Call& call) const;
  std::optional<size_t> AfterCall(const lang::Call& call) const;
  // The first instruction of statement `stmt` (a step graph break's checkpoint).
  std::optional<size_t> StatementStart(const lang::Stmt& stmt) const;
  // The jump on `leaf` (the second copy of a while's test with `loop_end`).
  const JumpSite* Jump(const lang::Expr& leaf, bool loop_end) const;
  // torch's livevars_analysis from instruction `start`: the locals read before written.
  std::set<std::string> LiveFrom(size_t start) const;
  // torch's maybe_has_backedge for the instruction `at`: a jump after it, before the first
  // return, goes back before it (a graph break there skips the frame: "graph break in loop").
  bool BackedgeAfter(size_t at) const;

  // Filled by the emitter (code_layout.cc).
  struct Positions {
    std::map<const lang::Node*, size_t> at_call, after_call, statement;
    std::map<std::pair<const lang::Expr*, bool>, JumpSite> jumps;
  };
  const Positions& positions() const { return positions_; }

 private:
  std::vector<LayoutInsn> code_;
  Positions positions_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_CODE_LAYOUT_H_
