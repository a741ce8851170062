// Where in a frame a graph break can resume, read off the function's statements the way
// torch 2.13.0 reads its bytecode (symbolic_convert.py, spec §3.3): a break inside a try
// statement cannot resume (should_compile_partial_graph); a break with a backward jump
// ahead of it to a point before it (the end of a loop around it), before the first return,
// skips the frame (maybe_has_backedge: a loop after the break jumps back to its own start,
// after the break, and is no backedge; a `continue` in a while loop jumps back before the
// loop's first test, so that test's jump has a backedge ahead; probed on torch 2.13.0); a
// checkpoint, which step graph breaks compile up to, is the start of a statement with an
// empty Python stack outside any try block (not inside a for loop, whose iterator is on
// the stack, nor a with block, whose __exit__ is).
#ifndef TDCONFORM_REFERENCE_DYNAMO_RESUMABILITY_H_
#define TDCONFORM_REFERENCE_DYNAMO_RESUMABILITY_H_

#include <set>
#include <vector>

#include "reference/lang/ast.h"

namespace tdc::dynamo {

class Resumability {
 public:
  // `def`: a FunctionDef or a Lambda (no statements: every break resumes).
  explicit Resumability(const lang::Node& def);

  bool InTry(const lang::Stmt* stmt) const { return in_try_.contains(stmt); }
  bool InWith(const lang::Stmt* stmt) const { return in_with_.contains(stmt); }
  bool IsCheckpoint(const lang::Stmt* stmt) const {
    return stmt != nullptr && !no_checkpoint_.contains(stmt);
  }
  // Whether a backward jump to a point before `stmt` follows it in code order before any
  // return: the end of a loop around it.
  bool BackedgeAfter(const lang::Stmt* stmt) const;
  // Whether a return at `stmt` leaves through block-exit code (a with block's __exit__, a
  // for loop's iterator pop) rather than straight after its value's call: a break at that
  // call then still needs a resume function (golden error_on_graph_break/s39_nested_deep).
  bool ReturnLeavesBlocks(const lang::Stmt* stmt) const { return !IsCheckpoint(stmt); }

 private:
  // Statements and backward jumps in code order; `loop`: where the innermost loop around
  // `body` is in order_ (none: SIZE_MAX).
  void Walk(const lang::StmtList& body, bool in_try, bool no_checkpoint, size_t loop,
            bool in_with = false);

  struct Entry {
    const lang::Stmt* stmt;  // null for a backward jump: a loop's end, or a `continue`
    size_t loop = 0;         // a backward jump: where its loop statement is in order_
    // A `continue` jumps to its loop's start, before a while loop's first test (CPython
    // 3.11), where a loop's end jumps back after it to the body.
    bool to_loop_start = false;
  };
  std::vector<Entry> order_;
  std::set<const lang::Stmt*> in_try_, in_with_, no_checkpoint_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_RESUMABILITY_H_
