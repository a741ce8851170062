// How deeply a JSON text nests its arrays and objects, found without parsing it. The
// golden reader and the comparator recurse once per level, so a document nested deeper
// than any golden can be (a fuzzer's or an attacker's) is refused with its position
// before either runs.
#ifndef TDCONFORM_REFERENCE_GRAPH_JSON_DEPTH_H_
#define TDCONFORM_REFERENCE_GRAPH_JSON_DEPTH_H_

#include <cstddef>
#include <optional>
#include <string_view>

namespace tdc::graph {

// Deeper than any golden: an out is refused past 200 levels (runtime/interp/outcome.cc),
// about 400 levels of JSON.
inline constexpr int kMaxJsonNesting = 1000;

// The byte offset of the first `[` or `{` (outside strings) that opens level
// `max_nesting + 1`, or nullopt when the text stays within it. Text that is not JSON
// is left for the parser to reject.
std::optional<size_t> FirstTooDeep(std::string_view text, int max_nesting = kMaxJsonNesting);

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_JSON_DEPTH_H_
