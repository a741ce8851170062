#include "conformance/runner/selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "reference/base/case_id.h"

namespace tdc::conformance {

namespace {
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
}  // namespace

std::variant<std::vector<std::string>, std::string> ReadCaseList(const std::string& path) {
  std::ifstream file(path);
  if (!file) return fmt::format("{}:1:1: error: cannot read the case list", path);
  std::ostringstream text;
  text << file.rdbuf();
  return CaseListFromText(text.str(), path);
}

std::variant<std::vector<std::string>, std::string> CaseListFromText(std::string_view text,
                                                                     const std::string& name) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> ids;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line_number == 1 && line.starts_with(kByteOrderMark)) line.erase(0, kByteOrderMark.size());
    if (line.empty() || line[0] == '#') continue;
    CaseIdParse parsed = ParseCaseId(line);
    if (!parsed.id) return fmt::format("{}:{}:1: error: {}", name, line_number, parsed.error);
    ids.push_back(line);
  }
  return ids;
}

bool GlobMatch(std::string_view pattern, std::string_view id) {
  // Iterative matching with one backtrack point: the last `*`.
  size_t p = 0, i = 0, star = std::string_view::npos, resume = 0;
  while (i < id.size()) {
    // A `*` is a wildcard first, even against a `*` of the id (a backtrack point).
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = i;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == id[i])) {
      ++p;
      ++i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

std::optional<int> ParseInt(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::variant<Shard, std::string> ParseShard(std::string_view text) {
  const size_t slash = text.find('/');
  const int index =
      slash == std::string_view::npos ? -1 : ParseInt(text.substr(0, slash)).value_or(-1);
  const int count =
      slash == std::string_view::npos ? 0 : ParseInt(text.substr(slash + 1)).value_or(0);
  if (index < 0 || index >= count)
    return fmt::format("shard '{}' is not i/n with 0 <= i < n", text);
  return Shard{index, count};
}

std::variant<Shard, std::string> ShardFromEnvironment() {
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  if (total == nullptr && index == nullptr) return Shard{};
  if (total == nullptr || index == nullptr)
    return std::string("GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX are set together or not at all");
  auto shard = ParseShard(fmt::format("{}/{}", index, total));
  if (auto* error = std::get_if<std::string>(&shard))
    return fmt::format("GTEST_SHARD_INDEX={} GTEST_TOTAL_SHARDS={}: {}", index, total, *error);
  return shard;
}

std::optional<std::string> FirstUnknown(const std::vector<std::string>& suite,
                                        const std::vector<std::string>& listed) {
  const std::set<std::string> known(suite.begin(), suite.end());
  for (const std::string& id : listed) {
    if (!known.contains(id)) return id;
  }
  return std::nullopt;
}

std::vector<std::string> Select(const std::vector<std::string>& suite, const Selection& selection) {
  std::set<std::string> listed;
  if (selection.caselist) listed.insert(selection.caselist->begin(), selection.caselist->end());
  auto any = [](const std::vector<std::string>& patterns, const std::string& id) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return GlobMatch(p, id); });
  };
  std::vector<std::string> selected;
  for (const std::string& id : suite) {
    if (selection.caselist && !listed.contains(id)) continue;
    if (!selection.filters.empty() && !any(selection.filters, id)) continue;
    if (any(selection.excludes, id)) continue;
    selected.push_back(id);
  }
  std::vector<std::string> shard;
  for (size_t k = static_cast<size_t>(selection.shard.index); k < selected.size();
       k += static_cast<size_t>(selection.shard.count)) {
    shard.push_back(selected[k]);
  }
  return shard;
}

}  // namespace tdc::conformance
