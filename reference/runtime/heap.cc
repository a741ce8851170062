#include "reference/runtime/heap.h"

#include <algorithm>
#include <cassert>

#include "reference/base/py_repr.h"

namespace tdc::runtime {
namespace {

constexpr int64_t kSmallIntMin = -5;  // CPython's cached ints: -5 .. 256
constexpr int64_t kSmallIntMax = 256;

bool IsSmallInt(int64_t value) { return value >= kSmallIntMin && value <= kSmallIntMax; }

// CPython keeps "" and every one-character str of a code point below 256 as singletons,
// so concatenations that produce one never allocate.
bool IsSingletonStr(std::string_view text) {
  if (text.empty()) return true;
  size_t i = 0;
  char32_t c = DecodeUtf8(text, i);
  return i == text.size() && c < 256;
}

// The kinds `weakref.ref` accepts (and so `weakref.finalize`); ints, strs and
// containers raise TypeError in CPython.
bool IsWeaklyReferenceable(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kTensor:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
      return true;
    case ObjectKind::kNone:
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
    case ObjectKind::kStr:
    case ObjectKind::kTuple:
    case ObjectKind::kList:
    case ObjectKind::kDict:
    case ObjectKind::kCell:
    case ObjectKind::kException:
    case ObjectKind::kDType:
      return false;
  }
  return false;
}

}  // namespace

Heap::Heap() : small_ints_(kSmallIntMax - kSmallIntMin + 1) {
  none_ = Adopt(new PyNone(), /*shared=*/true);
  false_ = Adopt(new PyBool(false), true);
  true_ = Adopt(new PyBool(true), true);
  empty_tuple_ = Adopt(new PyTuple({}, false), true);
}

// Teardown frees everything, cycles included (the model never collects them, I3), in
// three passes so that no pass touches freed memory: drop the heap's own references;
// empty every object (references, finalizers, native captures; deaths are not carried
// out while tearing down); then delete them all.
Heap::~Heap() {
  tearing_down_ = true;
  none_.Reset();
  true_.Reset();
  false_.Reset();
  empty_tuple_.Reset();
  small_ints_.clear();
  interned_.clear();
  interned_index_.Clear();
  dtypes_.clear();
  std::vector<Value> refs;
  for (Object* o = first_; o != nullptr; o = o->next_) {
    o->finalizers_.clear();
    o->TakeReferences(refs);
    o->DropNativeState();
    refs.clear();
  }
  finalizer_owner_.clear();
  while (first_ != nullptr) {
    Object* o = first_;
    assert(o->refcount_ == 0 && "a Ref outlived its Heap (object.h lifetime contract)");
    Unlink(o);
    delete o;
  }
}

template <typename T>
Ref<T> Heap::Adopt(T* object, bool shared, size_t class_length) {
  object->heap_ = this;
  object->immortal_ = shared;
  object->class_length_ = class_length;
  // I2: shared objects exist before the program runs in CPython (constants are made at
  // compile time, singletons at startup), so they never take a freed id.
  object->id_ = shared || startup_first_id_ != 0 ? next_fresh_id_++
                                                 : AllocateId({object->kind(), class_length});
  object->next_ = first_;
  if (first_ != nullptr) first_->prev_ = object;
  first_ = object;
  ++live_count_;
  return Ref<T>(object);
}

// I4, I5: pop the most recently freed id of the class, or take a fresh one.
ObjectId Heap::AllocateId(ClassKey key) {
  auto it = free_ids_.find(key);
  if (it == free_ids_.end() || it->second.empty()) {
    if (flip_.kind == ReuseFlip::Kind::kAdopt && fresh_++ == flip_.at) {
      auto& [last_key, last_id] = last_freed_;
      std::vector<ObjectId>& stack = free_ids_[last_key];
      auto found = std::find(stack.begin(), stack.end(), last_id);
      if (last_id != 0 && found != stack.end()) {
        stack.erase(found);
        return last_id;
      }
    }
    return next_fresh_id_++;
  }
  if (flip_.kind == ReuseFlip::Kind::kRefuse && reuses_++ == flip_.at) return next_fresh_id_++;
  ObjectId id = it->second.back();
  it->second.pop_back();
  return id;
}

std::vector<ObjectId> Heap::FreeIds(ObjectKind kind, size_t tuple_length) const {
  auto it = free_ids_.find({kind, tuple_length});
  return it == free_ids_.end() ? std::vector<ObjectId>{} : it->second;
}

