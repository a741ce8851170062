// libFuzzer entry point: any byte string reads (CaseListFromText) as case ids or as one
// located error `fuzz.txt:LINE:1: error: WHAT` (LINE from 1), never a crash. The ids that
// read are canonical case ids (formatting their parse gives them back) and, written one a
// line, read again to the same ids. On the input's first lines: GlobMatch of a line (the
// pattern) against the next agrees with a plain dynamic-programming matcher (with equality
// for a line without `*` or `?`), every line matches itself and `*`; ParseShard of a line
// gives 0 <= index < count or an error, and a shard that parses prints as `index/count`,
// which parses to it again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "conformance/runner/selection.h"
#include "reference/base/case_id.h"

namespace {

constexpr std::string_view kName = "fuzz.txt";
constexpr size_t kLines = 32;          // the lines globs and shards are tried on
constexpr size_t kReferenceLen = 256;  // the longest pattern and id the reference matcher takes

// `pattern` matches `id` as a whole (`*` any run of bytes, `?` one byte), by the table of
// which prefixes match which. Not instrumented: its branches are no coverage of the code
// under test, and traced they took most of each run.
__attribute__((no_sanitize("coverage"))) bool ReferenceMatch(std::string_view pattern,
                                                             std::string_view id) {
  // row[j]: pattern[0, i) matches id[0, j), for the current i.
  std::vector<char> row(id.size() + 1, 0), next(id.size() + 1, 0);
  row[0] = 1;
  for (char p : pattern) {
    next[0] = p == '*' && row[0];
    for (size_t j = 1; j <= id.size(); ++j) {
      next[j] = p == '*' ? (row[j] || next[j - 1]) : (row[j - 1] && (p == '?' || p == id[j - 1]));
    }
    row.swap(next);
  }
  return row[id.size()] != 0;
}

bool Located(std::string_view error) {
  const std::string prefix = std::string(kName) + ":";
  if (!error.starts_with(prefix)) return false;
  size_t pos = prefix.size();
  const size_t digits = pos;
  while (pos < error.size() && error[pos] >= '0' && error[pos] <= '9') ++pos;
  if (pos == digits || error[digits] == '0') return false;
  constexpr std::string_view kRest = ":1: error: ";
  return error.substr(pos).starts_with(kRest) && error.size() > pos + kRest.size();
}

std::vector<std::string_view> Lines(std::string_view text, size_t most) {
  std::vector<std::string_view> lines;
  while (!text.empty() && lines.size() < most) {
    const size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto read = tdc::conformance::CaseListFromText(text, std::string(kName));
  if (const auto* error = std::get_if<std::string>(&read)) {
    if (!Located(*error)) __builtin_trap();
  } else {
    const auto& ids = std::get<std::vector<std::string>>(read);
    std::string written;
    for (const std::string& id : ids) {
      tdc::CaseIdParse parsed = tdc::ParseCaseId(id);
      if (!parsed.id || tdc::FormatCaseId(*parsed.id) != id) __builtin_trap();
      written += id + "\n";
    }
    auto again = tdc::conformance::CaseListFromText(written, std::string(kName));
    const auto* ids_again = std::get_if<std::vector<std::string>>(&again);
    if (ids_again == nullptr || *ids_again != ids) __builtin_trap();
  }

  const std::vector<std::string_view> lines = Lines(text, kLines);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (!tdc::conformance::GlobMatch(line, line) || !tdc::conformance::GlobMatch("*", line))
      __builtin_trap();
    if (i + 1 < lines.size()) {
      const std::string_view next = lines[i + 1];
      const bool match = tdc::conformance::GlobMatch(line, next);
      if (line.find_first_of("*?") == std::string_view::npos) {
        if (match != (line == next)) __builtin_trap();
      } else if (line.size() <= kReferenceLen && next.size() <= kReferenceLen &&
                 match != ReferenceMatch(line, next)) {
        __builtin_trap();
      }
    }
    auto shard = tdc::conformance::ParseShard(line);
    if (const auto* error = std::get_if<std::string>(&shard)) {
      if (!error->starts_with("shard '")) __builtin_trap();
      continue;
    }
    const auto [index, count] = std::get<tdc::conformance::Shard>(shard);
    if (index < 0 || index >= count) __builtin_trap();
    auto again = tdc::conformance::ParseShard(std::to_string(index) + "/" + std::to_string(count));
    const auto* same = std::get_if<tdc::conformance::Shard>(&again);
    if (same == nullptr || same->index != index || same->count != count) __builtin_trap();
  }
  return 0;
}
