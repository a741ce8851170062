// DictIndex alone: what PyDict relies on when hashes collide, keys are erased and the
// table grows over dummies (values_test.cc covers the dict built on it).
#include "reference/runtime/dict_index.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace tdc::runtime {
namespace {

// The entries a test inserted: entry i holds key keys[i], erased ones are -1.
struct Model {
  DictIndex index;
  std::vector<int> keys;
  std::map<int, size_t> hashes;  // key -> the hash it was inserted under

  void Insert(int key, size_t hash) {
    hashes[key] = hash;
    index.Insert(hash, keys.size());
    keys.push_back(key);
  }
  size_t Find(int key) const {
    auto h = hashes.find(key);
    if (h == hashes.end()) return DictIndex::kNotFound;
    return index.Find(h->second, [&](size_t i) { return keys[i] == key; });
  }
  void Erase(int key) {
    size_t entry = Find(key);
    index.Erase(hashes[key], entry);
    keys[entry] = -1;
  }
};

TEST(DictIndexTest, EmptyFindsNothing) {
  DictIndex index;
  EXPECT_EQ(index.Find(7, [](size_t) { return true; }), DictIndex::kNotFound);
}

TEST(DictIndexTest, KeysSharingOneHashAreEachFound) {
  Model m;
  for (int k = 0; k < 50; ++k) m.Insert(k, 42);
  for (int k = 0; k < 50; ++k) EXPECT_EQ(m.Find(k), static_cast<size_t>(k)) << k;
  m.Erase(10);
  EXPECT_EQ(m.Find(10), DictIndex::kNotFound);
  EXPECT_EQ(m.Find(11), 11u);
  EXPECT_EQ(m.Find(49), 49u);
}

TEST(DictIndexTest, SequentialHashesAndGrowthOverDummies) {
  Model m;
  // Insert and erase far more keys than ever live at once: the table must reuse or drop
  // its dummies, and every live key must stay reachable.
  for (int k = 0; k < 2000; ++k) {
    m.Insert(k, static_cast<size_t>(k));
    if (k >= 5) m.Erase(k - 5);
  }
  for (int k = 0; k < 1995; ++k) EXPECT_EQ(m.Find(k), DictIndex::kNotFound) << k;
  for (int k = 1995; k < 2000; ++k) EXPECT_EQ(m.Find(k), static_cast<size_t>(k)) << k;
}

TEST(DictIndexTest, ClearForgetsEveryEntry) {
  Model m;
  for (int k = 0; k < 20; ++k) m.Insert(k, static_cast<size_t>(k) * 8);
  m.index.Clear();
  EXPECT_EQ(m.Find(3), DictIndex::kNotFound);
  m.index.Insert(24, 3);
  EXPECT_EQ(m.Find(3), 3u);
}

}  // namespace
}  // namespace tdc::runtime
