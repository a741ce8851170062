// `tdref verify`'s contract: `N passed, M failed`, exit 0 all match, 1 one differs, 2 an
// error; with --switch-off R-x (the rule switch-off tests, DESIGN.md Tests) only the files
// whose golden's header cites R-x run, with R-x off: `R-x: N cite it, D differ, M match`,
// exit 0 when one differs, 1 when none cites it or all match, 2 on an error (a crash is
// never a difference).
#include "reference/tools/run_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "reference/graph/golden_json.h"
#include "reference/graph/test_files.h"
#include "reference/tools/verify_command.h"

namespace tdc::tools {
namespace {

using graph::Json;

// A recorded fixture whose eager outcome the reference reproduces (ctest
// fixtures:version:msg_non_callable:mode=eager).
constexpr char kFixture[] = "fixtures/version/msg_non_callable";
// A recorded fixture whose compiled outcome the reference reproduces (ctest
// fixtures:graph_break:s05_graph_break_three_graphs:profile=torch-2.13:mode=compile), and
// which differs from its golden with R-graph-break-call off (no graph breaks, one graph).
constexpr char kCompileFixture[] = "fixtures/graph_break/s05_graph_break_three_graphs";

class VerifyTest : public ::testing::Test {
 protected:
  // Writes `<stem>.py` and `<stem>.golden.json` into the test's own folder; the program.
  std::string WriteCase(const std::string& stem, const std::string& program,
                        const std::string& golden) {
    std::filesystem::path path = CasePath(stem);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(std::filesystem::path(path).replace_extension(".golden.json"), std::ios::binary)
        << golden;
    std::ofstream(path, std::ios::binary) << program;
    return path.string();
  }
  std::filesystem::path CasePath(const std::string& stem) {
    return std::filesystem::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name() / (stem + ".py");
  }

  // The fixture with its golden as recorded, or with one out changed.
  std::string Matching() { return WriteCase("matching", program_, golden_); }
  std::string Differing() {
    Json json = Json::parse(golden_);
    json["eager"]["outs"]["out_allow_type"]["str"] = "TypeError";
    return WriteCase("differing", program_, json.dump(1) + "\n");
  }

  // The compile fixture with its golden as recorded but for the header's rules, and the
  // file its graph breaks name (the copy's path, as tdref names a file outside the tree).
  std::string Citing(const std::string& stem, const std::vector<std::string>& rules,
                     const std::string& program = "") {
    Json json = Json::parse(GoldenOfCopy(kCompileFixture, stem));
    json["meta"]["header"]["rules"] = rules;
    return WriteCase(stem, program.empty() ? compile_program_ : program, json.dump(1) + "\n");
  }

  // `fixture`'s golden, naming the copy `<stem>.py` where it names the fixture's file.
  std::string GoldenOfCopy(const std::string& fixture, const std::string& stem) {
    std::string golden = graph::testing::ReadSourceFile(fixture + ".golden.json").value_or("");
    std::string recorded = Json(fixture + ".py").dump();
    std::string copy = Json(CasePath(stem).string()).dump();
    for (size_t at = golden.find(recorded); at != std::string::npos;
         at = golden.find(recorded, at + copy.size())) {
      golden.replace(at, recorded.size(), copy);
    }
    return golden;
  }

  int Verify(const std::vector<std::string>& files, const VerifyOptions& options) {
    std::ostringstream out;
    std::ostringstream err;
    int status = RunVerify(files, options, out, err);
    out_ = out.str();
    err_ = err.str();
    return status;
  }

