#include "conformance/runner/expectations.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "conformance/runner/selection.h"

namespace tdc::conformance {

namespace {

// The next whitespace-separated word of `line` from `pos` (its column, 1-based, too).
std::optional<std::pair<std::string, size_t>> NextWord(const std::string& line, size_t& pos) {
  while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
  if (pos >= line.size()) return std::nullopt;
  const size_t start = pos;
  while (pos < line.size() && !std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
  return std::pair{line.substr(start, pos - start), start + 1};
}

// A day of the (proleptic Gregorian) calendar, YYYY-MM-DD: 2026-02-30 is none.
bool IsDate(const std::string& text) {
  static const std::regex kDate(R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))");
  if (!std::regex_match(text, kDate)) return false;
  const int year = std::stoi(text.substr(0, 4)), month = std::stoi(text.substr(5, 2)),
            day = std::stoi(text.substr(8, 2));
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Whether every case of `suite` that `pattern` matches is in `run` (so this run alone judges
// the entry; true of one matching no case at all).
bool DecidedByRun(const std::string& pattern, const std::vector<std::string>& suite,
                  const std::set<std::string>& run) {
  return std::all_of(suite.begin(), suite.end(), [&](const std::string& id) {
    return !GlobMatch(pattern, id) || run.contains(id);
  });
}

}  // namespace

std::variant<std::vector<Expectation>, std::string> ReadExpectations(const std::string& path) {
  std::ifstream file(path);
  if (!file) return fmt::format("{}:1:1: error: cannot read the expectations", path);
  std::ostringstream text;
  text << file.rdbuf();
  return ExpectationsFromText(text.str(), path);
}

std::variant<std::vector<Expectation>, std::string> ExpectationsFromText(std::string_view text,
                                                                         const std::string& name) {
  std::istringstream in{std::string(text)};
  std::vector<Expectation> out;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (number == 1 && line.starts_with(kByteOrderMark)) line.erase(0, kByteOrderMark.size());
    size_t pos = 0;
    auto error = [&](size_t column, const std::string& what) {
      return fmt::format("{}:{}:{}: error: {}", name, number, column, what);
    };
    auto pattern = NextWord(line, pos);
    if (!pattern || pattern->first.starts_with("#")) continue;
    Expectation e;
    e.line = number;
    e.pattern = pattern->first;
    auto status = NextWord(line, pos);
    if (!status) return error(line.size() + 1, "expected a status after the pattern");
    std::optional<CaseStatus> parsed = ParseStatus(status->first);
    if (!parsed || *parsed == CaseStatus::kPass || *parsed == CaseStatus::kXFail ||
        *parsed == CaseStatus::kXPass) {
      return error(
          status->second,
          fmt::format("'{}' is not a status a case can be expected to end in", status->first));
    }
    e.status = *parsed;
    auto next = NextWord(line, pos);
    if (next && next->first.starts_with("expires=")) {
      std::string date = next->first.substr(8);
      if (!IsDate(date))
        return error(next->second + 8, fmt::format("'{}' is not a date YYYY-MM-DD", date));
      e.expires = date;
      next = NextWord(line, pos);
    }
    if (!next) return error(line.size() + 1, "an expectation needs a reason");
    e.reason = line.substr(next->second - 1);
    while (!e.reason.empty() && std::isspace(static_cast<unsigned char>(e.reason.back())))
      e.reason.pop_back();
    if (e.reason.size() > kMaxReason) {
      return error(next->second,
                   fmt::format("a reason of {} bytes (at most {})", e.reason.size(), kMaxReason));
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<Expectation> ApplyExpectations(const std::vector<Expectation>& expectations,
                                           const std::string& today,
                                           std::vector<CaseResult>& results) {
  std::vector<bool> used(expectations.size(), false);  // matched a case that did not pass
  for (CaseResult& r : results) {
    for (size_t i = 0; i < expectations.size(); ++i) {
      const Expectation& e = expectations[i];
      if ((e.expires && *e.expires < today) || !GlobMatch(e.pattern, r.id)) continue;
      if (r.verdict.status == e.status) {
        used[i] = true;
        r.verdict.message = fmt::format("{} (expected: {})", FormatVerdict(r.verdict), e.reason);
        r.verdict.status = CaseStatus::kXFail;
      } else if (r.verdict.status == CaseStatus::kPass) {
        r.verdict = {CaseStatus::kXPass, std::nullopt, "unexpected_pass",
                     fmt::format("expected {} ({}), passed", StatusName(e.status), e.reason)};
      } else {
        used[i] = true;  // it still fails, otherwise
      }
      break;
    }
  }
  std::vector<Expectation> stale;
  for (size_t i = 0; i < expectations.size(); ++i) {
    if (!used[i]) stale.push_back(expectations[i]);
  }
  return stale;
}

std::string WriteExpectations(const std::vector<Expectation>& previous, const std::string& today,
                              const std::vector<CaseResult>& results) {
  std::string out =
      "# tdconform expectations (conformance/runner/expectations.h), written by "
      "--update-expectations.\n";
  for (const CaseResult& r : results) {
    CaseStatus status = r.verdict.status;
    if (status == CaseStatus::kPass || status == CaseStatus::kXPass ||
        status == CaseStatus::kSkipped)
      continue;
    std::string reason = FormatVerdict(r.verdict);
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    std::optional<std::string> expires;
    for (const Expectation& e : previous) {
      if ((e.expires && *e.expires < today) || !GlobMatch(e.pattern, r.id)) continue;
      reason = e.reason;
      expires = e.expires;
      if (status == CaseStatus::kXFail) status = e.status;
      break;
    }
    out += fmt::format("{} {}{} {}\n", r.id, StatusName(status),
                       expires ? " expires=" + *expires : "", reason);
  }
  return out;
}

std::string UpdateExpectations(const std::string& previous_text,
                               const std::vector<Expectation>& previous,
                               const std::vector<std::string>& suite,
                               const std::vector<std::string>& run, const std::string& today,
                               const std::vector<CaseResult>& results) {
  const std::set<std::string> ran(run.begin(), run.end());
  std::set<int> dropped;  // line numbers
  for (const Expectation& e : previous) {
    if (DecidedByRun(e.pattern, suite, ran)) dropped.insert(e.line);
  }
  std::string kept;
  std::istringstream in(previous_text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    if (!dropped.contains(++number)) kept += line + "\n";
  }
  std::string written = WriteExpectations(previous, today, results);
  // The header once: the first line WriteExpectations writes.
  const std::string header = written.substr(0, written.find('\n') + 1);
  if (kept.find(header) != std::string::npos) written.erase(0, header.size());
  return kept + written;
}

std::vector<Expectation> StaleInThisRun(const std::vector<Expectation>& stale,
                                        const std::vector<std::string>& suite,
                                        const std::vector<std::string>& run) {
  const std::set<std::string> ran(run.begin(), run.end());
  std::vector<Expectation> out;
  for (const Expectation& e : stale) {
    if (DecidedByRun(e.pattern, suite, ran)) out.push_back(e);
  }
  return out;
}

std::string Today() {
  std::time_t now = std::time(nullptr);
  return fmt::format("{:%Y-%m-%d}", fmt::gmtime(now));
}

}  // namespace tdc::conformance
