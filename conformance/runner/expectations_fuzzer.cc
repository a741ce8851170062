// libFuzzer entry point: any byte string reads (ExpectationsFromText) as expectation entries
// or as one located error `fuzz.txt:LINE:COL: error: WHAT` (LINE and COL from 1), never a
// crash. Entries that read are what the reader promises: a pattern of one word, a status a
// case can be expected to end in, a calendar date or none, a reason of at most kMaxReason
// bytes without space around it, lines in order. Each entry taken as a case of its own
// pattern (which matches itself as an id) ending in its status: ApplyExpectations makes it
// XFAIL exactly when its first matching entry expects that status, and finds stale exactly
// the entries first to match no case (all of them when every case passed, each then XPASS);
// the file WriteExpectations writes reads again to the cases' entries, each with the reason
// and expiry of its first matching entry; UpdateExpectations, for a run of every case, keeps
// only the comments and blank lines and reads again to the same entries.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "conformance/runner/expectations.h"
#include "conformance/runner/selection.h"

namespace {

using tdc::conformance::CaseResult;
using tdc::conformance::CaseStatus;
using tdc::conformance::Expectation;
using tdc::conformance::Verdict;

constexpr std::string_view kName = "fuzz.txt";
// Nothing expires before it (the smallest date an entry can give).
constexpr std::string_view kToday = "0000-01-01";
// The round trips match every entry against every case: inputs with more entries only read.
constexpr size_t kMaxRoundTrip = 64;

bool Space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Digits, at least one, not all zero, then `:`, from `pos`.
bool Number(std::string_view text, size_t& pos) {
  const size_t start = pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  if (pos == start || pos >= text.size() || text[pos] != ':') return false;
  if (text.substr(start, pos - start).find_first_not_of('0') == std::string_view::npos)
    return false;
  ++pos;
  return true;
}

bool Located(std::string_view error) {
  if (!error.starts_with(kName) || error.substr(kName.size(), 1) != ":") return false;
  size_t pos = kName.size() + 1;
  if (!Number(error, pos) || !Number(error, pos)) return false;
  constexpr std::string_view kError = " error: ";
  return error.substr(pos).starts_with(kError) && error.size() > pos + kError.size();
}

bool Promised(const Expectation& e) {
  return !e.pattern.empty() && !e.pattern.starts_with("#") &&
         std::none_of(e.pattern.begin(), e.pattern.end(), Space) && e.status != CaseStatus::kPass &&
         e.status != CaseStatus::kXFail && e.status != CaseStatus::kXPass &&
         (!e.expires || e.expires->size() == 10) && !e.reason.empty() &&
         e.reason.size() <= tdc::conformance::kMaxReason && !Space(e.reason.front()) &&
         !Space(e.reason.back()) && e.reason.find('\n') == std::string::npos;
}

std::vector<Expectation> ReadBack(const std::string& text) {
  auto read = tdc::conformance::ExpectationsFromText(text, std::string(kName));
  if (!std::holds_alternative<std::vector<Expectation>>(read)) __builtin_trap();
  return std::get<std::vector<Expectation>>(std::move(read));
}

bool SameEntries(const std::vector<Expectation>& a, const std::vector<Expectation>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].pattern != b[i].pattern || a[i].status != b[i].status ||
        a[i].expires != b[i].expires || a[i].reason != b[i].reason)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto read = tdc::conformance::ExpectationsFromText(text, std::string(kName));
  if (const auto* error = std::get_if<std::string>(&read)) {
    if (!Located(*error)) __builtin_trap();
    return 0;
  }
  const auto& entries = std::get<std::vector<Expectation>>(read);
  int line = 0;
  for (const Expectation& e : entries) {
    if (!Promised(e) || e.line <= line) __builtin_trap();
    line = e.line;
  }
  if (entries.size() > kMaxRoundTrip) return 0;

  // The cases: one per entry, its id the entry's pattern; each case's first matching entry.
  const std::string today(kToday);
  std::vector<std::string> ids;
  std::vector<CaseResult> failing, passing;
  std::vector<size_t> first;
  std::vector<bool> matched_first(entries.size(), false);
  for (const Expectation& e : entries) {
    size_t j = 0;
    while (j < entries.size() && !tdc::conformance::GlobMatch(entries[j].pattern, e.pattern)) ++j;
    if (j == entries.size()) __builtin_trap();  // a pattern matches itself
    first.push_back(j);
    matched_first[j] = true;
    ids.push_back(e.pattern);
    failing.push_back({e.pattern, Verdict{e.status, std::nullopt, "r", "m"}});
    passing.push_back({e.pattern, Verdict::Pass()});
  }

  std::vector<Expectation> stale = tdc::conformance::ApplyExpectations(entries, today, failing);
  std::vector<Expectation> want_stale;
  std::vector<Expectation> expected;  // WriteExpectations's entries, as read back
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!matched_first[i]) want_stale.push_back(entries[i]);
    const Expectation& e = entries[first[i]];
    const CaseStatus status = failing[i].verdict.status;
    if (status != (e.status == entries[i].status ? CaseStatus::kXFail : entries[i].status))
      __builtin_trap();
    // Written with the status it ended in (its expected one, for an XFAIL), unless SKIPPED.
    if (status != CaseStatus::kSkipped)
      expected.push_back({entries[i].pattern, entries[i].status, e.expires, e.reason});
  }
  if (!SameEntries(stale, want_stale)) __builtin_trap();
  if (!SameEntries(tdc::conformance::StaleInThisRun(stale, ids, ids), stale)) __builtin_trap();

  const std::vector<Expectation> all_stale =
      tdc::conformance::ApplyExpectations(entries, today, passing);
  if (!SameEntries(all_stale, entries)) __builtin_trap();
  for (const CaseResult& r : passing) {
    if (r.verdict.status != CaseStatus::kXPass) __builtin_trap();
  }

  const std::string written = tdc::conformance::WriteExpectations(entries, today, failing);
  if (!written.starts_with("# ") || !SameEntries(ReadBack(written), expected)) __builtin_trap();
  const std::string updated =
      tdc::conformance::UpdateExpectations(text, entries, ids, ids, today, failing);
  if (!SameEntries(ReadBack(updated), expected)) __builtin_trap();
  return 0;
}