  std::string program_ = graph::testing::ReadSourceFile(std::string(kFixture) + ".py").value_or("");
  std::string golden_ =
      graph::testing::ReadSourceFile(std::string(kFixture) + ".golden.json").value_or("");
  std::string compile_program_ =
      graph::testing::ReadSourceFile(std::string(kCompileFixture) + ".py").value_or("");
  std::string out_;
  std::string err_;
};

// The compile ctests' options (fixtures/CMakeLists.txt), with `--switch-off rule`.
VerifyOptions Compile(const std::string& rule = "") {
  VerifyOptions options;
  options.run.mode = "compile";
  options.run.profile = "torch-2.13";
  options.masks = {"aten"};
  options.switch_off = rule;
  return options;
}

TEST_F(VerifyTest, CountsPassedAndFailed) {
  ASSERT_FALSE(program_.empty());
  EXPECT_EQ(Verify({Matching()}, {}), 0);
  EXPECT_EQ(out_, "1 passed, 0 failed\n");
  EXPECT_EQ(Verify({Matching(), Differing()}, {}), 1);
  EXPECT_TRUE(
      out_.starts_with("eager.outs[\"out_allow_type\"].str: expected \"TypeError\", "
                       "got \"AssertionError\"\n"))
      << out_;
  EXPECT_TRUE(out_.ends_with("differing.py: differs from its golden\n1 passed, 1 failed\n"))
      << out_;
  EXPECT_EQ(err_, "");
}

// `--expect-unsupported` (fixtures that await more of the model): a refusal passes, so does
// agreement with the golden; any other answer fails.
TEST_F(VerifyTest, ExpectUnsupportedPassesARefusalOrAgreementNeverAnotherAnswer) {
  ASSERT_FALSE(program_.empty());
  VerifyOptions awaiting;
  awaiting.expect_unsupported = true;
  std::string refused = WriteCase("refused", "import torch\nout = torch.library.define\n", golden_);
  EXPECT_EQ(Verify({refused}, awaiting), 0);
  EXPECT_TRUE(out_.ends_with("1 refused as expected, 0 predicted, 0 failed\n")) << out_;
  EXPECT_EQ(Verify({Matching()}, awaiting), 0);
  EXPECT_TRUE(
      out_.ends_with("matching.py: predicted, although its header says it awaits more "
                     "of the model\n0 refused as expected, 1 predicted, 0 failed\n"))
      << out_;
  EXPECT_EQ(Verify({refused, Differing()}, awaiting), 1);
  EXPECT_NE(out_.find("differing.py: answered differently from its golden"), std::string::npos)
      << out_;
  EXPECT_TRUE(out_.ends_with("1 refused as expected, 0 predicted, 1 failed\n")) << out_;
}

TEST_F(VerifyTest, AnErrorFailsTheRun) {
  ASSERT_FALSE(program_.empty());
  std::string broken = WriteCase("broken", "out = (\n", golden_);
  EXPECT_EQ(Verify({Matching(), broken}, {}), 2);
  EXPECT_EQ(out_, "1 passed, 1 failed\n");
  EXPECT_TRUE(err_.starts_with(broken + ":")) << err_;
}

TEST_F(VerifyTest, BadOptionsExitTwo) {
  ASSERT_FALSE(program_.empty());
  VerifyOptions masked;
  masked.masks = {"no_such_field"};
  EXPECT_EQ(Verify({Matching()}, masked), 2);
  EXPECT_EQ(out_, "");
  EXPECT_EQ(err_,
            "tdref: error: --mask no_such_field: not a golden field name (nor "
            "\"aten\")\n");
  VerifyOptions eager_rules;
  eager_rules.run.disabled_rules = {"R-cache-hit"};
  EXPECT_EQ(Verify({Matching()}, eager_rules), 2);
  EXPECT_EQ(err_, "error: --disable-rule switches off Dynamo rules: use --mode compile\n");
}

TEST_F(VerifyTest, CompileModeComparesOnlyTheProfile) {
  ASSERT_FALSE(program_.empty());
  VerifyOptions options;
  options.run.mode = "compile";
  options.run.profile = "torch-9";
  // The golden has no such profile: an error, whatever the reference predicts.
  EXPECT_EQ(Verify({Matching()}, options), 2);
  EXPECT_EQ(out_, "0 passed, 1 failed\n");
  EXPECT_FALSE(err_.empty());
}

TEST_F(VerifyTest, SwitchOffPassesWhenACitingFileDiffers) {
  ASSERT_FALSE(compile_program_.empty());
  std::string cites = Citing("cites", {"R-graph-break-call"});
  std::string bare = Citing("bare", {"graph-break-call"});  // the `R-` may be left out
  std::string other = Citing("other", {"R-forbidden"});
  EXPECT_EQ(Verify({cites, bare, other}, Compile()), 0) << out_ << err_;  // as recorded
  EXPECT_EQ(Verify({cites, other, Matching()}, Compile("R-graph-break-call")), 0) << err_;
  EXPECT_TRUE(
      out_.starts_with("compiled[\"torch-2.13\"].invocations: expected length 3, "
                       "got length 1\n"))
      << out_;
  EXPECT_TRUE(
      out_.ends_with("cites.py: differs from its golden\n"
                     "R-graph-break-call: 1 cite it, 1 differ, 0 match\n"))
      << out_;
  EXPECT_EQ(Verify({bare}, Compile("graph-break-call")), 0) << err_;
  EXPECT_TRUE(out_.ends_with("R-graph-break-call: 1 cite it, 1 differ, 0 match\n")) << out_;
  EXPECT_EQ(err_, "");
}

TEST_F(VerifyTest, SwitchOffFailsWhenNoFixtureCitesTheRule) {
  ASSERT_FALSE(compile_program_.empty());
  EXPECT_EQ(Verify({Citing("other", {"R-forbidden"}), Matching()}, Compile("R-graph-break-call")),
            1);
  EXPECT_EQ(out_,
            "R-graph-break-call: 0 cite it, 0 differ, 0 match\n"
            "R-graph-break-call: no fixture cites this rule\n");
  EXPECT_EQ(err_, "");
}

TEST_F(VerifyTest, SwitchOffFailsWhenEveryCitingFileMatches) {
  ASSERT_FALSE(compile_program_.empty());
  // R-forbidden plays no part in this program: with it off, the outcome is unchanged.
  std::string cites = Citing("cites", {"R-forbidden"});
  EXPECT_EQ(Verify({cites}, Compile("R-forbidden")), 1) << err_;
  EXPECT_EQ(out_, cites +
                      ": matches its golden with R-forbidden off\n"
                      "R-forbidden: 1 cite it, 0 differ, 1 match\n");
  EXPECT_EQ(err_, "");
}

TEST_F(VerifyTest, SwitchOffCountsAnErrorAsNoDifference) {
  ASSERT_FALSE(compile_program_.empty());
  std::string cites = Citing("cites", {"R-graph-break-call"});
  std::string broken = Citing("broken", {"R-graph-break-call"}, "out = (\n");
  EXPECT_EQ(Verify({cites, broken}, Compile("R-graph-break-call")), 2);
  EXPECT_TRUE(out_.ends_with("R-graph-break-call: 2 cite it, 1 differ, 0 match\n")) << out_;
  EXPECT_TRUE(err_.starts_with(broken + ":")) << err_;
  // A golden that cannot be read may cite the rule: an error too.
  std::string missing = (std::filesystem::path(cites).parent_path() / "missing.py").string();
  EXPECT_EQ(Verify({cites, missing}, Compile("R-graph-break-call")), 2);
  EXPECT_TRUE(out_.ends_with("R-graph-break-call: 1 cite it, 1 differ, 0 match\n")) << out_;
  EXPECT_TRUE(err_.find("missing.golden.json:1:1: error: cannot read the golden") !=
              std::string::npos)
      << err_;
}

TEST_F(VerifyTest, SwitchOffNeedsCompileModeAndAKnownRule) {
  ASSERT_FALSE(compile_program_.empty());
  std::string cites = Citing("cites", {"R-graph-break-call"});
  VerifyOptions eager;
  eager.switch_off = "R-graph-break-call";
  EXPECT_EQ(Verify({cites}, eager), 2);
  EXPECT_EQ(out_, "");
  EXPECT_EQ(err_, "error: --switch-off switches off a Dynamo rule: use --mode compile\n");
  EXPECT_EQ(Verify({cites}, Compile("R-no-such-rule")), 2);
  EXPECT_EQ(out_, "");
  EXPECT_EQ(err_,
            "error: --switch-off R-no-such-rule: unknown rule "
            "(reference/dynamo/rules.def)\n");
}

}  // namespace
}  // namespace tdc::tools

