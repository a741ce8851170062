// Generated programs as cases: their ids, the files written for them, and the reference
// backend passing them while a broken one fails them.
#include "conformance/runner/generated.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance/executor/bundled_backends_testing.h"
#include "conformance/runner/runner.h"
#include "reference/graph/golden_json.h"

namespace tdc::conformance {
namespace {

using testing::LoadBundled;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(GeneratedTest, EachProgramIsACaseInEveryProfileAtBothLevels) {
  const std::vector<std::string> ids = GeneratedCaseIds({2, 41, false});
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "fuzz:reference:seed_41:profile=torch-2.13:level=dynamo",
                     "fuzz:reference:seed_41:profile=torch-2.13:level=aten",
                     "fuzz:reference:seed_41:profile=torch-2.13-ngb:level=dynamo",
                     "fuzz:reference:seed_41:profile=torch-2.13-ngb:level=aten",
                     "fuzz:reference:seed_42:profile=torch-2.13:level=dynamo",
                     "fuzz:reference:seed_42:profile=torch-2.13:level=aten",
                     "fuzz:reference:seed_42:profile=torch-2.13-ngb:level=dynamo",
                     "fuzz:reference:seed_42:profile=torch-2.13-ngb:level=aten",
                 }));
  EXPECT_EQ(GeneratedCaseIds({1, 7, true}).front(),
            "fuzz:torch:seed_7:profile=torch-2.13:level=dynamo");
}

TEST(GeneratedTest, AnIdNamesItsProgramInTheGeneratedFolder) {
  auto spec = ResolveCase("fuzz:torch:seed_7:profile=torch-2.13:level=aten", "out/generated");
  ASSERT_TRUE(std::holds_alternative<CaseSpec>(spec)) << std::get<std::string>(spec);
  EXPECT_EQ(std::get<CaseSpec>(spec).fixture, "out/generated/torch/seed_7.py");
  EXPECT_EQ(
      std::get<std::string>(ResolveCase("fuzz:eager:seed_7:profile=torch-2.13:level=aten", "d")),
      "a generated case's expected outcome is 'reference' or 'torch', not 'eager'");
  EXPECT_EQ(
      std::get<std::string>(ResolveCase("fuzz:torch:seven:profile=torch-2.13:level=aten", "d")),
      "a generated case is seed_<n>, not 'seven'");
}

TEST(GeneratedTest, TheProgramAndItsExpectedOutcomeAreWrittenTheSameEachTime) {
  const std::string dir = ::testing::TempDir() + "/generated_same";
  std::filesystem::remove_all(dir);
  const std::vector<std::string> ids = GeneratedCaseIds({2, 3, false});
  auto first = PrepareGenerated(ids, {dir});
  ASSERT_EQ(first.index(), 0U) << std::get<std::string>(first);
  EXPECT_TRUE(std::get<0>(first).empty());  // nothing decided before running
  const std::string program = Slurp(dir + "/reference/seed_3.py"),
                    golden = Slurp(dir + "/reference/seed_3.golden.json");
  EXPECT_TRUE(program.starts_with("# tdc: profiles all\n")) << program;
  graph::GoldenReadResult read = graph::ReadGolden(golden);
  ASSERT_TRUE(read.golden) << graph::FormatJsonError("seed_3.golden.json", *read.error);
  EXPECT_EQ(read.golden->compiled.size(), 2U);  // both profiles
  EXPECT_FALSE(read.golden->compiled[0].second.invocations.empty());
  PrepareGenerated(ids, {dir});
  EXPECT_EQ(Slurp(dir + "/reference/seed_3.py"), program);
  EXPECT_EQ(Slurp(dir + "/reference/seed_3.golden.json"), golden);
  EXPECT_TRUE(std::filesystem::exists(dir + "/reference/seed_4.golden.json"));
}

TEST(GeneratedTest, TheReferenceBackendPassesGeneratedCasesAndABrokenOneFailsThem) {
  const std::string dir = ::testing::TempDir() + "/generated_run";
  // Seeds 4 and 6 have allowed functions whose bodies read is_compiling(): their ATen graphs
  // compute otherwise than their Dynamo graphs (interpreting_backend.h).
  const std::vector<std::string> ids = GeneratedCaseIds({6, 1, false});
  ASSERT_EQ(PrepareGenerated(ids, {dir}).index(), 0U);
  RunnerOptions options;
  options.jobs = 2;
  options.generated_dir = dir;
  auto reference = LoadBundled("reference");
  ASSERT_TRUE(reference);
  for (const CaseResult& r : RunCases(*reference, ids, options, nullptr)) {
    EXPECT_EQ(StatusName(r.verdict.status), "PASS") << r.id << ": " << FormatVerdict(r.verdict);
  }
  auto broken = LoadBundled("broken_segv_in_run");
  ASSERT_TRUE(broken);
  const Tally tally = Count(RunCases(*broken, ids, options, nullptr));
  EXPECT_GT(tally.failed, 0);
}

}  // namespace
}  // namespace tdc::conformance
