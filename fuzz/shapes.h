// What shape a generated program has, for tdfuzz's report (issue 8: each shape we care
// about in at least 10% of programs).
#ifndef TDCONFORM_FUZZ_SHAPES_H_
#define TDCONFORM_FUZZ_SHAPES_H_

#include <string>

#include "fuzz/program.h"

namespace tdc::fuzz {

struct Shapes {
  bool break_in_inlined_callee = false;  // a graph break in a function other than the entry
  bool nonrecursive_with_breaking_callee = false;
  bool allow = false;
  bool disallow = false;
  bool is_compiling_branch = false;
  // A helper allowed (or disallowed) dies and a helper is defined after it: a new
  // function may reuse the registered id.
  bool registered_helper_dies = false;
  // K is rebound before a last call and some op reads it (issue 10: global guards).
  bool rebinds_a_read_global = false;
  // issue 11: skip_frame() or step_unsupported(); a break in a try block or a loop.
  bool skip_or_step = false;
  bool break_in_try_or_loop = false;
  // issue 12: a nonstrict_trace'd function or a custom op.
  bool nonstrict_or_custom_op = false;
  // issue 26: an if or a while statement on the tensor's data, and one in a function other
  // than the entry (a callee's branch: the root breaks at its call, or under nested graph
  // breaks the graph ends in the inlined frame).
  bool data_dependent_if = false;
  bool data_dependent_while = false;
  bool data_dependent_branch_in_callee = false;
  // issue 26: a call in a for loop or a try block whose callee has a graph_break() (or
  // calls one that has): the caller cannot resume there.
  bool break_in_callee_in_loop_or_try = false;
  // issue 26: tensor indexing (a rotation by two slices, or x[None][0]).
  bool indexing = false;
};

Shapes ShapesOf(const Program& program);

class ShapeReport {
 public:
  static constexpr size_t kShapes = 15;  // the fields of Shapes, in order
  void Add(const Program& program);
  std::string Format() const;
  int programs() const { return programs_; }
  int count(size_t shape) const { return counts_[shape]; }

 private:
  int programs_ = 0;
  int counts_[kShapes] = {};
};

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_SHAPES_H_
