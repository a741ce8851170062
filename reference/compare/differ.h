// The comparator's machinery (internal to reference/compare): a Differ collects
// differences under the options' masks, and the templates below give every list, map
// and nullable field of the schema the same rules (SCHEMA.md §10).
#ifndef TDCONFORM_REFERENCE_COMPARE_DIFFER_H_
#define TDCONFORM_REFERENCE_COMPARE_DIFFER_H_

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/compare/comparator.h"
#include "reference/compare/tolerance.h"
#include "reference/graph/golden_json.h"
#include "reference/graph/json_path.h"

namespace tdc::compare {

using graph::Field;
using graph::JsonPath;

// How values appear in a difference line.
std::string Render(int64_t value);
std::string Render(bool value);
std::string Render(const std::string& value);          // JSON-quoted
std::string Render(const std::vector<int64_t>& list);  // [2, 4]
std::string Render(graph::DType dtype);
std::string Render(graph::NodeOp op);
std::string Render(graph::Layout layout);
std::string Render(graph::MemoryFormat format);
std::string RenderFloat(double value);  // float.hex() text, then repr(): 0x1.8...p+1 (3.0)
std::string RenderJson(const graph::Json& json);  // compact, cut after 200 bytes
template <typename T>
std::string Render(const std::optional<T>& value) {
  return value ? Render(*value) : "null";
}

inline constexpr std::string_view kAbsent = "(absent)";

class Differ {
 public:
  Differ(const CompareOptions& options, const graph::Header& expected_header)
      : options_(options), tolerances_(expected_header) {}

  // The path of `field` under `at`, or nullopt when the options mask it.
  std::optional<JsonPath> Enter(const JsonPath& at, Field field) const {
    if (std::find(options_.masked.begin(), options_.masked.end(), field) != options_.masked.end()) {
      return std::nullopt;
    }
    return at.Field(field);
  }

  void Report(const JsonPath& at, std::string expected, std::string got) {
    differences_.push_back({at.str(), std::move(expected), std::move(got)});
  }

  // Exact comparison of scalars, enums and shapes.
  template <typename T>
  void Exact(const JsonPath& at, const T& expected, const T& actual) {
    if (!(expected == actual)) Report(at, Render(expected), Render(actual));
  }
  void Exact(const JsonPath& at, const std::string& expected, const std::string& actual);

  // Floating-point comparison with the tolerance of `dtype`.
  void Close(const JsonPath& at, double expected, double actual, graph::DType dtype);

  const CompareOptions& options() const { return options_; }

  std::vector<Difference> Take() { return std::move(differences_); }

 private:
  const CompareOptions& options_;
  ToleranceTable tolerances_;
  std::vector<Difference> differences_;
};

// Compares one named field of `expected` and `actual` unless it is masked:
// `InField(d, at, Field::kTarget, e.target, a.target, compare)` calls
// compare(d, at.target, e.target, a.target).
template <typename T, typename CompareFn>
void InField(Differ& d, const JsonPath& at, Field field, const T& expected, const T& actual,
             CompareFn compare) {
  if (std::optional<JsonPath> in = d.Enter(at, field)) compare(d, *in, expected, actual);
}

template <typename T>
void ExactField(Differ& d, const JsonPath& at, Field field, const T& expected, const T& actual) {
  if (std::optional<JsonPath> in = d.Enter(at, field)) d.Exact(*in, expected, actual);
}

// Lists: a length difference is reported once, on the list; the common prefix is then
// compared element by element.
template <typename T, typename CompareFn>
void CompareLists(Differ& d, const JsonPath& at, const std::vector<T>& expected,
                  const std::vector<T>& actual, CompareFn compare) {
  if (expected.size() != actual.size()) {
    d.Report(at, fmt::format("length {}", expected.size()),
             fmt::format("length {}", actual.size()));
  }
  for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
    compare(d, at.Index(i), expected[i], actual[i]);
  }
}

// Maps: keys match by name, whatever their order; a missing or an extra key is one
// difference each, rendered by `render`.
template <typename T, typename CompareFn, typename RenderFn>
void CompareMaps(Differ& d, const JsonPath& at, const graph::OrderedMap<T>& expected,
                 const graph::OrderedMap<T>& actual, CompareFn compare, RenderFn render) {
  auto find = [](const graph::OrderedMap<T>& map, const std::string& key) -> const T* {
    for (const auto& [name, value] : map) {
      if (name == key) return &value;
    }
    return nullptr;
  };
  for (const auto& [key, value] : expected) {
    if (const T* other = find(actual, key)) {
      compare(d, at.Key(key), value, *other);
    } else {
      d.Report(at.Key(key), render(value), std::string(kAbsent));
    }
  }
  for (const auto& [key, value] : actual) {
    if (!find(expected, key)) d.Report(at.Key(key), std::string(kAbsent), render(value));
  }
}

// Nullable objects: null against set is one difference on the field itself.
template <typename T, typename CompareFn, typename RenderFn>
void CompareNullables(Differ& d, const JsonPath& at, const std::optional<T>& expected,
                      const std::optional<T>& actual, CompareFn compare, RenderFn render) {
  if (expected && actual) {
    compare(d, at, *expected, *actual);
  } else if (expected || actual) {
    d.Report(at, expected ? render(*expected) : "null", actual ? render(*actual) : "null");
  }
}

// The parts (compare_values.cc, compare_golden.cc).
void CompareValues(Differ& d, const JsonPath& at, const graph::Value& expected,
                   const graph::Value& actual);
void CompareGraphs(Differ& d, const JsonPath& at, const graph::Graph& expected,
                   const graph::Graph& actual);

}  // namespace tdc::compare

#endif  // TDCONFORM_REFERENCE_COMPARE_DIFFER_H_