namespace tdc::tools {
namespace {

// A copy of a recorded id-reuse fixture whose golden says torch decided the other way
// (out_reused negated in the compiled profile), with `edit` applied after; the program.
class AllocatorDivergenceTest : public VerifyTest {
 protected:
  std::string FlippedReuse(const std::string& fixture,
                           const std::function<void(Json&)>& edit = nullptr) {
    std::string stem = std::filesystem::path(fixture).filename().string();
    Json json = Json::parse(GoldenOfCopy(fixture, stem));
    Json& reused = json["compiled"]["torch-2.13"]["outs"]["out_reused"]["bool"];
    reused = !reused.get<bool>();
    if (edit) edit(json);
    return WriteCase(stem, graph::testing::ReadSourceFile(fixture + ".py").value_or(""),
                     json.dump(1) + "\n");
  }
};

TEST_F(AllocatorDivergenceTest, OnlyOutReusedDiffersAndOneFlippedDecisionExplainsIt) {
  // allow_in_graph's finalizer: whether the id is reused changes nothing else (S3).
  std::string file = FlippedReuse("fixtures/allow_in_graph/s03_allow_in_graph_no_id_reuse");
  EXPECT_EQ(Verify({file}, Compile()), 0);
  EXPECT_NE(
      out_.find("s03_allow_in_graph_no_id_reuse.py: allocator_divergence: only out_reused differs"),
      std::string::npos)
      << out_;
  EXPECT_TRUE(out_.ends_with("1 passed, 0 failed (1 of the passed: allocator_divergence)\n"))
      << out_;
}

TEST_F(AllocatorDivergenceTest, NotWhenTheReuseDecisionChangesOtherFields) {
  // disallow_in_graph has no finalizer: without the reuse there is no inherited break, so
  // the rerun with torch's decision does not match the recorded graphs: a real failure.
  std::string file = FlippedReuse("fixtures/disallow_in_graph/disallow_id_reuse_inherited");
  EXPECT_EQ(Verify({file}, Compile()), 1);
  EXPECT_TRUE(out_.ends_with(
      "disallow_id_reuse_inherited.py: differs from its golden\n0 passed, 1 failed\n"))
      << out_;
}

TEST_F(AllocatorDivergenceTest, NotWhenAnotherFieldDiffersToo) {
  std::string file =
      FlippedReuse("fixtures/allow_in_graph/s03_allow_in_graph_no_id_reuse",
                   [](Json& json) { json["compiled"]["torch-2.13"]["counters"]["op_count"] = 99; });
  EXPECT_EQ(Verify({file}, Compile()), 1);
  EXPECT_TRUE(out_.ends_with("0 passed, 1 failed\n")) << out_;
}

}  // namespace
}  // namespace tdc::tools
