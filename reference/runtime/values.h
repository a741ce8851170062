// The concrete Python value types of the runtime and the Python semantics every layer
// above needs of them: repr/str, ==, hash (for dict keys), truthiness, type names. Only
// the Heap (heap.h) makes objects; each class lists, in TakeReferences, the references
// it drops at death in CPython 3.11's order (SEMANTICS.md §6.1 step 2, rule I6).
#ifndef TDCONFORM_REFERENCE_RUNTIME_VALUES_H_
#define TDCONFORM_REFERENCE_RUNTIME_VALUES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "reference/runtime/dict_index.h"
#include "reference/runtime/exceptions.h"
#include "reference/runtime/object.h"
#include "reference/runtime/tensor.h"

namespace tdc::lang {
struct Node;
}

namespace tdc::runtime {

// The arguments of one call: positional values, then keyword (name, value) pairs in the
// order the call wrote them.
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;
};

class PyNone final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kNone;

 private:
  friend class Heap;
  PyNone() : Object(kKind) {}
  void TakeReferences(std::vector<Value>&) override {}
};

class PyBool final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kBool;
  bool value() const { return value_; }

 private:
  friend class Heap;
  explicit PyBool(bool value) : Object(kKind), value_(value) {}
  void TakeReferences(std::vector<Value>&) override {}
  bool value_;
};

// Python's int, limited to int64: arithmetic that leaves the range raises OverflowError
// (IntAdd/IntSub/IntMul) instead of wrapping (a limit, SEMANTICS.md §6).
class PyInt final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kInt;
  int64_t value() const { return value_; }

 private:
  friend class Heap;
  explicit PyInt(int64_t value) : Object(kKind), value_(value) {}
  void TakeReferences(std::vector<Value>&) override {}
  int64_t value_;
};

class PyFloat final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kFloat;
  double value() const { return value_; }

 private:
  friend class Heap;
  explicit PyFloat(double value) : Object(kKind), value_(value) {}
  void TakeReferences(std::vector<Value>&) override {}
  double value_;
};

// A str as UTF-8.
class PyStr final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kStr;
  const std::string& value() const { return value_; }

 private:
  friend class Heap;
  explicit PyStr(std::string value) : Object(kKind), value_(std::move(value)) {}
  void TakeReferences(std::vector<Value>&) override {}
  std::string value_;
};

class PyTuple final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kTuple;
  const std::vector<Value>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  // A torch.Size (a tuple subclass: x.shape, x.size()): its type, name and repr are
  // torch's, and its slices and concatenations are sizes too. Set when it is made.
  bool torch_size() const { return torch_size_; }

 private:
  friend class Heap;
  PyTuple(std::vector<Value> items, bool torch_size)
      : Object(kKind), items_(std::move(items)), torch_size_(torch_size) {}
  void TakeReferences(std::vector<Value>& out) override;  // last item first
  std::vector<Value> items_;
  bool torch_size_;
};

class PyList final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kList;
  // Item assignment through the vector stores before the old item dies (Ref::operator=).
  std::vector<Value>& items() { return items_; }
  const std::vector<Value>& items() const { return items_; }
  // list.clear(): drops the items last to first, as CPython's _list_clear.
  void Clear();

 private:
  friend class Heap;
  explicit PyList(std::vector<Value> items) : Object(kKind), items_(std::move(items)) {}
  void TakeReferences(std::vector<Value>& out) override;  // last item first
  std::vector<Value> items_;
};

// An insertion-ordered dict. Keys follow Python's equality and hash (1, 1.0 and True are
// one key; the first key object stays); lists and dicts are unhashable (TypeError).
// Functions, tensors, modules and other objects hash by identity.
class PyDict final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kDict;

  size_t size() const { return used_; }
  // d.get(key): null when absent.
  Value Get(const Value& key) const;
  bool Contains(const Value& key) const { return static_cast<bool>(Get(key)); }
  // d[key] = value. Rebinding stores the new value before the old one dies (I3).
  void Set(Value key, Value value);
  // del d[key]: drops the key, then the value; false when absent.
  bool Erase(const Value& key);
  // The live entries in insertion order (new references).
  std::vector<std::pair<Value, Value>> Items() const;

  // Shortcuts for str keys (globals, attributes, module dicts); SetStr interns the key.
  Value GetStr(std::string_view name) const;
  void SetStr(std::string_view name, Value value);
  bool EraseStr(std::string_view name);

 private:
  friend class Heap;
  struct Entry {
    Value key;  // null once deleted (the slot stays, as CPython's DKIX_DUMMY)
    Value value;
    size_t hash = 0;
  };
  static constexpr size_t kNotFound = DictIndex::kNotFound;

  PyDict() : Object(kKind) {}
  // dict_dealloc: for each entry in insertion order, its key then its value.
  void TakeReferences(std::vector<Value>& out) override;
  size_t Find(const Value& key, size_t hash) const;
  size_t FindStr(std::string_view name, size_t hash) const;
  size_t HashOrRaise(const Value& key) const;
  void EraseAt(size_t index);
  // A key not in the dict, with its hash: stored at the end (insertdict's new-key path).
  void Append(Value key, Value value, size_t hash);
  void Compact();

  std::vector<Entry> entries_;
  DictIndex index_;  // hash -> entry
  size_t used_ = 0;
};

