#include "reference/runtime/dict_index.h"

#include <utility>

namespace tdc::runtime {

void DictIndex::Insert(size_t hash, size_t entry) {
  // At most two thirds of the slots are taken, dummies included (CPython's USABLE_FRACTION),
  // so a probe always ends at an empty slot. A rebuild leaves room for as many keys again
  // (CPython's GROWTH_RATE): sized to fit exactly, a dict erasing and inserting at that
  // size would be rebuilt on every insert.
  if ((used_ + 1) * 3 > slots_.size() * 2) Grow(2 * (live_ + 1));
  Probe p(hash, mask());
  while (slots_[p.slot].entry >= 0) p.Next();
  if (slots_[p.slot].entry == kEmpty) ++used_;
  slots_[p.slot] = {hash, static_cast<int64_t>(entry)};
  ++live_;
}

void DictIndex::Erase(size_t hash, size_t entry) {
  if (slots_.empty()) return;
  for (Probe p(hash, mask()); slots_[p.slot].entry != kEmpty; p.Next()) {
    if (slots_[p.slot].entry == static_cast<int64_t>(entry)) {
      slots_[p.slot].entry = kDummy;
      --live_;
      return;
    }
  }
}

void DictIndex::Clear() {
  slots_.clear();
  used_ = 0;
  live_ = 0;
}

void DictIndex::Grow(size_t keys) {
  size_t size = 8;
  while (keys * 3 > size * 2) size *= 2;
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(size));
  used_ = 0;
  live_ = 0;
  for (const Slot& slot : old) {
    if (slot.entry >= 0) Insert(slot.hash, static_cast<size_t>(slot.entry));
  }
}

}  // namespace tdc::runtime
