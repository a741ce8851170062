// A failure's folder holds the case, its program, both outcomes and every graph the backend
// was given with its inputs; a crash still leaves the graph it crashed in; a pass removes it.
#include "conformance/runner/failure_folder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance/executor/bundled_backends_testing.h"

namespace tdc::conformance {
namespace {

using testing::LoadBundled;
using Json = nlohmann::ordered_json;

constexpr const char* kAdd =
    "fixtures:allow_in_graph:s02_allow_then_disallow:profile=torch-2.13:level=dynamo";
constexpr const char* kAddFixture = "fixtures/allow_in_graph/s02_allow_then_disallow";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Json ReadJson(const std::string& path) { return Json::parse(Slurp(path), nullptr, false); }

// The case run by `backend`, its folder updated under `dir`.
CaseResult RunAndKeep(const std::string& backend, const std::string& dir) {
  auto loaded = LoadBundled(backend);
  if (!loaded) return {};
  CaseResult result;
  result.id = kAdd;
  result.verdict =
      RunCase(*loaded, std::get<CaseSpec>(ResolveCase(kAdd)), {30, false, {}}, &result.records);
  EXPECT_FALSE(UpdateFailureFolder(dir, "", result, "repro " + backend));
  return result;
}

TEST(FailureFolderTest, AWrongValueLeavesTheGraphItsInputsAndBothOutputs) {
  const std::string dir = ::testing::TempDir() + "/failures_wrong";
  std::filesystem::remove_all(dir);
  CaseResult result = RunAndKeep("broken_wrong_numerics", dir);
  ASSERT_EQ(StatusName(result.verdict.status), "FAIL");
  const std::string folder = dir + "/" + kAdd;
  Json about = ReadJson(folder + "/case.json");
  EXPECT_EQ(about["id"], kAdd);
  EXPECT_EQ(about["verdict"]["reason"], "value_mismatch");
  EXPECT_EQ(about["repro"], "repro broken_wrong_numerics");
  EXPECT_EQ(Slurp(folder + "/program.py"), Slurp(std::string(kAddFixture) + ".py"));
  EXPECT_EQ(Slurp(folder + "/expected.json"), Slurp(std::string(kAddFixture) + ".golden.json"));
  Json graph = ReadJson(folder + "/graphs/0.json");
  ASSERT_FALSE(graph.is_discarded());
  EXPECT_EQ(graph["what"], "graph 0/0 (dynamo level)");
  EXPECT_FALSE(graph["graph"]["nodes"].empty());
  EXPECT_FALSE(graph["inputs"].empty());
  ASSERT_EQ(graph["backend_outputs"].size(), graph["expected"].size());
  EXPECT_NE(graph["backend_outputs"], graph["expected"]);  // the wrong values, as returned
  EXPECT_EQ(graph["backend_outputs"][0]["tensor"]["shape"],
            graph["expected"][0]["tensor"]["shape"]);
}

TEST(FailureFolderTest, ACrashLeavesTheGraphItCrashedInAndAPassRemovesTheFolder) {
  const std::string dir = ::testing::TempDir() + "/failures_crash";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(StatusName(RunAndKeep("broken_segv_in_run", dir).verdict.status), "CRASH");
  const std::string folder = dir + "/" + kAdd;
  Json graph = ReadJson(folder + "/graphs/0.json");
  ASSERT_FALSE(graph.is_discarded());
  EXPECT_FALSE(graph["inputs"].empty());
  EXPECT_FALSE(graph.contains("backend_outputs"));  // it never returned
  EXPECT_FALSE(std::filesystem::exists(folder + "/actual.json"));
  // A second failure replaces the folder whole; a pass removes it.
  ASSERT_EQ(StatusName(RunAndKeep("broken_wrong_numerics", dir).verdict.status), "FAIL");
  EXPECT_EQ(ReadJson(folder + "/case.json")["verdict"]["status"], "FAIL");
  ASSERT_EQ(StatusName(RunAndKeep("template", dir).verdict.status), "PASS");
  EXPECT_FALSE(std::filesystem::exists(folder));
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // no temporary folder left behind
}

TEST(FailureFolderTest, AProgramThatFailsAsAWholeLeavesBothOutcomes) {
  // The program's outcome differs while each graph's outputs are right: an expected outcome
  // edited to want another value.
  const std::string dir = ::testing::TempDir() + "/failures_outcome";
  std::filesystem::remove_all(dir);
  const std::string generated = dir + "/generated";
  std::filesystem::create_directories(generated + "/reference");
  std::filesystem::copy_file(std::string(kAddFixture) + ".py", generated + "/reference/seed_1.py");
  Json golden = ReadJson(std::string(kAddFixture) + ".golden.json");
  golden["compiled"]["torch-2.13"]["counters"]["frame_count"] = 99;
  std::ofstream(generated + "/reference/seed_1.golden.json") << golden.dump(1) << "\n";
  auto loaded = LoadBundled("reference");
  ASSERT_TRUE(loaded);
  CaseResult result;
  result.id = "fuzz:reference:seed_1:profile=torch-2.13:level=dynamo";
  result.verdict = RunCase(*loaded, std::get<CaseSpec>(ResolveCase(result.id, generated)),
                           {30, false, {}}, &result.records);
  ASSERT_EQ(FormatVerdict(result.verdict).substr(0, 27), "FAIL compare/value_mismatch");
  ASSERT_FALSE(UpdateFailureFolder(dir + "/failures", generated, result, "r"));
  const std::string folder = dir + "/failures/" + result.id;
  EXPECT_EQ(
      ReadJson(folder + "/expected.json")["compiled"]["torch-2.13"]["counters"]["frame_count"], 99);
  Json actual = ReadJson(folder + "/actual.json");
  ASSERT_FALSE(actual.is_discarded());
  EXPECT_EQ(actual["compiled"]["torch-2.13"]["counters"]["frame_count"],
            ReadJson(std::string(kAddFixture) +
                     ".golden.json")["compiled"]["torch-2.13"]["counters"]["frame_count"]);
  EXPECT_TRUE(std::filesystem::exists(folder + "/graphs/0.json"));
}

}  // namespace
}  // namespace tdc::conformance
