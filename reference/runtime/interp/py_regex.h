// A backtracking matcher for the part of CPython 3.11's `re` syntax the reference accepts,
// with sre's semantics for it (leftmost match, greedy and lazy quantifiers tried in sre's
// order, the last iteration's group capture kept). Anything else in a pattern is refused
// by Parse (RefuseNotModeled: never approximated, DESIGN D13):
//   literals and escaped punctuation, `.`, `^`, `$`, `|`, `(...)`, `(?:...)`,
//   `*` `+` `?` `{m}` `{m,}` `{m,n}` and their lazy forms, classes `[...]` / `[^...]`
//   with ranges, `\d \D \w \W \s \S` (ASCII subjects only: their Unicode tables are not
//   modeled, so testing a non-ASCII character against them is refused).
// No flags, lookarounds, backreferences, named groups, \b, \A, \Z.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_REGEX_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_REGEX_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tdc::runtime::regex {

struct Alternation;

// A compiled pattern: its syntax tree and its number of capturing groups.
struct Pattern {
  std::string source;  // the pattern as given (UTF-8)
  std::shared_ptr<const Alternation> root;
  size_t groups = 0;
};

// The span of a match and of each group (index 0 the whole match), in code points; a
// group that did not take part is nullopt.
using Span = std::optional<std::pair<size_t, size_t>>;
using Spans = std::vector<Span>;

enum class Anchor { kSearch, kMatch, kFullMatch };

// Parses `pattern` (UTF-8): refuses what the header does not list.
Pattern Parse(std::string_view pattern);
// Finds the leftmost match starting at or after `start` (kSearch) or exactly at `start`
// (kMatch, kFullMatch: ending at the subject's end). `must_advance`: an empty match at
// `start` does not count (re.sub after a match, sre's must_advance).
std::optional<Spans> Find(const Pattern& pattern, const std::u32string& subject, size_t start,
                          Anchor anchor, bool must_advance = false);

// UTF-8 <-> code points.
std::u32string Decode(std::string_view utf8);
std::string Encode(std::u32string_view text);

}  // namespace tdc::runtime::regex

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_REGEX_H_
