// The class of every runtime value (what `type(v)` returns): builtin types, exception
// classes (one per exceptions.def row, with their bases), torch.Tensor and torch.dtype.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_BUILTIN_TYPES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_BUILTIN_TYPES_H_

#include <map>
#include <vector>

#include "reference/runtime/heap.h"

namespace tdc::runtime {

class BuiltinTypes {
 public:
  explicit BuiltinTypes(Heap& heap);

  // type(v).
  const Ref<PyType>& Of(const Value& v) const;
  const Ref<PyType>& ForKind(ObjectKind kind) const { return by_kind_.at(kind); }
  const Ref<PyType>& ForException(ExcType type) const {
    return exceptions_.at(static_cast<size_t>(type));
  }
  const Ref<PyType>& object() const { return object_; }
  // Every exception class, in exceptions.def order.
  const std::vector<Ref<PyType>>& exceptions() const { return exceptions_; }

 private:
  Ref<PyType> object_;
  Ref<PyType> torch_size_;  // torch.Size, tuple's subclass
  std::map<ObjectKind, Ref<PyType>> by_kind_;
  std::vector<Ref<PyType>> exceptions_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_BUILTIN_TYPES_H_
