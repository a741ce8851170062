// tdcompare's contract: exit 0 equal, 1 different (one line per difference and a closing
// count), 2 malformed input or bad options (a located `file: error: ...`).
#include "reference/tools/compare_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reference/graph/golden_json.h"
#include "reference/graph/test_files.h"

namespace tdc::tools {
namespace {

using graph::Json;

class CompareCommandTest : public ::testing::Test {
 protected:
  // Writes `text` to a file of the test's own and returns its path.
  std::string Write(const std::string& name, const std::string& text) {
    std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir);
    std::filesystem::path path = dir / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  int Run(CompareCommand command) {
    std::ostringstream out;
    std::ostringstream err;
    int status = RunCompare(command, out, err);
    out_ = out.str();
    err_ = err.str();
    return status;
  }

  std::string sample_ = graph::testing::SampleGoldenText();
  std::string out_;
  std::string err_;
};

std::string ChangedOpCount(const std::string& text, int op_count) {
  Json json = Json::parse(text);
  json["compiled"]["torch-2.13"]["counters"]["op_count"] = op_count;
  return json.dump(1);
}

TEST_F(CompareCommandTest, EqualDocumentsExitZero) {
  std::string a = Write("a.json", sample_);
  EXPECT_EQ(Run({a, a, {}, {}, {}}), kCompareEqual);
  EXPECT_EQ(out_, "0 differences\n");
  EXPECT_EQ(err_, "");
}

TEST_F(CompareCommandTest, DifferencesArePrintedAndCounted) {
  std::string a = Write("a.json", sample_);
  std::string b = Write("b.json", ChangedOpCount(sample_, 9));
  EXPECT_EQ(Run({a, b, {}, {}, {}}), kCompareDifferent);
  EXPECT_EQ(out_, "compiled[\"torch-2.13\"].counters.op_count: expected 6, got 9\n1 difference\n");
  Json two = Json::parse(ChangedOpCount(sample_, 9));
  two["eager"]["outs"]["out_bool"]["bool"] = false;
  std::string c = Write("c.json", two.dump(1));
  EXPECT_EQ(Run({a, c, {}, {}, {}}), kCompareDifferent);
  EXPECT_TRUE(out_.ends_with("\n2 differences\n")) << out_;
  // The options reach the comparator.
  EXPECT_EQ(Run({a, c, {"counters"}, {}, {}}), kCompareDifferent);
  EXPECT_TRUE(out_.ends_with("\n1 difference\n")) << out_;
  EXPECT_EQ(Run({a, c, {}, {}, compare::Mode::kCompile}), kCompareDifferent);
  EXPECT_TRUE(out_.ends_with("\n1 difference\n")) << out_;
  EXPECT_EQ(Run({a, c, {}, "torch-2.13-ngb", compare::Mode::kCompile}), kCompareEqual);
}

TEST_F(CompareCommandTest, MalformedInputExitsTwoWithALocatedError) {
  std::string a = Write("a.json", sample_);
  std::string bad = Write("bad.json", "{\n \"schema\": 1,\n}\n");
  EXPECT_EQ(Run({a, bad, {}, {}, {}}), kCompareError);
  EXPECT_EQ(out_, "");
  EXPECT_TRUE(err_.starts_with(bad + ":3:1: error: invalid JSON: syntax error")) << err_;

  Json wrong = Json::parse(sample_);
  wrong["compiled"]["torch-2.13"]["invocations"][0]["recompile"] = "no";
  std::string w = Write("wrong.json", wrong.dump(1));
  EXPECT_EQ(Run({w, a, {}, {}, {}}), kCompareError);
  EXPECT_EQ(err_, w + ": error: compiled[\"torch-2.13\"].invocations[0].recompile: expected "
                      "true or false, got the string \"no\"\n");

  EXPECT_EQ(Run({a, a + ".missing", {}, {}, {}}), kCompareError);
  EXPECT_EQ(err_, a + ".missing: error: cannot read file\n");
}

TEST_F(CompareCommandTest, BadOptionsExitTwo) {
  std::string a = Write("a.json", sample_);
  EXPECT_EQ(Run({a, a, {"nodes", "no_such_field"}, {}, {}}), kCompareError);
  EXPECT_EQ(err_,
            "tdcompare: error: --mask no_such_field: not a golden field name (nor "
            "\"aten\")\n");
  EXPECT_EQ(Run({a, a, {}, "torch-9", {}}), kCompareError);
  EXPECT_EQ(err_, a + ": error: the expected document has no profile \"torch-9\"\n");
}

}  // namespace
}  // namespace tdc::tools
