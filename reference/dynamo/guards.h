// The guards of a cache entry (spec §1.2 step 5, SEMANTICS §8.2 R-cache-hit): per frame
// value, tensors by dtype, requires_grad, rank, sizes and strides, Python constants by
// type and value, dicts by their contents (a change refused), user functions by code
// object and the closure cells the trace read,
// anything else by identity; and the failure reason torch's guard check gives for a value
// that fails them (the fail_on_recompile stance's message, spec §2.14).
#ifndef TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_
#define TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/runtime/tensor.h"
#include "reference/runtime/values.h"

namespace tdc::dynamo {

struct GuardedValue {
  size_t index = 0;   // its position among the frame's values
  std::string name;   // the source as torch's messages name it (L['args'][0] -> args[0])
  std::string guard;  // what a later value must equal for a cache hit
  struct TensorMeta {
    runtime::DType dtype;
    bool requires_grad;
    runtime::Shape sizes, strides;
  };
  std::optional<TensorMeta> tensor;  // metadata only: no storage kept alive
  // Set for the contents of the value's closure cell `cell` (f.__closure__[0].cell_contents):
  // torch guards a cell only when the trace read it (R-closure-guard).
  std::optional<size_t> cell;
  runtime::ObjectId cell_id = 0;  // the cell the cached call read
  // Then the attribute path through class statements' instances (c.w, m.encoder.proj.w):
  // the last attribute's value guard, or for a name of the last instance's class, "absent"
  // (torch's DICT_CONTAINS: no instance attribute shadows it). `owner` is that last
  // instance as the cached call had it.
  std::vector<std::string> attrs;
  runtime::ObjectId owner = 0;
  // Then the item path inside a tuple or list (args[0]): a container is guarded by type
  // and length, each item by its own guard, kept only when the trace used that item.
  std::vector<size_t> items;
  runtime::ObjectId object = 0;  // the value the cached call had there
  runtime::ObjectId parent = 0;  // for an item: the tuple or list the cached call had it in
  bool dict = false;             // a dict (torch guards its keys and the values read)
  bool constant = false;         // a Python constant (guarded by value once used)
};

// The items of a tuple or list; null for anything else.
const std::vector<runtime::Value>* ItemsOf(const runtime::Value& v);

// `v`, the frame's `index`-th value, read from `source` (L['x']), then one guard per item
// when it is a tuple or list, per closure cell when it is a user function, per attribute
// and per function of its class when it is a class statement's instance (by type, as
// torch's TYPE_MATCH).
std::vector<GuardedValue> Guards(const runtime::Value& v, const std::string& source, size_t index);
// The value `g` checks in a frame whose `index`-th value is `frame_value`: that value, its
// function's closure cell contents, or an item of either (null when there is none).
runtime::Value GuardedInput(const GuardedValue& g, const runtime::Value& frame_value);
// The first guard of `cached` that `now` (a GuardedInput) fails, as torch words it
// (`tensor 'x' size mismatch at index 0. expected 4, actual 7`); empty when `now` passes.
std::string GuardFailure(const GuardedValue& cached, const runtime::Value& now);

// The local a guard's value was read from (args[0] -> args, f.__closure__[0]... -> f).
std::string LocalOf(const GuardedValue& g);

// Where a value sits among a frame's values: a GuardedValue's index and item path.
struct ValuePath {
  size_t index = 0;
  std::vector<size_t> items;
  auto operator<=>(const ValuePath&) const = default;
  // Whether `g` checks this value or an item inside it (not a closure cell's contents).
  bool Holds(const GuardedValue& g) const;
};

// What a trace read, for keeping only the guards of values it read (R-lazy-guards,
// R-closure-guard). It only grows while a trace runs, and a step graph break takes it back
// to what it was at a checkpoint: each insertion is journaled, so a checkpoint keeps a
// mark, not a copy (a copy at every checkpoint made tracing quadratic in the ops, measured
// by perf/'s trace benchmarks). Move-only: the journal points into its own sets.
class Reads {
 public:
  Reads() = default;
  Reads(Reads&&) = default;
  Reads& operator=(Reads&&) = default;
  Reads(const Reads&) = delete;
  Reads& operator=(const Reads&) = delete;

