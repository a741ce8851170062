#include "reference/runtime/types.h"

namespace tdc::runtime {

std::string PyType::QualifiedName() const {
  return module == "builtins" ? name : module + "." + name;
}

bool PyType::IsSubclassOf(const PyType* other) const {
  for (const PyType* t = this; t != nullptr; t = t->base.get()) {
    if (t == other) return true;
  }
  return false;
}

void PyType::TakeReferences(std::vector<Value>& out) {
  out.push_back(std::move(dict));
  out.push_back(std::move(base));
}

void PyInstance::TakeReferences(std::vector<Value>& out) {
  out.push_back(std::move(attrs));  // subtype_dealloc: __dict__, then the type
  out.push_back(std::move(type));
}

void PyMethod::TakeReferences(std::vector<Value>& out) {
  out.push_back(std::move(function));
  out.push_back(std::move(self));
}

}  // namespace tdc::runtime
