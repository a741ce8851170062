// The object heap of one modeled Python process (DESIGN D4): makes every object, gives
// it an id, and carries out its death, so that `id(new) == old_id` comes out as CPython
// 3.11 computes it for the program shapes fixtures use. Implements SEMANTICS.md §6.2
// rules I1-I11; each rule is named where it is implemented (heap.cc).
#ifndef TDCONFORM_REFERENCE_RUNTIME_HEAP_H_
#define TDCONFORM_REFERENCE_RUNTIME_HEAP_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "reference/runtime/dict_index.h"
#include "reference/runtime/types.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

// A registered finalizer, as `weakref.finalize(obj, cb)` returns one.
struct FinalizerHandle {
  uint64_t serial = 0;
};

// One allocation decision taken against the model (DESIGN D1, `allocator_divergence`):
// CPython's allocator may reuse a slot the model keeps fresh or the other way round. A
// rerun with one decision flipped tells whether that alone explains a difference.
struct ReuseFlip {
  enum class Kind { kNone, kRefuse, kAdopt } kind = Kind::kNone;
  // kRefuse: the n-th allocation that would take a freed id of its class takes a fresh
  // one. kAdopt: the n-th allocation that would take a fresh id takes the id freed last
  // (of any class) instead.
  int64_t at = 0;
};

class Heap {
 public:
  Heap();
  // Frees every object, cycles included, without running finalizers (the modeled
  // program has ended). Every Ref must already be gone (object.h).
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // --- shared objects (I2): never die, ids never change ---
  const Value& None() const { return none_; }
  const Value& True() const { return true_; }
  const Value& False() const { return false_; }
  const Value& Bool(bool b) const { return b ? true_ : false_; }
  // A str constant or interned string: one shared object per text. `hash` must be
  // HashText(text) (a caller that has it already saves hashing again).
  Value Intern(std::string_view text) { return Intern(text, HashText(text)); }
  Value Intern(std::string_view text, size_t hash);
  // A literal int/float of a code object: shared (small ints are the cached ones). The
  // interpreter makes one per literal and reuses it, as a code object's co_consts.
  Value ConstantInt(int64_t value);
  Value ConstantFloat(double value);
  // A tuple constant (`(1, 2)` written literally): shared; its items must be shared.
  Ref<PyTuple> ConstantTuple(std::vector<Value> items);

  // --- heap objects: ids from the free stack of their class (I4, I5) ---
  // An int made at run time: a small int (-5..256) is the shared one, any other is new.
  Value Int(int64_t value);
  Value Float(double value);
  // A str made at run time. "" and one-character strings of code points < 256 are
  // CPython's shared singletons; anything else is a new heap str.
  Value Str(std::string text);
  // A tuple of length N >= 1 has class tuple/N; the empty tuple is the shared `()`.
  // A torch.Size when `torch_size` (never the shared empty tuple).
  Ref<PyTuple> NewTuple(std::vector<Value> items, bool torch_size = false);
  Ref<PyList> NewList(std::vector<Value> items = {});
  Ref<PyDict> NewDict();
  Ref<PyCell> NewCell(Value contents = nullptr);
  // A function object (every kind of function shares one class, I4). __module__ is
  // taken from globals['__name__'] as CPython's PyFunction_New does; the caller then
  // sets defaults, closure and attributes.
  Ref<PyFunction> NewFunction(std::variant<UserCode, NativeCode> code, Value name, Value qualname,
                              Value globals);
  // A tensor object; `base` is the object of the tensor it views (I8), or null.
  Ref<PyTensor> NewTensor(Tensor tensor, Ref<PyTensor> base = nullptr);
  Ref<PyException> NewException(ExcType type, Ref<PyTuple> args);
  // type(message): args is a one-element tuple holding a new str.
  Ref<PyException> NewException(ExcType type, std::string_view message);
  // Shared, never die: builtins and modules exist for the whole process.
  Ref<PyBuiltin> NewBuiltin(std::string name, BuiltinCode code);
  Ref<PyModule> NewModule(std::string name);
  // A class (shared) with an empty class dict; an instance of one (a heap object).
  Ref<PyType> NewType(std::string name, std::string module);
  Ref<PyInstance> NewInstance(Ref<PyType> type);
  // A bound method: a new heap object each time an attribute read makes one.
  Ref<PyMethod> NewMethod(Value function, Value self);
  // torch.<dtype>: one shared object per dtype.
  Value DTypeObject(DType dtype);

