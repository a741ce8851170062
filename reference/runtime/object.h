// Python objects and the references between them (SEMANTICS.md §6, DESIGN D4). Every
// Python value is an Object, as in CPython; a Ref<T> is one strong reference, so that an
// object dies exactly when CPython's reference count would reach zero (rule I3). Deaths
// are carried out by the Heap that made the object (heap.h), which owns ids (I1, I4, I5)
// and the order of a death (I6).
//
// Lifetime contract: every Ref must be dropped before its Heap is destroyed (the Process
// declares its Heap first, so it is destroyed last). The Heap checks this in debug builds.
#ifndef TDCONFORM_REFERENCE_RUNTIME_OBJECT_H_
#define TDCONFORM_REFERENCE_RUNTIME_OBJECT_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace tdc::runtime {

class Heap;

// The runtime types. One allocation class per kind, except tuples (one per length, I4).
enum class ObjectKind {
  kNone,
  kBool,
  kInt,
  kFloat,
  kStr,
  kTuple,
  kList,
  kDict,
  kCell,
  kFunction,
  kBuiltin,
  kModule,
  kTensor,
  kException,
  kType,
  kInstance,
  kMethod,
  kDType,
};

// A name for messages and tests ("function", "tensor", ...); Python's type names are
// TypeName() in values.h.
std::string_view ObjectKindName(ObjectKind kind);

// What id() returns. Only equality of ids is observable (I1): they are never printed.
using ObjectId = uint64_t;

class Object;
template <typename T>
class Ref;
using Value = Ref<Object>;

// A weakref.finalize-style callback registered on an object; runs at its death (I6).
struct Finalizer {
  uint64_t serial = 0;
  std::function<void()> callback;
};

class Object {
 public:
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  ObjectKind kind() const { return kind_; }
  ObjectId id() const { return id_; }
  // Shared objects (I2) never die: small ints, None, True, False, constants.
  bool immortal() const { return immortal_; }
  int64_t refcount() const { return refcount_; }
  Heap& heap() const { return *heap_; }

 protected:
  explicit Object(ObjectKind kind) : kind_(kind) {}

  // Moves every reference this object holds into `out`, in the order CPython 3.11's
  // tp_dealloc drops them (§6.1 step 2). The object is inert afterwards.
  virtual void TakeReferences(std::vector<Value>& out) = 0;
  // Drops state that is not a Ref but may own Refs (a native body's captures). Called
  // only when the Heap is torn down; in a normal death the destructor does it, after
  // the references above and before the id is freed.
  virtual void DropNativeState() {}

 private:
  friend class Heap;
  template <typename T>
  friend class Ref;

  void IncRef() { ++refcount_; }
  void DecRef();

  const ObjectKind kind_;
  ObjectId id_ = 0;
  int64_t refcount_ = 0;
  bool immortal_ = false;
  Heap* heap_ = nullptr;
  // The class key the id returns to (tuples: their length); fixed at allocation.
  size_t class_length_ = 0;
  std::vector<Finalizer> finalizers_;
  // The heap's list of every object it owns (teardown frees them all).
  Object* prev_ = nullptr;
  Object* next_ = nullptr;
};

// One strong reference (CPython's owned PyObject*). Copy = incref, destroy = decref.
// Assignment stores the new object before the old one loses its reference, so a
// rebinding's new value can never take the old value's id (I3).
template <typename T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT(google-explicit-constructor): Python's NULL
  // Adopts a new reference to `object` (increments its count).
  explicit Ref(T* object) : ptr_(object) {
    if (ptr_ != nullptr) ptr_->IncRef();
  }
  Ref(const Ref& other) : Ref(other.ptr_) {}
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U>
  Ref(const Ref<U>& other) : Ref(static_cast<T*>(other.get())) {}  // NOLINT: upcast
  template <typename U>
  Ref(Ref<U>&& other) noexcept  // NOLINT: upcast
      : ptr_(static_cast<T*>(other.Release())) {}
  ~Ref() { Reset(); }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;  // `other` now holds the old object and drops it here, after the store
  }

  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool operator==(const Ref& other) const { return ptr_ == other.ptr_; }

  // Drops the reference now (Py_CLEAR).
  void Reset() {
    if (T* p = std::exchange(ptr_, nullptr)) p->DecRef();
  }
  // Gives up ownership without decrementing (for moves between Ref types).
  T* Release() { return std::exchange(ptr_, nullptr); }

 private:
  T* ptr_ = nullptr;
};

// The object as its concrete class when its kind matches (T::kKind), else null.
template <typename T>
T* DynCast(const Value& value) {
  return value && value->kind() == T::kKind ? static_cast<T*>(value.get()) : nullptr;
}
template <typename T>
Ref<T> RefCast(const Value& value) {
  return Ref<T>(DynCast<T>(value));
}
template <typename T>
bool Is(const Value& value) {
  return DynCast<T>(value) != nullptr;
}

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_OBJECT_H_
