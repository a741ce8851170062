// The operands a frame's expression has evaluated and not yet consumed, as CPython 3.11's
// value stack holds them (Frame::stack): what a graph break's resume function takes as
// ___stack<i> and a graph outputs. Scopes push them while the rest of the expression is
// evaluated; where CPython holds them in a form the model does not follow, the scope marks
// the stack opaque and a break there is refused (DESIGN D13).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PENDING_VALUES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PENDING_VALUES_H_

#include <initializer_list>

#include "reference/runtime/interp/interpreter.h"

namespace tdc::runtime {

// CPython 3.11's STACK_USE_GUIDELINE: a display or call with more items builds its list or
// dict as it goes instead of pushing every item first.
inline constexpr size_t kStackUseGuideline = 30;

// Keeps values on the frame's stack of pending operands for the scope.
class PendingValues {
 public:
  explicit PendingValues(Frame& f) : f_(f), depth_(f.stack.size()) {}
  PendingValues(Frame& f, const Value& v) : PendingValues(f) { f.stack.push_back(v); }
  PendingValues(Frame& f, std::initializer_list<Value> values) : PendingValues(f) {
    for (const Value& v : values) f.stack.push_back(v);
  }
  ~PendingValues() { f_.stack.resize(depth_); }
  PendingValues(const PendingValues&) = delete;
  PendingValues& operator=(const PendingValues&) = delete;
  void Push(const Value& v) { f_.stack.push_back(v); }
  // What this scope pushed becomes one value (BUILD_LIST of the items so far).
  void Collapse(const Value& v) {
    f_.stack.resize(depth_);
    f_.stack.push_back(v);
  }

 private:
  Frame& f_;
  size_t depth_;
};

// Marks the frame's stack opaque for the scope when `opaque` (a dict or argument list built
// as it goes, items unpacked): a graph break then is refused.
class OpaqueStack {
 public:
  OpaqueStack(Frame& f, bool opaque) : f_(f), opaque_(opaque) { f_.opaque_stack += opaque_; }
  ~OpaqueStack() { f_.opaque_stack -= opaque_; }
  OpaqueStack(const OpaqueStack&) = delete;
  OpaqueStack& operator=(const OpaqueStack&) = delete;

 private:
  Frame& f_;
  int opaque_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PENDING_VALUES_H_