// A closure variable; empty (null contents) until assigned.
class PyCell final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kCell;
  Value contents;

 private:
  friend class Heap;
  explicit PyCell(Value value) : Object(kKind), contents(std::move(value)) {}
  void TakeReferences(std::vector<Value>& out) override;
};

class PyFunction;

// A def or lambda of the parsed program: `def` points at a FunctionDef or Lambda node of
// reference/lang/ast.h; `keep_alive` owns the parsed module the node belongs to.
struct UserCode {
  const lang::Node* def = nullptr;
  std::shared_ptr<const void> keep_alive;
};
// A function the modeled libraries create (torch.compiler.disable's `_fn`). The body gets
// the function itself, so state the library keeps in a closure lives in `closure` and
// dies in CPython's order; values captured by the std::function die with the code, last.
using NativeCode = std::function<Value(PyFunction& self, CallArgs& args)>;

// A Python function object. Fields are listed in the order CPython 3.11's func_clear and
// func_dealloc drop them (I6): globals, (builtins: shared, not modeled), module,
// defaults, kwdefaults, doc, __dict__, closure, (annotations: not modeled), name,
// qualname, code.
class PyFunction final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kFunction;

  Value globals;      // the defining module's globals (a PyDict)
  Value module;       // __module__: globals['__name__'] when the function is made
  Value defaults;     // a PyTuple, or null
  Value kwdefaults;   // a PyDict, or null
  Value doc;          // null unless set
  Ref<PyDict> attrs;  // __dict__ (f.marker, __wrapped__, _torchdynamo_disable), lazy
  Value closure;      // a PyTuple of PyCells, or null
  Value name;         // __name__ (a PyStr)
  Value qualname;     // __qualname__ (a PyStr)
  std::variant<UserCode, NativeCode> code;

  bool is_native() const { return std::holds_alternative<NativeCode>(code); }
  std::string_view name_text() const;
  std::string_view qualname_text() const;
  // An attribute of __dict__, or null.
  Value GetAttr(std::string_view attr) const;
  // Sets an attribute in __dict__, making the dict on first use as CPython does.
  void SetAttr(std::string_view attr, Value value);

 private:
  friend class Heap;
  PyFunction() : Object(kKind) {}
  void TakeReferences(std::vector<Value>& out) override;
  void DropNativeState() override { code = UserCode{}; }
};

using BuiltinCode = std::function<Value(CallArgs& args)>;

// A builtin function (len, id, torch.add): shared and never dies, like CPython's.
class PyBuiltin final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kBuiltin;
  const std::string& name() const { return name_; }
  const BuiltinCode& code() const { return code_; }
  // A function in CPython too (operator's): repr() is `<built-in function name>` and
  // inspect's is_function holds. Others may be classes there (zip, enumerate), or methods.
  bool cpython_function = false;

 private:
  friend class Heap;
  PyBuiltin(std::string name, BuiltinCode code)
      : Object(kKind), name_(std::move(name)), code_(std::move(code)) {}
  void TakeReferences(std::vector<Value>&) override {}
  void DropNativeState() override { code_ = nullptr; }
  std::string name_;
  BuiltinCode code_;
};

