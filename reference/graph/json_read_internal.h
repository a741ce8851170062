// Helpers shared by the golden reader's files (not part of the graph library's API).
// Every Read* function takes the JSON to read and its path, and throws ReadFailure at
// the first problem; ReadGolden turns that into a JsonError.
#ifndef TDCONFORM_REFERENCE_GRAPH_JSON_READ_INTERNAL_H_
#define TDCONFORM_REFERENCE_GRAPH_JSON_READ_INTERNAL_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/graph/golden.h"
#include "reference/graph/golden_json.h"
#include "reference/graph/graph.h"
#include "reference/graph/json_path.h"
#include "reference/graph/value.h"

namespace tdc::graph::json_read {

struct ReadFailure {
  std::string path;
  std::string message;
};

[[noreturn]] void Fail(const JsonPath& at, std::string message);

// "an object", "the string \"abc\"", "the number 1.5": for "expected X, got Y".
std::string Describe(const Json& json);

// An object whose keys must be exactly `fields` (all required, none other).
class ObjectReader {
 public:
  ObjectReader(const Json& json, JsonPath at, std::initializer_list<Field> fields);

  const Json& Member(Field field) const { return json_.at(std::string(FieldName(field))); }
  const JsonPath& path() const { return at_; }

  // Reads one member with `read(json, path)`.
  template <typename Read>
  auto Get(Field field, Read read) const {
    return read(Member(field), at_.Field(field));
  }

 private:
  const Json& json_;
  JsonPath at_;
};

std::string ReadString(const Json& json, const JsonPath& at);
int64_t ReadInt(const Json& json, const JsonPath& at);
bool ReadBool(const Json& json, const JsonPath& at);
double ReadHexFloat(const Json& json, const JsonPath& at);
DType ReadDType(const Json& json, const JsonPath& at);
std::vector<int64_t> ReadIntList(const Json& json, const JsonPath& at);
std::vector<std::string> ReadStringList(const Json& json, const JsonPath& at);

// null, or what `read` makes of the value.
template <typename Read>
auto ReadNullable(const Json& json, const JsonPath& at, Read read)
    -> std::optional<std::invoke_result_t<Read, const Json&, const JsonPath&>> {
  if (json.is_null()) return std::nullopt;
  return read(json, at);
}

void ExpectArray(const Json& json, const JsonPath& at);
void ExpectObject(const Json& json, const JsonPath& at);

template <typename Read>
auto ReadList(const Json& json, const JsonPath& at, Read read) {
  ExpectArray(json, at);
  std::vector<std::invoke_result_t<Read, const Json&, const JsonPath&>> list;
  for (size_t i = 0; i < json.size(); ++i) list.push_back(read(json[i], at.Index(i)));
  return list;
}

// An object used as a map: its keys in document order, each value read by `read`.
template <typename Read>
auto ReadMap(const Json& json, const JsonPath& at, Read read) {
  ExpectObject(json, at);
  OrderedMap<std::invoke_result_t<Read, const Json&, const JsonPath&>> map;
  for (const auto& item : json.items()) {
    map.emplace_back(item.key(), read(item.value(), at.Key(item.key())));
  }
  return map;
}

// Values (json_read_values.cc).
Value ReadOutValue(const Json& json, const JsonPath& at);
Graph ReadGraph(const Json& json, const JsonPath& at);
Exception ReadException(const Json& json, const JsonPath& at);

}  // namespace tdc::graph::json_read

#endif  // TDCONFORM_REFERENCE_GRAPH_JSON_READ_INTERNAL_H_
