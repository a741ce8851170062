// A place inside a golden document, written as the comparator and the reader report it:
// fields as `.name` (no dot at the top level), map keys as `["key"]`, list elements as
// `[i]`, e.g. `compiled["torch-2.13"].invocations[1].dynamo_graph.nodes[2].target`.
// A value's kind key is written like a field: `eager.outs["out"].tensor.values[3]`.
#ifndef TDCONFORM_REFERENCE_GRAPH_JSON_PATH_H_
#define TDCONFORM_REFERENCE_GRAPH_JSON_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "reference/graph/vocabulary.h"

namespace tdc::graph {

class JsonPath {
 public:
  JsonPath() = default;  // The whole document; written as the empty string.

  JsonPath Field(graph::Field field) const { return Member(FieldName(field)); }
  JsonPath Kind(ValueKind kind) const { return Member(ValueKindName(kind)); }
  JsonPath Key(std::string_view key) const;  // Quoted as a JSON string.
  JsonPath Index(size_t index) const;

  const std::string& str() const { return text_; }

 private:
  explicit JsonPath(std::string text) : text_(std::move(text)) {}
  JsonPath Member(std::string_view name) const;

  std::string text_;
};

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_JSON_PATH_H_
