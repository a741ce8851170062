// The fuzz properties (research/fuzz-anchors.md §6.3), run by ctest with RC_PARAMS set
// explicitly (fuzz/CMakeLists.txt): the reference agrees with the independent oracle on
// the whole partition (helpers' ids included), compiled outputs equal eager ones once the
// oracle has chosen the non-equivalent is_compiling branches, a second identical call
// compiles nothing, and the metamorphic relations hold.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

constexpr const char* kNested = "torch-2.13-ngb";  // the nested-graph-breaks profile

// Distribution tags (fuzz-anchors §6.2): the shapes the issue wants covered.
void Tag(const Program& p) {
  bool nonrecursive = false, allow = false, differs = false, nested_break = false, helper = false;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    nonrecursive = nonrecursive || p.functions[f].policy == Policy::kDisableNonrecursive;
    allow = allow || p.functions[f].policy == Policy::kAllowInGraph;
    for (const Stmt& s : p.functions[f].body) {
      differs = differs || s.kind == Stmt::Kind::kIfCompilingDiffers;
      nested_break = nested_break || (f > 0 && s.kind == Stmt::Kind::kGraphBreak);
      helper = helper || s.kind == Stmt::Kind::kCallHelper;
    }
  }
  Shapes shapes = ShapesOf(p);
  RC_CLASSIFY(nonrecursive, "disable(recursive=False)");
  RC_CLASSIFY(allow, "allow_in_graph");
  RC_CLASSIFY(shapes.disallow, "disallow");
  RC_CLASSIFY(shapes.is_compiling_branch, "is_compiling branch");
  RC_CLASSIFY(differs, "non-equivalent is_compiling branch");
  RC_CLASSIFY(nested_break, "break in a callee");
  RC_CLASSIFY(helper && shapes.registered_helper_dies, "helper called after a registered one died");
  RC_CLASSIFY(p.fullgraph, "fullgraph");
  RC_CLASSIFY(p.new_shape, "called again with a new shape");
  RC_CLASSIFY(p.new_constant, "called again with a new global constant");
  RC_CLASSIFY(shapes.data_dependent_if, "data-dependent if");
  RC_CLASSIFY(shapes.data_dependent_while, "data-dependent while");
}

// The reference and the oracle agree on `program` in `profile`, Dynamo and ATen graphs.
void AgreesWithTheOracle(const Program& program, const std::string& profile) {
  ReferenceRun run = RunOnReference(program, "fuzz/program.py", {}, profile);
  RC_ASSERT(run.error.empty());
  Partition expected = PredictPartition(program, profile == kNested);
  if (FormatPartition(run.partition) != FormatPartition(expected)) {
    RC_FAIL("partition: reference " + FormatPartition(run.partition) + "vs oracle " +
            FormatPartition(expected) + "\n" + PrintFixture(program));
  }
  if (FormatAtenPartition(run.partition) != FormatAtenPartition(expected)) {
    RC_FAIL("ATen graphs: reference " + FormatAtenPartition(run.partition) + "vs oracle " +
            FormatAtenPartition(expected) + "\n" + PrintFixture(program));
  }
}

RC_GTEST_PROP(FuzzProperties, ReferenceMatchesTheIndependentOracle, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  Tag(program);
  AgreesWithTheOracle(program, "torch-2.13");
}

// The same under nested graph breaks (spec §3.4), where a break in a callee ends the graph
// where it is and the oracle traces one level per function.
RC_GTEST_PROP(FuzzProperties, ReferenceMatchesTheIndependentOracleUnderNestedGraphBreaks, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  Tag(program);
  AgreesWithTheOracle(program, kNested);
}

