// `tdref verify`'s contract: `N passed, M failed`, exit 0 all match, 1 one differs, 2 an
// error; with --expect-differ (the rule switch-off tests) `N differ, M match` and exit 0
// only when every file differs, an error never counting as a difference.
#include "reference/tools/run_command.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "reference/graph/golden_json.h"
#include "reference/graph/test_files.h"

namespace tdc::tools {
namespace {

using graph::Json;

// A recorded fixture whose eager outcome the reference reproduces (ctest
// fixtures:version:msg_non_callable:mode=eager).
constexpr char kFixture[] = "fixtures/version/msg_non_callable";

class VerifyTest : public ::testing::Test {
 protected:
  // Writes `<stem>.py` and `<stem>.golden.json` into the test's own folder; the program.
  std::string WriteCase(const std::string& stem, const std::string& program,
                        const std::string& golden) {
    std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir);
    std::ofstream(dir / (stem + ".golden.json"), std::ios::binary) << golden;
    std::filesystem::path path = dir / (stem + ".py");
    std::ofstream(path, std::ios::binary) << program;
    return path.string();
  }

  // The fixture with its golden as recorded, or with one out changed.
  std::string Matching() { return WriteCase("matching", program_, golden_); }
  std::string Differing() {
    Json json = Json::parse(golden_);
    json["eager"]["outs"]["out_allow_type"]["str"] = "TypeError";
    return WriteCase("differing", program_, json.dump(1) + "\n");
  }

  int Verify(const std::vector<std::string>& files, const VerifyOptions& options) {
    std::ostringstream out;
    std::ostringstream err;
    int status = RunVerify(files, options, out, err);
    out_ = out.str();
    err_ = err.str();
    return status;
  }

  std::string program_ =
      graph::testing::ReadSourceFile(std::string(kFixture) + ".py").value_or("");
  std::string golden_ =
      graph::testing::ReadSourceFile(std::string(kFixture) + ".golden.json").value_or("");
  std::string out_;
  std::string err_;
};

VerifyOptions ExpectDiffer() {
  VerifyOptions options;
  options.expect_differ = true;
  return options;
}

TEST_F(VerifyTest, CountsPassedAndFailed) {
  ASSERT_FALSE(program_.empty());
  EXPECT_EQ(Verify({Matching()}, {}), 0);
  EXPECT_EQ(out_, "1 passed, 0 failed\n");
  EXPECT_EQ(Verify({Matching(), Differing()}, {}), 1);
  EXPECT_TRUE(out_.starts_with("eager.outs[\"out_allow_type\"].str: expected \"TypeError\", "
                              "got \"AssertionError\"\n"))
      << out_;
  EXPECT_TRUE(out_.ends_with("differing.py: differs from its golden\n1 passed, 1 failed\n"))
      << out_;
  EXPECT_EQ(err_, "");
}

TEST_F(VerifyTest, ExpectDifferSucceedsOnlyWhenEveryFileDiffers) {
  ASSERT_FALSE(program_.empty());
  EXPECT_EQ(Verify({Differing()}, ExpectDiffer()), 0);
  EXPECT_TRUE(out_.ends_with("\n1 differ, 0 match\n")) << out_;
  EXPECT_EQ(Verify({Differing(), Matching()}, ExpectDiffer()), 1);
  EXPECT_TRUE(out_.ends_with(
      "matching.py: matches its golden (a difference was expected)\n1 differ, 1 match\n"))
      << out_;
}

TEST_F(VerifyTest, AnErrorIsNoDifference) {
  ASSERT_FALSE(program_.empty());
  std::string broken = WriteCase("broken", "out = (\n", golden_);
  EXPECT_EQ(Verify({Differing(), broken}, ExpectDiffer()), 2);
  EXPECT_TRUE(out_.ends_with("\n1 differ, 0 match\n")) << out_;
  EXPECT_TRUE(err_.starts_with(broken + ":")) << err_;
  EXPECT_EQ(Verify({broken}, {}), 2);
  EXPECT_EQ(out_, "0 passed, 1 failed\n");
}

TEST_F(VerifyTest, BadOptionsExitTwo) {
  ASSERT_FALSE(program_.empty());
  VerifyOptions masked;
  masked.masks = {"no_such_field"};
  EXPECT_EQ(Verify({Matching()}, masked), 2);
  EXPECT_EQ(out_, "");
  EXPECT_EQ(err_, "tdref: error: --mask no_such_field: not a golden field name (nor "
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

}  // namespace
}  // namespace tdc::tools