// I6: finalizers, then the references in CPython's order, each resulting death completed
// before the next reference is dropped, then the object's own id, last. The deaths an
// object's references cause are walked with an explicit stack (not C++ recursion), so a
// long chain (a list of lists of ...) cannot overflow the stack; only a finalizer or a
// native body's captures dying re-enter Release.
void Heap::Release(Object* object) {
  if (tearing_down_) return;
  struct Dying {
    Object* object;
    std::vector<Value> references;
    size_t next = 0;
  };
  std::vector<Dying> stack;
  auto begin_death = [&](Object* o) {
    RunFinalizers(o);
    Dying dying{o, {}};
    o->TakeReferences(dying.references);
    stack.push_back(std::move(dying));
  };
  begin_death(object);
  while (!stack.empty()) {
    Dying& top = stack.back();
    if (top.next == top.references.size()) {
      Object* done = top.object;
      stack.pop_back();
      Free(done);
      continue;
    }
    // Drop one reference (Py_DECREF) without recursing through Object::DecRef.
    Object* child = top.references[top.next++].Release();
    if (child == nullptr || --child->refcount_ > 0 || child->immortal_) continue;
    begin_death(child);  // invalidates `top`
  }
}

// I6 step 1 / I10: callbacks run newest first while the id is still taken; each
// callback's captures die right after it returns (finalize drops its info then). An
// exception a callback raises is ignored, as CPython prints "Exception ignored in" and
// carries on.
void Heap::RunFinalizers(Object* object) {
  while (!object->finalizers_.empty()) {
    Finalizer finalizer = std::move(object->finalizers_.back());
    object->finalizers_.pop_back();
    finalizer_owner_.erase(finalizer.serial);
    try {
      finalizer.callback();
    } catch (const PyError&) {
    }
  }
}

void Heap::Free(Object* object) {
  const ClassKey key{object->kind(), object->class_length_};
  const ObjectId id = object->id_;
  Unlink(object);
  delete object;  // a native body's captures die here: the code is dropped last
  if (startup_first_id_ != 0 && id >= startup_first_id_) return;  // made in a StartupScope
  free_ids_[key].push_back(id);
  last_freed_ = {key, id};
}

void Heap::Unlink(Object* object) {
  if (object->prev_ != nullptr) object->prev_->next_ = object->next_;
  if (object->next_ != nullptr) object->next_->prev_ = object->prev_;
  if (first_ == object) first_ = object->next_;
  object->prev_ = object->next_ = nullptr;
  --live_count_;
}

Value Heap::Intern(std::string_view text, size_t hash) {
  size_t found = interned_index_.Find(
      hash, [&](size_t i) { return DynCast<PyStr>(interned_[i])->value() == text; });
  if (found != DictIndex::kNotFound) return interned_[found];
  Value str = interned_.emplace_back(Adopt(new PyStr(std::string(text)), /*shared=*/true));
  interned_index_.Insert(hash, interned_.size() - 1);
  return str;
}

Value Heap::Int(int64_t value) {
  if (IsSmallInt(value)) return ConstantInt(value);
  return Adopt(new PyInt(value), /*shared=*/false);
}

Value Heap::ConstantInt(int64_t value) {
  if (!IsSmallInt(value)) return Adopt(new PyInt(value), /*shared=*/true);
  Value& cached = small_ints_[static_cast<size_t>(value - kSmallIntMin)];
  if (!cached) cached = Adopt(new PyInt(value), true);
  return cached;
}

Value Heap::Float(double value) { return Adopt(new PyFloat(value), /*shared=*/false); }
Value Heap::ConstantFloat(double value) { return Adopt(new PyFloat(value), true); }

Value Heap::Str(std::string text) {
  if (IsSingletonStr(text)) return Intern(text);
  return Adopt(new PyStr(std::move(text)), /*shared=*/false);
}

Ref<PyTuple> Heap::NewTuple(std::vector<Value> items, bool torch_size) {
  if (items.empty() && !torch_size) return RefCast<PyTuple>(empty_tuple_);
  const size_t length = items.size();
  return Adopt(new PyTuple(std::move(items), torch_size), /*shared=*/false, length);
}

