// The runtime's remaining value kinds: classes (PyType), instances of library classes
// (PyInstance), bound methods (PyMethod) and torch dtypes (PyDType). Builtin types,
// exception classes, torch.Tensor and the classes of library objects (context managers,
// the recording backend) are all PyTypes, so `type(x)`, `isinstance` and `except`
// clauses work on one representation.
#ifndef TDCONFORM_REFERENCE_RUNTIME_TYPES_H_
#define TDCONFORM_REFERENCE_RUNTIME_TYPES_H_

#include <optional>
#include <string>
#include <vector>

#include "reference/runtime/values.h"

namespace tdc::runtime {

// A class. Shared: classes live as long as the process.
class PyType final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kType;

  std::string name;                         // __name__ ("int", "Tensor", "Unsupported")
  std::string module;                       // __module__ ("builtins", "torch", "torch._dynamo.exc")
  std::optional<ExcType> exception;         // set for exception classes
  std::optional<ObjectKind> instance_kind;  // the runtime kind of builtin instances
  Ref<PyType> base;                         // the direct base (bool's is int); null for object
  Ref<PyDict> dict;                         // class attributes; functions in it are methods
  bool user_defined = false;                // made by a class statement of the program
  // Dynamo traced an instance of it (or of a subclass): a store into its dict afterwards is
  // refused, as the cached code's guards do not cover the class.
  bool traced = false;
  // Calling the class; null: refused (CPython makes objects of most types).
  BuiltinCode construct;
  // Its instances print as object.__repr__ does (`<module.Type object at 0x...>`): object and
  // the library classes that keep that repr. Others without a fixed repr are refused when the
  // program prints one (ProgramRepr).
  bool object_repr = false;

  // __module__ + "." + __qualname__ with "builtins." dropped.
  std::string QualifiedName() const;
  bool IsSubclassOf(const PyType* other) const;

 private:
  friend class Heap;
  PyType() : Object(kKind) {}
  void TakeReferences(std::vector<Value>& out) override;
  void DropNativeState() override { construct = nullptr; }
};

// An instance of a library class: its class and its attributes (modeled library state
// that the program can read, e.g. the backend's frame_count).
class PyInstance final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kInstance;
  Ref<PyType> type;
  Ref<PyDict> attrs;
  // A library object whose __repr__ torch fixes at creation (torch._ops' packets and
  // overloads); empty: object.__repr__'s `<module.Type object>`.
  std::string repr;
  // A library object whose __repr__ depends on state the reference does not keep as text
  // (torch._dynamo.utils.counters and its Counters, an opaque DynamoStance): repr() and
  // str() of it are refused (DESIGN D13).
  bool repr_not_modeled = false;

 private:
  friend class Heap;
  PyInstance() : Object(kKind) {}
  void TakeReferences(std::vector<Value>& out) override;
};

// A bound method (`x.add` read without calling it). method_dealloc drops the function,
// then self.
class PyMethod final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kMethod;
  Value function;
  Value self;

 private:
  friend class Heap;
  PyMethod() : Object(kKind) {}
  void TakeReferences(std::vector<Value>& out) override;
};

// torch.float32 and friends: shared, one per dtype.
class PyDType final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kDType;
  DType dtype() const { return dtype_; }

 private:
  friend class Heap;
  explicit PyDType(DType dtype) : Object(kKind), dtype_(dtype) {}
  void TakeReferences(std::vector<Value>&) override {}
  DType dtype_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_TYPES_H_
