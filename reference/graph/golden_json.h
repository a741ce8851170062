// Reading and writing golden documents (fixtures/SCHEMA.md) as JSON.
//
// The writer produces exactly what the oracle's Python writes (`json.dumps(doc,
// indent=1, ensure_ascii=False)` plus a final newline, keys in SCHEMA.md's order), so a
// golden read and written back is byte-identical. The reader checks the
// whole schema (every field present, no unknown field, closed vocabularies, tensor
// element counts, node references pointing backwards) and names the first offending
// place by its JSON path.
#ifndef TDCONFORM_REFERENCE_GRAPH_GOLDEN_JSON_H_
#define TDCONFORM_REFERENCE_GRAPH_GOLDEN_JSON_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "reference/graph/golden.h"
#include "reference/graph/graph.h"
#include "reference/graph/value.h"

namespace tdc::graph {

using Json = nlohmann::ordered_json;

// Why a document was rejected. A JSON syntax error has a 1-based line and column (in
// bytes) and no path; a schema error has a path (empty for the document itself).
struct JsonError {
  int line = 0;
  int column = 0;
  std::string path;
  std::string message;
};

// `file:line:col: error: message` for syntax errors, `file: error: path: message` for
// schema errors.
std::string FormatJsonError(std::string_view file, const JsonError& error);

struct GoldenReadResult {
  std::optional<Golden> golden;  // Set exactly when `error` is not.
  std::optional<JsonError> error;
};

GoldenReadResult ReadGolden(std::string_view text);

// The document text, ending in a newline.
std::string WriteGolden(const Golden& golden);

// The JSON encodings of the parts, as written into a document.
Json ToJson(const Golden& golden);
Json ToJson(const Value& value);
Json ToJson(const Graph& graph);
Json ToJson(const Exception& exception);

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_GOLDEN_JSON_H_
