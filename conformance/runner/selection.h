// Which cases a run takes (DESIGN.md D8): the suite's case ids (one a line, as the build
// writes them), narrowed by --filter and --exclude patterns (`*` any run of bytes, `?` one
// byte, matched against the whole written id), by a --caselist file, and by a shard.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_SELECTION_H_
#define TDCONFORM_CONFORMANCE_RUNNER_SELECTION_H_

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tdc::conformance {

// The ids of a case-list file: one a line, `#` comment lines and blank lines skipped; each
// must parse as a case id (a UTF-8 byte order mark before the first is skipped). An error
// names the file and line (`file:line:1: error: ...`).
std::variant<std::vector<std::string>, std::string> ReadCaseList(const std::string& path);
// The same for the text of a file, `name` in its errors (ReadCaseList reads the file and
// calls it).
std::variant<std::vector<std::string>, std::string> CaseListFromText(std::string_view text,
                                                                     const std::string& name);

// Whether `id` matches the glob `pattern` as a whole.
bool GlobMatch(std::string_view pattern, std::string_view id);

struct Shard {
  int index = 0;  // 0-based
  int count = 1;
};
// `i/n` (0 <= i < n), or an error.
std::variant<Shard, std::string> ParseShard(std::string_view text);
// GoogleTest's GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX: the whole selection when neither is
// set, an error when one is set alone or they are no shard.
std::variant<Shard, std::string> ShardFromEnvironment();

// Each id of `listed` that `suite` lacks, or nothing: a case list naming an unknown case is
// an error, never a smaller run.
std::optional<std::string> FirstUnknown(const std::vector<std::string>& suite,
                                        const std::vector<std::string>& listed);

struct Selection {
  std::vector<std::string> filters;                  // any of them (none: every case)
  std::vector<std::string> excludes;                 // none of them
  std::optional<std::vector<std::string>> caselist;  // only these
  Shard shard;
};

// The cases of `suite` that `selection` takes, in the suite's order; the shard takes every
// count-th of those from its index on, so the shards of one count partition the selection.
std::vector<std::string> Select(const std::vector<std::string>& suite, const Selection& selection);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_SELECTION_H_