Ref<PyTuple> Heap::ConstantTuple(std::vector<Value> items) {
  if (items.empty()) return RefCast<PyTuple>(empty_tuple_);
  const size_t length = items.size();
  return Adopt(new PyTuple(std::move(items), false), /*shared=*/true, length);
}

Ref<PyList> Heap::NewList(std::vector<Value> items) {
  return Adopt(new PyList(std::move(items)), /*shared=*/false);
}

Ref<PyDict> Heap::NewDict() { return Adopt(new PyDict(), /*shared=*/false); }

Ref<PyCell> Heap::NewCell(Value contents) {
  return Adopt(new PyCell(std::move(contents)), /*shared=*/false);
}

Ref<PyFunction> Heap::NewFunction(std::variant<UserCode, NativeCode> code, Value name,
                                  Value qualname, Value globals) {
  Ref<PyFunction> fn = Adopt(new PyFunction(), /*shared=*/false);
  fn->code = std::move(code);
  fn->name = std::move(name);
  fn->qualname = std::move(qualname);
  if (const auto* dict = DynCast<PyDict>(globals)) fn->module = dict->GetStr("__name__");
  fn->globals = std::move(globals);
  return fn;
}

Ref<PyTensor> Heap::NewTensor(Tensor tensor, Ref<PyTensor> base) {
  return Adopt(new PyTensor(std::move(tensor), std::move(base)), /*shared=*/false);
}

Ref<PyException> Heap::NewException(ExcType type, Ref<PyTuple> args) {
  if (!args) args = RefCast<PyTuple>(empty_tuple_);
  return Adopt(new PyException(type, std::move(args)), /*shared=*/false);
}

Ref<PyException> Heap::NewException(ExcType type, std::string_view message) {
  return NewException(type, NewTuple({Str(std::string(message))}));
}

Ref<PyBuiltin> Heap::NewBuiltin(std::string name, BuiltinCode code) {
  return Adopt(new PyBuiltin(std::move(name), std::move(code)), /*shared=*/true);
}

Ref<PyType> Heap::NewType(std::string name, std::string module) {
  Ref<PyType> type = Adopt(new PyType(), /*shared=*/true);
  type->name = std::move(name);
  type->module = std::move(module);
  type->dict = NewDict();
  return type;
}

Ref<PyInstance> Heap::NewInstance(Ref<PyType> type) {
  Ref<PyInstance> instance = Adopt(new PyInstance(), /*shared=*/false);
  instance->type = std::move(type);
  instance->attrs = NewDict();
  return instance;
}

Ref<PyMethod> Heap::NewMethod(Value function, Value self) {
  Ref<PyMethod> method = Adopt(new PyMethod(), /*shared=*/false);
  method->function = std::move(function);
  method->self = std::move(self);
  return method;
}

Value Heap::DTypeObject(DType dtype) {
  auto it = dtypes_.find(dtype);
  if (it != dtypes_.end()) return it->second;
  Value v = Adopt(new PyDType(dtype), /*shared=*/true);
  dtypes_.emplace(dtype, v);
  return v;
}

Ref<PyModule> Heap::NewModule(std::string name) {
  Ref<PyDict> dict = NewDict();
  dict->SetStr("__name__", Intern(name));
  return Adopt(new PyModule(std::move(name), std::move(dict)), /*shared=*/true);
}

FinalizerHandle Heap::AddFinalizer(const Value& object, std::function<void()> callback) {
  if (!IsWeaklyReferenceable(object->kind())) {
    Raise(*this, ExcType::kTypeError,
          "cannot create weak reference to '" + std::string(TypeName(object)) + "' object");
  }
  const uint64_t serial = next_finalizer_serial_++;
  object->finalizers_.push_back({serial, std::move(callback)});
  finalizer_owner_.emplace(serial, object.get());
  return {serial};
}

bool Heap::DetachFinalizer(FinalizerHandle handle) {
  auto owner = finalizer_owner_.find(handle.serial);
  if (owner == finalizer_owner_.end()) return false;
  std::vector<Finalizer>& list = owner->second->finalizers_;
  finalizer_owner_.erase(owner);
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->serial != handle.serial) continue;
    Finalizer detached = std::move(*it);
    list.erase(it);
    return true;  // `detached` (its captures) dies here, after the list is consistent
  }
  return false;
}

bool Heap::FinalizerAlive(FinalizerHandle handle) const {
  return finalizer_owner_.count(handle.serial) != 0;
}

}  // namespace tdc::runtime
