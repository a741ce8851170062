// Python's operations on runtime values, as CPython 3.11 and torch define them: operators
// (tensor operands go to the op table), comparisons, truth, items, types, raising and
// catching, imports.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_OPS_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_OPS_H_

#include <string>
#include <string_view>

#include "reference/lang/ast.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

class Interpreter;
enum class TensorDataRead;

// bool(v); torch's errors become Python exceptions.
bool Truth(Interpreter& in, const Value& v);
// The same for the value of `test`, which a conditional jump of the code tests (the frame hook
// sees a tensor's read as that jump).
bool BranchTruth(Interpreter& in, const Value& v, const lang::Expr& test);
// `not v` for the `not` expression `not_expr` (the frame hook sees a tensor's read there).
Value NotOperation(Interpreter& in, const Value& v, const lang::Expr& not_expr);
Value BinaryOperation(Interpreter& in, lang::BinaryOp op, const Value& a, const Value& b);
// `a op= b`: lists extend in place (the same object); everything else as BinaryOperation.
Value InPlaceBinary(Interpreter& in, lang::BinaryOp op, const Value& a, const Value& b);
Value UnaryOperation(Interpreter& in, lang::UnaryOpKind op, const Value& v);
Value CompareOperation(Interpreter& in, lang::CompareOp op, const Value& a, const Value& b);
// a == b for a container's item as CPython's PyObject_RichCompareBool has it (`in`,
// list.index, list.count): identity, else == and its truth (a tensor's compares elements, and
// one of more than one element raises). Refused where the reference does not follow it: a
// tensor in traced code, a container holding one.
bool ItemEquals(Interpreter& in, const Value& a, const Value& b);

Value GetItem(Interpreter& in, const Value& container, const Value& key);
// container[lower:upper:step] of a list, tuple or str (None for an absent bound), with
// CPython's clamping of bounds; tensors raise NotImplementedError (SEMANTICS §7.2).
Value GetSlice(Interpreter& in, const Value& container, const Value& lower, const Value& upper,
               const Value& step);
void SetItem(Interpreter& in, const Value& container, const Value& key, Value value);
void DelItem(Interpreter& in, const Value& container, const Value& key);
void DelAttr(Interpreter& in, const Value& object, std::string_view name);

// type(v): the shared type object.
Value TypeOf(Interpreter& in, const Value& v);
// isinstance(v, cls) for one type object.
bool IsInstance(Interpreter& in, const Value& v, const Value& type);
// Whether an `except` clause naming `handler` (a type or a tuple of types) catches it.
bool ExceptionMatches(Interpreter& in, const Value& exception, const Value& handler);
// What `raise X` raises: X itself when an exception instance, X() when an exception
// class, else TypeError("exceptions must derive from BaseException").
Value MakeRaisable(Interpreter& in, const Value& raised);

// `import a.b.c`: the module; ModuleNotFoundError for modules the runtime lacks.
Value ImportModule(Interpreter& in, const std::string& dotted_name);
// `from m import name`: an attribute, or the submodule m.name; ImportError otherwise.
Value ImportFrom(Interpreter& in, const Value& module, const std::string& name);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_OPS_H_