// Eager-fallback equivalence (fuzz-anchors §6.3 (4)): compiled outputs are bitwise the
// eager ones of the program whose non-equivalent is_compiling branches are replaced by
// the branch the oracle predicts (x * 1.5 where Dynamo traces, x * 0.75 where it runs
// eagerly); with no such branch, the program's own eager outputs.
RC_GTEST_PROP(FuzzProperties, CompiledOutputsEqualEagerOnesOfThePredictedBranches, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  RC_PRE(!program.fullgraph);
  Tag(program);
  const std::string profile = *rc::gen::element(std::string("torch-2.13"), std::string(kNested));
  RC_CLASSIFY(profile == kNested, "nested graph breaks");
  ReferenceRun run = RunOnReference(program, "fuzz/program.py", {}, profile);
  RC_ASSERT(run.error.empty());
  RC_ASSERT(!run.compiled.exception.has_value());
  ReferenceRun predicted = RunOnReference(
      WithBranchesResolved(program, PredictIsCompiling(program, profile == kNested)));
  RC_ASSERT(predicted.error.empty());
  for (const auto& eager_out : predicted.eager.outs) {
    auto it = std::find_if(run.compiled.outs.begin(), run.compiled.outs.end(),
                           [&](const auto& out) { return out.first == eager_out.first; });
    RC_ASSERT(it != run.compiled.outs.end());
    RC_ASSERT(graph::ToJson(it->second).dump() == graph::ToJson(eager_out.second).dump());
  }
}

RC_GTEST_PROP(FuzzProperties, ASecondIdenticalCallCompilesNothing, ()) {
  Program once = *GenProgram(3, kEveryExtension);
  RC_PRE(!once.fullgraph);
  once.call_twice = false;
  Program twice = once;
  twice.call_twice = true;
  RC_ASSERT(RunOnReference(twice).compiled.invocations.size() ==
            RunOnReference(once).compiled.invocations.size());
}

// One backend invocation per graph that has a node (fullgraph's may be empty), and the
// recorder's frame_count counts exactly those invocations.
RC_GTEST_PROP(FuzzProperties, OneBackendInvocationPerNonEmptyGraph, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.error.empty());
  RC_ASSERT(run.compiled.counters.frame_count ==
            static_cast<int64_t>(run.compiled.invocations.size()));
  for (const auto& graph : run.partition.graphs) RC_ASSERT(program.fullgraph || !graph.empty());
}

// Metamorphic (fuzz-anchors §6.3 (3)): a policy-free wrapper around any call changes
// nothing in the partition; needs no oracle, so it also catches bugs the oracle shares.
RC_GTEST_PROP(FuzzProperties, AWrapperAroundACallKeepsThePartition, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  std::optional<Program> wrapped = InsertWrapper(program, *rc::gen::inRange<size_t>(0, 100));
  RC_PRE(wrapped.has_value());
  ReferenceRun before = RunOnReference(program);
  ReferenceRun after = RunOnReference(*wrapped);
  RC_ASSERT(FormatPartition(after.partition) == FormatPartition(before.partition));
}

// Metamorphic: inlining a policy-free callee that cannot break keeps the partition in
// the classic profile; read backwards, so that it applies to almost every program:
// statements moved out into such a callee.
RC_GTEST_PROP(FuzzProperties, InliningACalleeThatCannotBreakKeepsThePartition, ()) {
  Program inlined = *GenProgram(3, kEveryExtension);
  std::optional<Program> outlined =
      ExtractAFunction(inlined, *rc::gen::inRange<size_t>(0, 100), *rc::gen::inRange<size_t>(1, 4));
  RC_PRE(outlined.has_value());
  RC_ASSERT(FormatPartition(RunOnReference(*outlined).partition) ==
            FormatPartition(RunOnReference(inlined).partition));
}

// Metamorphic (a candidate of fuzz-anchors §6.3, checked against the oracle first): one
// more graph break never lowers the number of graphs (fullgraph aside: it turns them
// into Unsupported; and frames that can end without resuming: a break added before them
// can move a call out of the eager rest that offered it, where an allowed function's own
// frame broke, or move a read of K into a skipped resume function, which then does not
// recompile for a new K).
RC_GTEST_PROP(FuzzProperties, AddingAGraphBreakNeverLowersTheGraphCount, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  RC_PRE(!program.fullgraph);
  RC_PRE(std::none_of(program.functions.begin(), program.functions.end(), CanEndItsFrame));
  Program more =
      AddGraphBreak(program, *rc::gen::inRange<size_t>(0, 8), *rc::gen::inRange<size_t>(0, 8));
  RC_ASSERT(PredictPartition(more).graphs.size() >= PredictPartition(program).graphs.size());
  RC_ASSERT(RunOnReference(more).partition.graphs.size() >=
            RunOnReference(program).partition.graphs.size());
}

