// A dict's index from a key's hash to the entry that holds it: open addressing in one
// flat array, as CPython's dk_indices (the node-based std::unordered_multimap it replaces
// made an allocation per key, most of what building the modeled torch namespace cost).
// The entries and their order stay in PyDict; this only finds them.
#ifndef TDCONFORM_REFERENCE_RUNTIME_DICT_INDEX_H_
#define TDCONFORM_REFERENCE_RUNTIME_DICT_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tdc::runtime {

class DictIndex {
 public:
  static constexpr size_t kNotFound = static_cast<size_t>(-1);

  // The live entry under this hash for which matches(entry) holds, or kNotFound (a dict
  // holds at most one key equal to another).
  template <typename Matches>
  size_t Find(size_t hash, const Matches& matches) const {
    if (slots_.empty()) return kNotFound;
    for (Probe p(hash, mask()); slots_[p.slot].entry != kEmpty; p.Next()) {
      const Slot& slot = slots_[p.slot];
      if (slot.entry >= 0 && slot.hash == hash && matches(static_cast<size_t>(slot.entry))) {
        return static_cast<size_t>(slot.entry);
      }
    }
    return kNotFound;
  }
  // Adds `entry` under `hash` (the caller knows no live entry matches).
  void Insert(size_t hash, size_t entry);
  // Removes `entry`, inserted under `hash`; its slot stays a dummy until the next growth.
  void Erase(size_t hash, size_t entry);
  void Clear();

 private:
  static constexpr int64_t kEmpty = -1;
  static constexpr int64_t kDummy = -2;
  struct Slot {
    size_t hash = 0;
    int64_t entry = kEmpty;
  };
  // CPython's lookdict recurrence: every slot is reached, and the high bits of the hash
  // take part, so sequential int hashes do not pile up.
  struct Probe {
    Probe(size_t hash, size_t slot_mask) : slot(hash & slot_mask), perturb(hash), mask(slot_mask) {}
    void Next() {
      perturb >>= 5;
      slot = (slot * 5 + perturb + 1) & mask;
    }
    size_t slot;
    size_t perturb;
    size_t mask;
  };

  size_t mask() const { return slots_.size() - 1; }
  // Rebuilds with room for `keys` keys and no dummies.
  void Grow(size_t keys);

  std::vector<Slot> slots_;  // empty, or a power of two long
  size_t used_ = 0;          // slots not empty: live entries and dummies
  size_t live_ = 0;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_DICT_INDEX_H_
