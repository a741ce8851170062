#include "reference/runtime/object.h"

#include "reference/runtime/heap.h"

namespace tdc::runtime {

std::string_view ObjectKindName(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kNone:
      return "none";
    case ObjectKind::kBool:
      return "bool";
    case ObjectKind::kInt:
      return "int";
    case ObjectKind::kFloat:
      return "float";
    case ObjectKind::kStr:
      return "str";
    case ObjectKind::kTuple:
      return "tuple";
    case ObjectKind::kList:
      return "list";
    case ObjectKind::kDict:
      return "dict";
    case ObjectKind::kCell:
      return "cell";
    case ObjectKind::kFunction:
      return "function";
    case ObjectKind::kBuiltin:
      return "builtin";
    case ObjectKind::kModule:
      return "module";
    case ObjectKind::kTensor:
      return "tensor";
    case ObjectKind::kException:
      return "exception";
    case ObjectKind::kType:
      return "type";
    case ObjectKind::kInstance:
      return "instance";
    case ObjectKind::kMethod:
      return "method";
    case ObjectKind::kDType:
      return "dtype";
  }
  return "?";
}

// Shared objects keep counting (so the Heap can tell at teardown whether a Ref outlived
// it) but never die (I2).
void Object::DecRef() {
  if (--refcount_ == 0 && !immortal_) heap_->Release(this);
}

}  // namespace tdc::runtime