// Metamorphic: an op replaced by an allow_in_graph function computing it leaves an
// opaque node in its place: the same graphs once that node is read as the op.
RC_GTEST_PROP(FuzzProperties, AnOpReplacedByAnAllowedFunctionKeepsItsPlace, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  std::optional<ReplacedOp> replaced =
      ReplaceAnOpWithAnAllowedFunction(program, *rc::gen::inRange<size_t>(0, 100));
  RC_PRE(replaced.has_value());
  Partition after = RunOnReference(replaced->program).partition;
  for (auto& graph : after.graphs)
    std::replace(graph.begin(), graph.end(), replaced->target, OpTargets(replaced->op).front());
  RC_ASSERT(FormatPartition(after) == FormatPartition(RunOnReference(program).partition));
}

// Id reuse (spec §2.4, §2.5): whatever the define / allow / disallow / del / redefine
// steps, each helper call follows the registry of the id the heap's model gives its
// function (the oracle's own reading of SEMANTICS §6), on a small fixed call tree.
RC_GTEST_PROP(FuzzProperties, HelperIdsFollowTheHeapModel, ()) {
  Program program;
  const Stmt h0{Stmt::Kind::kCallHelper, OpKind::kMulUp, 0},
      h1{Stmt::Kind::kCallHelper, OpKind::kMulUp, 1};
  program.functions = {
      Function{Policy::kNone, {Stmt{}, h0, h1, Stmt{}, Stmt{Stmt::Kind::kCall, OpKind::kMulUp, 1}}},
      Function{Policy::kNone, {h1, Stmt{}, h0}}};
  program.helper_steps = *rc::gen::scale(3.0, GenHelperSteps());
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.error.empty());
  RC_ASSERT(FormatPartition(run.partition) == FormatPartition(PredictPartition(program)));
}

// Metamorphic: with no policy, no break and no disallow, one graph holds every op (none
// when there is no op).
RC_GTEST_PROP(FuzzProperties, WithoutBreaksOrPoliciesThereIsAtMostOneGraph, ()) {
  Program program = WithoutBreaksOrPolicies(*GenProgram(3, kEveryExtension));
  ReferenceRun run = RunOnReference(program);
  RC_ASSERT(run.partition.graphs.size() <= 1);
  RC_ASSERT(!run.partition.unsupported);
}

RC_GTEST_PROP(FuzzProperties, TheCanonicalTextRoundTrips, ()) {
  Program program = *GenProgram(3, kEveryExtension);
  std::string error;
  std::optional<Program> parsed = Parse(Serialize(program), &error);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(Serialize(*parsed) == Serialize(program));
}

// The regression corpus (fuzz/corpus/*.case), replayed before any random program in both
// profiles: the reference agrees with the oracle (Dynamo and ATen graphs) and with the
// partition a case states on its `# expect:` line (`# expect-ngb:` under nested graph
// breaks; worked out by hand from the spec), and its compiled outputs with the eager ones
// of the oracle's branch choices.
class FuzzCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(FuzzCorpus, EveryCaseAgreesWithTheOracleAndEager) {
  const std::string profile = GetParam();
  const bool nested = profile == kNested;
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
    ReferenceRun run = RunOnReference(*program, "fuzz/program.py", {}, profile);
    ASSERT_EQ(run.error, "") << entry.path();
    const std::string partition = FormatPartition(run.partition);
    EXPECT_EQ(partition, FormatPartition(PredictPartition(*program, nested))) << entry.path();
    EXPECT_EQ(FormatAtenPartition(run.partition),
              FormatAtenPartition(PredictPartition(*program, nested)))
        << entry.path();
    const std::regex expect_line(nested ? R"(\n# expect-ngb: ([^\n]*)\n)"
                                        : R"(\n# expect: ([^\n]*)\n)");
    std::smatch expect;
    std::string all = text.str();
    if (std::regex_search(all, expect, expect_line)) {
      EXPECT_EQ(partition, expect[1].str() + " ") << entry.path();
    }
    if (!program->fullgraph) {
      ReferenceRun predicted =
          RunOnReference(WithBranchesResolved(*program, PredictIsCompiling(*program, nested)));
      EXPECT_EQ(graph::ToJson(run.compiled.outs.at(0).second).dump(),
                graph::ToJson(predicted.eager.outs.at(0).second).dump())
          << entry.path();
    }
  }
  EXPECT_GE(cases, 8);
}

