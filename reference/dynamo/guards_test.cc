// Reads' journal: a step back to a mark forgets exactly what was read after it, also after
// the Reads moved (a nested break hands a trace's reads to the frame that resumes it); an
// item counts as used where it was taken out; the global guards' index forgets what a step
// back drops.
#include "reference/dynamo/guards.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "reference/runtime/heap.h"

namespace tdc::dynamo {
namespace {

GuardedValue Guard(const std::string& name, runtime::ObjectId object) {
  GuardedValue g;
  g.name = name;
  g.object = object;
  return g;
}

TEST(ReadsTest, RollbackForgetsWhatWasReadAfterTheMark) {
  Reads reads;
  reads.ReadLocal("x");
  reads.Use(1);
  const Reads::Mark mark = reads.mark();
  reads.ReadLocal("y");
  reads.Use(2);
  reads.Use(1);  // already used: nothing to undo for it
  EXPECT_TRUE(reads.Read(Guard("y", 2)));
  reads.Rollback(mark);
  EXPECT_TRUE(reads.Read(Guard("x", 1)));
  EXPECT_FALSE(reads.Read(Guard("y", 2)));  // neither the local nor the use survive
  reads.ReadLocal("y");
  EXPECT_FALSE(reads.Read(Guard("y", 2)));  // the local again, but 2 was not used since
  EXPECT_TRUE(reads.Read(Guard("y", 1)));
}

TEST(ReadsTest, AMovedReadsRollsBackToItsMarks) {
  Reads reads;
  reads.ReadLocal("x");
  const Reads::Mark mark = reads.mark();
  reads.ReadCellOf(7);
  reads.Use(3);
  Reads moved = std::move(reads);
  GuardedValue in_cell = Guard("x", 3);
  in_cell.cell = 0;
  in_cell.cell_id = 7;
  EXPECT_TRUE(moved.ReadCell(in_cell));
  moved.Rollback(mark);
  EXPECT_FALSE(moved.ReadCell(in_cell));
  EXPECT_FALSE(moved.Read(Guard("x", 3)));
  EXPECT_EQ(moved.mark(), mark);
}

// acc = [1, 1] with only acc[0] subscripted and used: the shared small int is used, but only
// the item read at its place keeps its guard (torch 2.13.0 guards `acc[0] == 1` alone); once
// the list is used whole (iterated, passed) both are reached. A step back forgets the read.
TEST(ReadsTest, AnItemIsUsedOnlyWhereItWasTakenOut) {
  constexpr runtime::ObjectId kList = 10, kOne = 11;
  auto item = [&](size_t i) {
    GuardedValue g = Guard("acc", kOne);
    g.items = {i};
    g.parent = kList;
    return g;
  };
  Reads reads;
  reads.ReadLocal("acc");
  const Reads::Mark mark = reads.mark();
  reads.ReadItem(kList, 0);
  reads.Use(kOne);
  EXPECT_TRUE(reads.Read(Guard("acc", kList)));  // the list itself: subscripted
  EXPECT_TRUE(reads.Read(item(0)));
  EXPECT_FALSE(reads.Read(item(1)));
  EXPECT_EQ(reads.UsedInOrder(), (std::vector<runtime::ObjectId>{kList, kOne}));
  reads.Use(kList);  // iterated
  EXPECT_TRUE(reads.Read(item(1)));
  EXPECT_EQ(reads.UsedInOrder(), (std::vector<runtime::ObjectId>{kList, kOne}));
  reads.Rollback(mark);
  EXPECT_FALSE(reads.Read(item(0)));
  EXPECT_FALSE(reads.Read(Guard("acc", kList)));
}

TEST(GlobalGuardListTest, ResizeForgetsTheNamesItDrops) {
  runtime::Heap heap;
  runtime::Ref<runtime::PyDict> a = heap.NewDict(), b = heap.NewDict();
  const runtime::PyDict& module_a = *a;
  const runtime::PyDict& module_b = *b;
  GlobalGuardList globals;
  globals.Add({&module_a, "f", {}});
  globals.Add({&module_b, "f", {}});
  globals.Add({&module_a, "g", {}});
  EXPECT_TRUE(globals.Has(module_b, "f"));
  EXPECT_FALSE(globals.Has(module_b, "g"));
  globals.resize(1);
  EXPECT_TRUE(globals.Has(module_a, "f"));
  EXPECT_FALSE(globals.Has(module_b, "f"));
  EXPECT_FALSE(globals.Has(module_a, "g"));
  ASSERT_EQ(globals.size(), 1u);
  EXPECT_EQ(globals.items()[0].name, "f");
}

}  // namespace
}  // namespace tdc::dynamo
