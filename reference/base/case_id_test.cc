#include "reference/base/case_id.h"

#include <gtest/gtest.h>

#include <regex>

namespace tdc {
namespace {

CaseId Fixture(std::string group, std::string name, std::vector<CaseParam> params = {}) {
  return CaseId{"fixtures", std::move(group), std::move(name), std::move(params)};
}

TEST(CaseIdTest, FormatsTheSchemaExample) {
  CaseId id = Fixture("seed", "example3_disallow_in_graph",
                      {{"profile", "torch-2.13"}, {"mode", "compile"}});
  EXPECT_EQ(FormatCaseId(id),
            "fixtures:seed:example3_disallow_in_graph:profile=torch-2.13:mode=compile");
}

TEST(CaseIdTest, ParsesWhatItFormats) {
  const char* texts[] = {
      "fixtures:seed:example5_graph_break",
      "fixtures:seed:example3_disallow_in_graph:profile=torch-2.13:mode=compile",
      "fuzz:gen.v1:case-007:seed=%2A%3A%3D",
      "fixtures:version%2Fsub:a%20b%25c%C3%A9",
  };
  for (const char* text : texts) {
    CaseIdParse parsed = ParseCaseId(text);
    ASSERT_TRUE(parsed.id) << text << ": " << parsed.error;
    EXPECT_EQ(FormatCaseId(*parsed.id), text);
  }
}

TEST(CaseIdTest, EscapesBytesOutsideTheComponentAlphabet) {
  CaseId id = Fixture("version/sub", "a b%c\xC3\xA9", {{"k:=", "x*y?"}});
  EXPECT_EQ(FormatCaseId(id), "fixtures:version%2Fsub:a%20b%25c%C3%A9:k%3A%3D=x%2Ay%3F");
  CaseIdParse parsed = ParseCaseId(FormatCaseId(id));
  ASSERT_TRUE(parsed.id) << parsed.error;
  EXPECT_EQ(*parsed.id, id);
  EXPECT_EQ(parsed.id->group, "version/sub");
  EXPECT_EQ(parsed.id->params[0].value, "x*y?");
}

TEST(CaseIdTest, RejectsNonCanonicalText) {
  struct Bad {
    const char* text;
    const char* why;  // A piece of the message.
  };
  const Bad bad[] = {
      {"fixtures:seed", "needs suite:group:case"},
      {"fixtures::x", "empty group"},
      {"fixtures:seed:x:profile", "is not key=value"},
      {"fixtures:seed:x:=v", "empty parameter key"},
      {"fixtures:seed:x:k=", "empty parameter value"},
      {"fixtures:seed:a b", "byte 0x20 in case"},
      {"fixtures:seed:a%2f", "two upper-case hex digits"},
      {"fixtures:seed:a%2", "two upper-case hex digits"},
      {"fixtures:seed:a%41", "needless escape %41"},
      {"fixtures:seed:x:k=a=b", "byte 0x3D in parameter value"},
  };
  for (const Bad& b : bad) {
    CaseIdParse parsed = ParseCaseId(b.text);
    EXPECT_FALSE(parsed.id) << b.text;
    EXPECT_NE(parsed.error.find(b.why), std::string::npos) << b.text << ": " << parsed.error;
  }
}

TEST(CaseIdTest, CtestRegexMatchesExactlyTheId) {
  CaseId id = Fixture("seed", "example3", {{"profile", "torch-2.13"}, {"mode", "compile"}});
  std::string regex = CaseIdCtestRegex(id);
  EXPECT_EQ(regex, "^fixtures:seed:example3:profile=torch-2\\.13:mode=compile$");
  // CMake's regex syntax agrees with ECMAScript on these escapes and anchors.
  std::regex re(regex);
  EXPECT_TRUE(std::regex_search(FormatCaseId(id), re));
  EXPECT_FALSE(std::regex_search("fixtures:seed:example3:profile=torch-2x13:mode=compile", re));
  EXPECT_FALSE(std::regex_search("fixtures:seed:example3:profile=torch-2.13:mode=compile2", re));
  EXPECT_FALSE(std::regex_search("xfixtures:seed:example3:profile=torch-2.13:mode=compile", re));
}

TEST(CaseIdTest, GtestNameAndFilterAvoidFilterMetacharacters) {
  CaseId id = Fixture("seed", "example3", {{"profile", "torch-2.13"}, {"mode", "compile"}});
  GtestName name = CaseIdGtestName(id);
  EXPECT_EQ(name.suite, "fixtures");
  EXPECT_EQ(name.test, "seed/example3/profile=torch%2D2.13/mode=compile");
  EXPECT_EQ(CaseIdGtestFilter(id), "fixtures.seed/example3/profile=torch%2D2.13/mode=compile");

  CaseId odd = Fixture("a-b", "c*d?e:f");
  std::string filter = CaseIdGtestFilter(odd);
  EXPECT_EQ(filter, "fixtures.a%2Db/c%2Ad%3Fe%3Af");
  EXPECT_EQ(filter.find_first_of(":*?-"), std::string::npos);
}

}  // namespace
}  // namespace tdc