  void ReadLocal(const std::string& name);  // a local of the root frame
  bool ReadsLocal(const std::string& name) const { return locals_.contains(name); }
  void ReadCellOf(runtime::ObjectId cell);  // a closure cell, in any traced frame
  void Use(runtime::ObjectId object);       // used other than by moving it (FrameHook::OnUse)
  // Tuple or list `container` used without its items reached (subscripted, or realized to be
  // handed on: torch guards its length, each item only once that item is used where it is).
  void UseShallow(runtime::ObjectId container);
  // Item `index` of tuple or list `container` taken out (FrameHook::OnItemRead, or a
  // non-constant item of a realized container): the container used shallowly, that item
  // reached. Use of a container reaches all its items (iterated, unpacked, passed to a
  // builtin).
  void ReadItem(runtime::ObjectId container, size_t index);
  // Attribute `name` of class statement's instance `owner` was found on its class (torch
  // guards that no attribute of the instance shadows it: FrameHook::OnClassAttributeRead).
  void ReadClassAttribute(runtime::ObjectId owner, const std::string& name);
  // A value realized through where it came from (an inlined frame's local bound from a frame
  // value, realized at a nested break: torch guards that source only, not other places
  // holding the same object).
  void UseAt(ValuePath path);
  // Everything `other` used (and the class attributes it read), used here too.
  void UseAllOf(const Reads& other);
  // A copy of what this one used (all UseAllOf takes): what a trace had used at a moment.
  Reads UsedSoFar() const;
  bool Uses(runtime::ObjectId object) const {
    return used_.contains(object) || used_shallow_.contains(object);
  }
  // Whether the value `g` guards was used where `g` finds it: for an item, its object used
  // and taken out of that container (read there by a subscript, or the container used
  // whole). An object held at two places (a small int, a str) counts only where read.
  bool UsesItem(const GuardedValue& g) const;
  // The objects used (Use, UseShallow, ReadItem), in the order first used.
  std::vector<runtime::ObjectId> UsedInOrder() const;

  using Mark = size_t;
  Mark mark() const { return journal_.size(); }
  // Back to what was read at `mark` (a mark of this Reads, not yet rolled back past).
  void Rollback(Mark mark);

  // Whether `g` is kept: its local was read and its value used (a nested resume function's
  // __nested_frame_values always are) and,
  // for a cell's contents, the cell was read.
  bool Read(const GuardedValue& g) const;
  // Whether `g` is not a cell's contents, or one of a cell the trace read.
  bool ReadCell(const GuardedValue& g) const { return !g.cell || cells_.contains(g.cell_id); }

 private:
  using Ids = std::set<runtime::ObjectId>;
  // One insertion: the set it went into and where, so that Rollback can erase it (a set's
  // iterators stay valid when the Reads moves).
  struct Inserted {
    using AttributeRead = std::pair<runtime::ObjectId, std::string>;
    using ItemRead = std::pair<runtime::ObjectId, size_t>;
    enum class Into : uint8_t {
      kLocals,
      kCells,
      kUsed,
      kUsedShallow,
      kItems,
      kUsedAt,
      kClassAttributes
    } into;
    std::set<std::string>::iterator local = {};
    Ids::iterator id = {};
    std::set<ItemRead>::iterator item = {};
    std::set<ValuePath>::iterator path = {};
    std::set<AttributeRead>::iterator attribute = {};
  };
  std::set<std::string> locals_;
  Ids cells_;
  Ids used_;
  Ids used_shallow_;
  std::set<Inserted::ItemRead> items_read_;
  std::set<ValuePath> used_at_;
  std::set<Inserted::AttributeRead> class_attributes_;
  std::vector<Inserted> journal_;
};

// A global name the trace read a callable through: `name` in `globals` must still bind an
// object passing `guards` (torch guards G['g'].__code__ by id for a function, and the cells
// the trace read; anything else by id: a reused id passes).
struct GlobalGuard {
  const runtime::PyDict* globals;  // a module's namespace, alive for the whole program
  std::string name;
  std::vector<GuardedValue> guards;
  // The first of `guards` the name's value now fails, as GuardFailure words it; empty when
  // it passes them all.
  std::string Failure() const;
};
// The guards on the names in `globals` that bind `callee`.
std::vector<GlobalGuard> GlobalGuardsOf(const runtime::PyDict& globals,
                                        const runtime::Value& callee);

// The globals a trace read, in the order it first read each, one guard per (namespace,
// name); an index answers "already read?" (a scan made a trace reading thousands of
// helpers by name quadratic: perf/'s call-tree benchmarks).
class GlobalGuardList {
 public:
  // Whether `name` in `globals` is already guarded.
  bool Has(const runtime::PyDict& globals, const std::string& name) const {
    return index_.contains({&globals, name});
  }
  void Add(GlobalGuard guard);
  size_t size() const { return guards_.size(); }
  // Back to the first `n` (a step back to a checkpoint, an abandoned inlining).
  void resize(size_t n);
  const std::vector<GlobalGuard>& items() const { return guards_; }

 private:
  std::vector<GlobalGuard> guards_;
  std::set<std::pair<const runtime::PyDict*, std::string>> index_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_GUARDS_H_
