// The fuzz properties (research/fuzz-anchors.md §6.3), run by ctest with RC_PARAMS set
// explicitly (fuzz/CMakeLists.txt): the reference agrees with the independent oracle on
// the whole partition, compiled outputs equal eager ones (the is_compiling branches are
// equivalent by construction), and a second identical call compiles nothing.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "fuzz/generators.h"
#include "fuzz/partition_oracle.h"
#include "fuzz/reference_run.h"
#include "fuzz/serialize.h"
#include "fuzz/shapes.h"
#include "fuzz/shrink.h"
#include "fuzz/transforms.h"
#include "reference/graph/golden_json.h"

namespace tdc::fuzz {
namespace {

// Distribution tags (fuzz-anchors §6.2): the shapes the issue wants covered.
void Tag(const Program& p) {
  bool nonrecursive = false, allow = false, is_compiling = false, nested_break = false;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    nonrecursive = nonrecursive || p.functions[f].policy == Policy::kDisableNonrecursive;
    allow = allow || p.functions[f].policy == Policy::kAllowInGraph;
    for (const Stmt& s : p.functions[f].body) {
      is_compiling = is_compiling || s.kind == Stmt::Kind::kIfCompiling;
      nested_break = nested_break || (f > 0 && s.kind == Stmt::Kind::kGraphBreak);
    }
  }
  RC_CLASSIFY(nonrecursive, "disable(recursive=False)");
  RC_CLASSIFY(allow, "allow_in_graph");
  RC_CLASSIFY(p.disallow_sigmoid, "disallow torch.sigmoid");
  RC_CLASSIFY(is_compiling, "is_compiling branch");
  RC_CLASSIFY(nested_break, "break in a callee");
  RC_CLASSIFY(p.fullgraph, "fullgraph");
}

RC_GTEST_PROP(FuzzProperties, ReferenceMatchesTheIndependentOracle, ()) {
  Program program = *GenProgram();
  Tag(program);
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.error.empty());
  Partition expected = PredictPartition(program);
  if (FormatPartition(run.partition) != FormatPartition(expected)) {
    RC_FAIL("partition: reference " + FormatPartition(run.partition) + "vs oracle " + FormatPartition(expected) + "\n" +
            PrintFixture(program));
  }
}

RC_GTEST_PROP(FuzzProperties, CompiledOutputsEqualEagerOnes, ()) {
  Program program = *GenProgram();
  RC_PRE(!program.fullgraph);
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.error.empty());
  RC_ASSERT(!run.compiled.exception.has_value());
  for (const auto& eager_out : run.eager.outs) {
    auto it = std::find_if(run.compiled.outs.begin(), run.compiled.outs.end(),
                           [&](const auto& out) { return out.first == eager_out.first; });
    RC_ASSERT(it != run.compiled.outs.end());
    RC_ASSERT(graph::ToJson(it->second).dump() == graph::ToJson(eager_out.second).dump());
  }
}

RC_GTEST_PROP(FuzzProperties, ASecondIdenticalCallCompilesNothing, ()) {
  Program once = *GenProgram();
  RC_PRE(!once.fullgraph);
  once.call_twice = false;
  Program twice = once;
  twice.call_twice = true;
  RC_ASSERT(RunOnReference(twice).compiled.invocations.size() == RunOnReference(once).compiled.invocations.size());
}

// One backend invocation per graph that has a node (fullgraph's may be empty), and the
// recorder's frame_count counts exactly those invocations.
RC_GTEST_PROP(FuzzProperties, OneBackendInvocationPerNonEmptyGraph, ()) {
  Program program = *GenProgram();
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.error.empty());
  RC_ASSERT(run.compiled.counters.frame_count == static_cast<int64_t>(run.compiled.invocations.size()));
  for (const auto& graph : run.partition.graphs) RC_ASSERT(program.fullgraph || !graph.empty());
}

