// Augmented assignment (`target op= value`) as CPython 3.11 runs it: the target's parts
// evaluated once and waiting on the stack, its value read, the value on the right evaluated,
// the in-place operator applied (a list's `+=` extends that very list) and the result
// stored back.
#include "reference/lang/ast.h"
#include "reference/runtime/interp/classes.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/pending_values.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

void Interpreter::ExecAugAssign(Frame& f, const lang::AugAssign& a) {
  if (a.target->kind == lang::NodeKind::kAttribute) return AugAssignAttribute(f, a);
  if (a.target->kind == lang::NodeKind::kSubscript) return AugAssignItem(f, a);
  const std::string& name = lang::As<lang::Name>(*a.target).id;
  Assign(f, *a.target, AugmentedValue(f, a, LoadName(f, name)));
}

Value Interpreter::AugmentedValue(Frame& f, const lang::AugAssign& a, Value current) {
  Value rhs;
  {
    PendingValues left(f, current);  // BINARY_OP's left operand
    rhs = Eval(f, *a.value);
  }
  Value updated = InPlaceBinary(*this, a.op, current, rhs);
  current.Reset();  // released before the store, in CPython's order
  rhs.Reset();
  return updated;
}

void Interpreter::AugAssignAttribute(Frame& f, const lang::AugAssign& a) {
  const auto& target = lang::As<lang::Attribute>(*a.target);
  Value object = Eval(f, *target.value);
  if (!IsUserInstance(object)) {
    RefuseNotModeled(
        "augmented assignment to an attribute of other than a class statement's instance is "
        "outside the reference");
  }
  PendingValues pending(f, object);  // the object waits while the attribute is updated
  SetAttr(object, target.attr, AugmentedValue(f, a, GetAttr(object, target.attr)));
}

// `c[k] op= v`: c and k evaluated once, c[k] read (BINARY_SUBSCR), v evaluated with the three
// waiting on the stack.
void Interpreter::AugAssignItem(Frame& f, const lang::AugAssign& a) {
  const auto& target = lang::As<lang::Subscript>(*a.target);
  if (target.slice->kind == lang::NodeKind::kSlice) {
    RefuseNotModeled("augmented assignment to a slice is outside the reference");
  }
  Value container = Eval(f, *target.value);
  PendingValues pending(f, container);
  Value key = Eval(f, *target.slice);
  pending.Push(key);
  SetItem(*this, container, key, AugmentedValue(f, a, GetItem(*this, container, key)));
}

}  // namespace tdc::runtime
