// Expectation files (`--expectations FILE`): the failures a backend's CI accepts for now.
// One entry a line, `#` comments:
//   PATTERN  STATUS  [expires=YYYY-MM-DD]  REASON...
// PATTERN is a case-id glob (selection.h), STATUS the non-PASS status expected (FAIL, CRASH,
// TIMEOUT, NOT_SUPPORTED, ...), REASON the why, required (a bug link, a plan). A case's
// first matching entry that has not expired applies: the expected status becomes XFAIL, a
// PASS becomes XPASS, any other status stays. An entry that matched no case, or only cases
// that passed, is stale; --strict fails the run on an XPASS or a stale entry. A UTF-8 byte
// order mark before the first line is skipped.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_EXPECTATIONS_H_
#define TDCONFORM_CONFORMANCE_RUNNER_EXPECTATIONS_H_

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "conformance/runner/case_result.h"

namespace tdc::conformance {

struct Expectation {
  std::string pattern;
  CaseStatus status = CaseStatus::kFail;
  std::optional<std::string> expires;  // YYYY-MM-DD, the last day it applies
  std::string reason;
  int line = 0;
};

// The file's entries, or `file:line:col: error: ...`.
std::variant<std::vector<Expectation>, std::string> ReadExpectations(const std::string& path);
// The same for the text of a file, `name` in its errors (ReadExpectations reads the file and
// calls it).
std::variant<std::vector<Expectation>, std::string> ExpectationsFromText(std::string_view text,
                                                                         const std::string& name);

// Applies `expectations` (those expiring before `today`, YYYY-MM-DD, are ignored) to
// `results`; returns the stale entries.
std::vector<Expectation> ApplyExpectations(const std::vector<Expectation>& expectations,
                                           const std::string& today,
                                           std::vector<CaseResult>& results);

// An expectation file accepting every non-PASS result of `results` (after
// ApplyExpectations) as it is: each case's own entry, keeping the reason and expiry of the
// entry of `previous` unexpired at `today` that matched it, else the verdict as the reason.
std::string WriteExpectations(const std::vector<Expectation>& previous, const std::string& today,
                              const std::vector<CaseResult>& results);

// The file --update-expectations writes after a run that took `run` (ids) of `suite`: the
// lines of `previous_text` (the file as it was, entries `previous`) kept as they were,
// comments included, except the entries every case of the suite they match is among `run`
// (this run decides those cases), then WriteExpectations's entries for this run. A partial run
// (--filter, --shard, --caselist) so keeps what it did not run.
std::string UpdateExpectations(const std::string& previous_text,
                               const std::vector<Expectation>& previous,
                               const std::vector<std::string>& suite,
                               const std::vector<std::string>& run, const std::string& today,
                               const std::vector<CaseResult>& results);

// Of the entries ApplyExpectations found stale, those this run can judge: the ones every case
// of `suite` they match is among `run` (an entry that matches a case not run may be needed by
// it; one that matches no case of the suite is stale).
std::vector<Expectation> StaleInThisRun(const std::vector<Expectation>& stale,
                                        const std::vector<std::string>& suite,
                                        const std::vector<std::string>& run);

// The longest reason an entry may give (a reason is repeated into each matching case's
// message).
inline constexpr size_t kMaxReason = 4096;

// Today (UTC) as YYYY-MM-DD.
std::string Today();

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_EXPECTATIONS_H_