// Metamorphic (fuzz-anchors §6.3 (3)): a policy-free wrapper around any call changes
// nothing in the partition; needs no oracle, so it also catches bugs the oracle shares.
RC_GTEST_PROP(FuzzProperties, AWrapperAroundACallKeepsThePartition, ()) {
  Program program = *GenProgram();
  std::optional<Program> wrapped = InsertWrapper(program, *rc::gen::inRange<size_t>(0, 4));
  RC_PRE(wrapped.has_value());
  ReferenceRun before = RunOnReference(program);
  ReferenceRun after = RunOnReference(*wrapped);
  RC_ASSERT(FormatPartition(after.partition) == FormatPartition(before.partition));
}

// Metamorphic: with no policy, no break and no disallow, one graph holds every op (none
// when there is no op).
RC_GTEST_PROP(FuzzProperties, WithoutBreaksOrPoliciesThereIsAtMostOneGraph, ()) {
  Program program = WithoutBreaksOrPolicies(*GenProgram());
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.partition.graphs.size() <= 1);
  RC_ASSERT(!run.partition.unsupported);
}

RC_GTEST_PROP(FuzzProperties, TheCanonicalTextRoundTrips, ()) {
  Program program = *GenProgram();
  std::string error;
  std::optional<Program> parsed = Parse(Serialize(program), &error);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(Serialize(*parsed) == Serialize(program));
}

// The regression corpus (fuzz/corpus/*.case), replayed before any random program: the
// reference agrees with the oracle and its compiled outputs with its eager ones.
TEST(FuzzCorpus, EveryCaseAgreesWithTheOracleAndEager) {
  std::filesystem::path dir = std::filesystem::path(TDC_SOURCE_DIR) / "fuzz" / "corpus";
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".case") continue;
    ++cases;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    std::optional<Program> program = Parse(text.str(), &error);
    ASSERT_TRUE(program.has_value()) << entry.path() << ": " << error;
    ReferenceRun run = RunOnReference(*program);
    ASSERT_EQ(run.error, "") << entry.path();
    EXPECT_EQ(FormatPartition(run.partition), FormatPartition(PredictPartition(*program))) << entry.path();
    if (!program->fullgraph) {
      EXPECT_EQ(graph::ToJson(run.compiled.outs.at(0).second).dump(), graph::ToJson(run.eager.outs.at(0).second).dump())
          << entry.path();
    }
  }
  EXPECT_GE(cases, 4);
}

// The properties' programs cover the shapes the issue names: each in at least 5% of them
// (fuzz-anchors §6.8: a green run that tested nothing).
TEST(FuzzDistribution, EveryShapeWeCareAboutIsAtLeastFivePercent) {
  ShapeReport report;
  for (uint64_t seed = 1; seed <= 500; ++seed) report.Add(SampleProgram(seed, 40));
  for (size_t i = 0; i < ShapeReport::kShapes; ++i) {
    EXPECT_GE(report.count(i) * 20, report.programs()) << report.Format();
  }
}

// Proof the fuzzer bites (issue 8): with one of these rules off, comparing the reference
// with the independent oracle finds a disagreeing program among the first 500 seeds, and
// shrinking brings it to at most 10 statements.
class FuzzGate : public ::testing::TestWithParam<const char*> {};

TEST_P(FuzzGate, CatchesTheRuleSwitchedOffAndShrinksIt) {
  std::vector<std::string> off = {GetParam()};
  auto fails = [&](const Program& p) {
    ReferenceRun run = RunOnReference(p, "fuzz/program.py", off);
    return run.error.empty() && FormatPartition(run.partition) != FormatPartition(PredictPartition(p));
  };
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    Program program = SampleProgram(seed, 40);
    if (!fails(program)) continue;
    Program small = Shrink(program, fails);
    EXPECT_LE(StatementCount(small), 10u) << PrintFixture(small);
    return;
  }
  FAIL() << "no program among 500 seeds notices R-" << GetParam() << " switched off";
}

INSTANTIATE_TEST_SUITE_P(Rules, FuzzGate,
                         ::testing::Values("classic-reattribute", "empty-graph", "nonrecursive-run-only",
                                           "is-compiling-fold"));

}  // namespace
}  // namespace tdc::fuzz