// A module: dotted name and attribute dict. Modules live as long as the process.
class PyModule final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kModule;
  const std::string& name() const { return name_; }
  PyDict& dict() const {
    Fill();
    return *dict_;
  }
  Value GetAttr(std::string_view attr) const {
    Fill();
    return dict_->GetStr(attr);
  }
  void SetAttr(std::string_view attr, Value value) {
    Fill();
    dict_->SetStr(attr, std::move(value));
  }
  // `fill` makes the namespace when anything first reads or writes it, so a module few
  // programs use costs the others nothing (perf's fixed_cost scenarios). It must make its
  // objects as at startup (Heap::StartupScope).
  void FillOnFirstUse(std::function<void()> fill) { fill_ = std::move(fill); }

 private:
  friend class Heap;
  PyModule(std::string name, Ref<PyDict> dict)
      : Object(kKind), name_(std::move(name)), dict_(std::move(dict)) {}
  void TakeReferences(std::vector<Value>& out) override;
  void DropNativeState() override { fill_ = nullptr; }
  // Runs fill_ once; it is cleared first, as filling writes the namespace.
  void Fill() const {
    if (fill_) std::exchange(fill_, nullptr)();
  }
  std::string name_;
  Ref<PyDict> dict_;
  mutable std::function<void()> fill_;
};

// A torch.Tensor Python object. A view holds its base's object, so the base keeps its id
// while a view is alive and `v._base` is that same object (I8).
class PyTensor final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kTensor;
  const Tensor& tensor() const { return tensor_; }
  const Ref<PyTensor>& base() const { return base_; }
  // Tensor.requires_grad_(): the one metadata change made in place.
  void set_requires_grad(bool requires_grad) { tensor_.requires_grad = requires_grad; }

  // Dynamo's note on this tensor while a frame is traced (reference/dynamo): which graph
  // (epoch) and which node or input it is there. Only the tracer reads or writes it.
  struct TraceTag {
    uint64_t epoch = 0;
    int64_t slot = 0;
  };
  mutable TraceTag trace_tag;

 private:
  friend class Heap;
  PyTensor(Tensor tensor, Ref<PyTensor> base)
      : Object(kKind), tensor_(std::move(tensor)), base_(std::move(base)) {}
  void TakeReferences(std::vector<Value>& out) override;
  Tensor tensor_;
  Ref<PyTensor> base_;
};

// An exception instance: its class and args (str(exc) derives from args, as Python's).
class PyException final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kException;
  ExcType type() const { return type_; }
  const Ref<PyTuple>& args() const { return args_; }

 private:
  friend class Heap;
  PyException(ExcType type, Ref<PyTuple> args)
      : Object(kKind), type_(type), args_(std::move(args)) {}
  void TakeReferences(std::vector<Value>& out) override;
  ExcType type_;
  Ref<PyTuple> args_;
};

// --- Python semantics of values -----------------------------------------------------

// repr(v) as the reference's messages show it. Ids are never printed (I1): functions print
// as `<function qualname>`, cells as `<cell: int object>`, modules as `<module 'name'>`,
// tensors as `tensor(shape=[2, 3], dtype=torch.float32)`; none of these is CPython's text,
// which is why the program's own repr() and str() do not use them (ProgramRepr).
std::string Repr(const Value& v);
// str(v): the text of a str, str(exc) for exceptions, otherwise repr.
std::string Str(const Value& v);
// repr() and str() as the program sees them (builtins repr and str, str.format): a function's
// or library object's own address is the model's id; a value whose CPython text shows another
// object's address, a file or torch's tensor format is refused (DESIGN D13). Repr and Str are
// the reference's own texts of values, for its messages.
std::string ProgramRepr(const Value& v);
std::string ProgramStr(const Value& v);
// v == w for non-tensor values: numbers across bool/int/float, str, tuple/list (same type,
// items compared `is` first, as CPython's containers do), dict (same items in any
// order); other objects (tensors included) by identity.
bool PyEquals(const Value& a, const Value& b);
// hash(v) consistent with PyEquals (not CPython's numbers); nullopt when unhashable
// (list, dict, or a tuple holding one).
std::optional<size_t> PyHash(const Value& v);
// hash() of a str holding `text`.
size_t HashText(std::string_view text);
// Whether `v` is a tensor or a tuple, list or dict (its values) holding one at any depth;
// a container holding itself is looked into once.
bool HoldsTensor(const Value& v);
// bool(v). A tensor of one element is its element's truth; any other tensor raises
// TorchError("RuntimeError", torch's text).
bool IsTruthy(const Value& v);
// type(v).__name__: "NoneType", "int", "function", "builtin_function_or_method",
// "module", "Tensor", "cell", an exception's class name, ...
std::string_view TypeName(const Value& v);

// int arithmetic in the model's int64 range; OverflowError outside it.
Value IntAdd(Heap& heap, int64_t a, int64_t b);
Value IntSub(Heap& heap, int64_t a, int64_t b);
Value IntMul(Heap& heap, int64_t a, int64_t b);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_VALUES_H_