INSTANTIATE_TEST_SUITE_P(Profiles, FuzzCorpus, ::testing::Values("torch-2.13", kNested));

// The properties' programs cover the shapes the issue names: each in at least 5% of them
// (fuzz-anchors §6.8: a green run that tested nothing).
TEST(FuzzDistribution, EveryShapeWeCareAboutIsAtLeastFivePercent) {
  ShapeReport report;
  for (uint64_t seed = 1; seed <= 500; ++seed) report.Add(SampleProgram(seed, 40, kEveryExtension));
  for (size_t i = 0; i < ShapeReport::kShapes; ++i) {
    EXPECT_GE(report.count(i) * 20, report.programs()) << report.Format();
  }
}

// Proof the fuzzer bites (issues 8, 10): with one of these rules off, comparing the reference
// with the independent oracle finds a disagreeing program among the first 500 seeds, and
// shrinking brings it to at most 10 statements.
// Each rule with the profile it acts in.
struct GatedRule {
  const char* rule;
  const char* profile = "torch-2.13";
};
void PrintTo(const GatedRule& r, std::ostream* os) { *os << "R-" << r.rule << " in " << r.profile; }
class FuzzGate : public ::testing::TestWithParam<GatedRule> {};

TEST_P(FuzzGate, CatchesTheRuleSwitchedOffAndShrinksIt) {
  std::vector<std::string> off = {GetParam().rule};
  const std::string profile = GetParam().profile;
  auto fails = [&](const Program& p) {
    ReferenceRun run = RunOnReference(p, "fuzz/program.py", off, profile);
    return run.error.empty() && FormatPartition(run.partition) !=
                                    FormatPartition(PredictPartition(p, profile == kNested));
  };
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    Program program = SampleProgram(
        seed, 60, kEveryExtension);  // tdfuzz's size: enough helper steps to reuse ids
    if (!fails(program)) continue;
    Program small = Shrink(program, fails);
    EXPECT_LE(StatementCount(small), 10u) << PrintFixture(small);
    return;
  }
  FAIL() << "no program among 500 seeds notices R-" << GetParam().rule << " switched off in "
         << profile;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, FuzzGate,
    ::testing::Values(GatedRule{"classic-reattribute"}, GatedRule{"empty-graph"},
                      GatedRule{"nonrecursive-run-only"}, GatedRule{"is-compiling-fold"},
                      GatedRule{"allow-finalizer"}, GatedRule{"global-guard"},
                      GatedRule{"skip-frame"}, GatedRule{"step-unsupported"},
                      GatedRule{"step-graph-break"}, GatedRule{"nonstrict-node"},
                      GatedRule{"custom-op-node"}, GatedRule{"data-dependent-branch"},
                      GatedRule{"nested-graph-break", kNested}, GatedRule{"skip-frame", kNested},
                      GatedRule{"step-unsupported", kNested},
                      GatedRule{"step-graph-break", kNested},
                      GatedRule{"data-dependent-branch", kNested}),
    [](const ::testing::TestParamInfo<GatedRule>& gated) {
      std::string name = std::string(gated.param.rule) +
                         (std::string(gated.param.profile) == kNested ? "_ngb" : "");
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
}  // namespace tdc::fuzz