  // --- finalizers (weakref.finalize; I6 step 1, I10) ---
  // Registers `callback` to run when `object` dies, before its references are dropped
  // and while its id is still taken. Several callbacks on one object run newest first
  // (CPython inserts each new callback weakref at the front; measured on 3.11.7). A
  // callback's captures are dropped right after it runs, as finalize drops its info.
  // Objects that cannot be weakly referenced raise TypeError as Python does.
  FinalizerHandle AddFinalizer(const Value& object, std::function<void()> callback);
  // finalize.detach(): unregisters without running and drops the callback's captures
  // now; false when it already ran or was detached.
  bool DetachFinalizer(FinalizerHandle handle);
  // finalize.alive.
  bool FinalizerAlive(FinalizerHandle handle) const;

  // Takes one allocation decision against the model from now on (ReuseFlip).
  void set_reuse_flip(ReuseFlip flip) { flip_ = flip; }

  // While one is alive, objects are made as the library makes them at startup, before the
  // program has freed anything: each takes a fresh id, and one that dies before the scope
  // ends frees none. The free stacks the program's objects use stay as they were (I5, I7),
  // so a module filled on first use (PyModule::FillOnFirstUse) changes no id the program
  // can compare.
  class StartupScope {
   public:
    explicit StartupScope(Heap& heap) : heap_(heap), saved_first_(heap.startup_first_id_) {
      if (saved_first_ == 0) heap.startup_first_id_ = heap.next_fresh_id_;
    }
    ~StartupScope() { heap_.startup_first_id_ = saved_first_; }
    StartupScope(const StartupScope&) = delete;
    StartupScope& operator=(const StartupScope&) = delete;

   private:
    Heap& heap_;
    ObjectId saved_first_;
  };

  // --- introspection (tests, leak checks) ---
  // Objects not yet freed, shared ones included.
  size_t live_objects() const { return live_count_; }
  // The free stack of a class, bottom to top (tuples: `tuple_length` > 0).
  std::vector<ObjectId> FreeIds(ObjectKind kind, size_t tuple_length = 0) const;

 private:
  friend class Object;
  using ClassKey = std::pair<ObjectKind, size_t>;

  // Links a new object in, gives it an id (I5) and its first reference.
  template <typename T>
  Ref<T> Adopt(T* object, bool shared, size_t class_length = 0);
  ObjectId AllocateId(ClassKey key);
  // Carries out a death (I6); called when a mortal object's count reaches zero.
  void Release(Object* object);
  void RunFinalizers(Object* object);
  void Free(Object* object);
  void Unlink(Object* object);

  ObjectId next_fresh_id_ = 1;  // I11: any nonzero start; only equality is observable
  // The first id a StartupScope made (0: none is alive); inner scopes keep the outermost's.
  ObjectId startup_first_id_ = 0;
  ReuseFlip flip_;
  int64_t reuses_ = 0;  // allocations that took a freed id (or would have)
  int64_t fresh_ = 0;   // allocations that took a fresh id (or would have)
  std::pair<ClassKey, ObjectId> last_freed_{};
  std::map<ClassKey, std::vector<ObjectId>> free_ids_;
  uint64_t next_finalizer_serial_ = 1;
  std::unordered_map<uint64_t, Object*> finalizer_owner_;
  Object* first_ = nullptr;  // every object not yet freed (doubly linked)
  size_t live_count_ = 0;
  bool tearing_down_ = false;

  Value none_, true_, false_, empty_tuple_;
  std::vector<Value> small_ints_;  // -5 .. 256, made on first use
  std::vector<Value> interned_;    // every interned str, found by the hash of its text
  DictIndex interned_index_;
  std::map<DType, Value> dtypes_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_HEAP_H_
