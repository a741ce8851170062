// Case ids (DESIGN.md D8, fixtures/SCHEMA.md §11): `suite:group:case[:key=value]...`.
//
// One id names a case everywhere: the ctest test, the expectation-manifest entry, the
// repro command and the report anchor. Each component (suite, group, case, every key and
// value) is written with the bytes [A-Za-z0-9_.-] as themselves and every other byte as
// `%XX` (two upper-case hex digits). The written form is canonical: ParseCaseId accepts
// exactly the strings FormatCaseId produces, so an id has one spelling.
#ifndef TDCONFORM_REFERENCE_BASE_CASE_ID_H_
#define TDCONFORM_REFERENCE_BASE_CASE_ID_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tdc {

struct CaseParam {
  std::string key;
  std::string value;
  friend bool operator==(const CaseParam&, const CaseParam&) = default;
};

// An id with its components unescaped (raw bytes).
struct CaseId {
  std::string suite;              // e.g. "fixtures"
  std::string group;              // e.g. "seed"
  std::string name;               // the case, e.g. "example5_graph_break"
  std::vector<CaseParam> params;  // in written order, e.g. profile=torch-2.13, mode=compile
  friend bool operator==(const CaseId&, const CaseId&) = default;
};

struct CaseIdParse {
  std::optional<CaseId> id;  // Set exactly when `error` is empty.
  std::string error;         // Why the text is not a canonical case id.
};

// Parses the written form. Rejects empty components, fewer than three components, a
// parameter without `=`, a raw byte outside [A-Za-z0-9_.-], and an escape that is
// malformed, lower-case or escapes a byte that needs none.
CaseIdParse ParseCaseId(std::string_view text);

// The written form.
std::string FormatCaseId(const CaseId& id);

// One component with its bytes outside [A-Za-z0-9_.-] written `%XX`.
std::string EscapeCaseIdComponent(std::string_view raw);

// An anchored ctest regex (`ctest -R`) matching exactly the written id: `^...$` with the
// metacharacters of CMake's regex syntax escaped by a backslash.
std::string CaseIdCtestRegex(const CaseId& id);

// The GoogleTest name of a case: the suite component is the test suite; the rest, with
// `:` written `/`, is the test name. A filter pattern treats `:` `*` `?` `-` specially,
// so `*`, `?` and `-` are written `%XX` in both (`:` no longer occurs).
struct GtestName {
  std::string suite;
  std::string test;
};
GtestName CaseIdGtestName(const CaseId& id);

// The --gtest_filter pattern selecting exactly that test: `Suite.Test`.
std::string CaseIdGtestFilter(const CaseId& id);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_CASE_ID_H_
