// Reads' journal: a step back to a mark forgets exactly what was read after it, also after
// the Reads moved (a nested break hands a trace's reads to the frame that resumes it); the
// global guards' index forgets what a step back drops.
#include "reference/dynamo/guards.h"

#include <gtest/gtest.h>

#include <utility>

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
