// How differences are written: values as they appear in the document, cut where they
// would not fit on a line.
#include "reference/compare/differ.h"

#include "reference/base/py_repr.h"
#include "reference/graph/hex_float.h"

namespace tdc::compare {
namespace {

constexpr size_t kJsonLimit = 200;     // Longer renderings are cut (with "...").
constexpr size_t kStringLimit = 100;   // Longer strings show a window around the change.
constexpr size_t kContextBefore = 30;  // Bytes shown before the first differing byte.

// Moves `i` back to the start of a UTF-8 sequence, so that cuts stay valid text.
size_t CharBoundary(const std::string& text, size_t i) {
  while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
  return i;
}

std::string Quote(const std::string& text) {
  return graph::Json(text).dump(-1, ' ', false, graph::Json::error_handler_t::replace);
}

// `text` from byte `start`, at most kStringLimit bytes, quoted, with "..." for the cuts.
std::string Window(const std::string& text, size_t start) {
  start = CharBoundary(text, std::min(start, text.size()));
  size_t end = CharBoundary(text, std::min(text.size(), start + kStringLimit));
  return fmt::format("{}{}{}", start > 0 ? "..." : "", Quote(text.substr(start, end - start)),
                     end < text.size() ? "..." : "");
}

}  // namespace

std::string Render(int64_t value) { return fmt::format("{}", value); }
std::string Render(bool value) { return value ? "true" : "false"; }
std::string Render(const std::string& value) { return Window(value, 0); }
std::string Render(const std::vector<int64_t>& list) {
  return fmt::format("[{}]", fmt::join(list, ", "));
}
std::string Render(graph::DType dtype) { return Quote(std::string(graph::DTypeName(dtype))); }
std::string Render(graph::NodeOp op) { return Quote(std::string(graph::NodeOpName(op))); }
std::string Render(graph::Layout layout) { return Quote(std::string(graph::LayoutName(layout))); }
std::string Render(graph::MemoryFormat format) {
  return Quote(std::string(graph::MemoryFormatName(format)));
}

std::string RenderFloat(double value) {
  std::string hex = graph::FormatHexFloat(value);
  std::string repr = ReprFloat(value);
  return hex == repr ? hex : fmt::format("{} ({})", hex, repr);
}

std::string RenderJson(const graph::Json& json) {
  std::string text = json.dump(-1, ' ', false, graph::Json::error_handler_t::replace);
  if (text.size() <= kJsonLimit) return text;
  return text.substr(0, CharBoundary(text, kJsonLimit)) + "...";
}

void Differ::Exact(const JsonPath& at, const std::string& expected, const std::string& actual) {
  if (expected == actual) return;
  // Long strings (messages, explanations) are shown around their first difference.
  size_t start = 0;
  if (expected.size() > kStringLimit || actual.size() > kStringLimit) {
    size_t first =
        std::mismatch(expected.begin(), expected.begin() + std::min(expected.size(), actual.size()),
                      actual.begin())
            .first -
        expected.begin();
    start = first > kContextBefore ? first - kContextBefore : 0;
  }
  Report(at, Window(expected, start), Window(actual, start));
}

void Differ::Close(const JsonPath& at, double expected, double actual, graph::DType dtype) {
  if (!WithinTolerance(expected, actual, tolerances_.For(dtype))) {
    Report(at, RenderFloat(expected), RenderFloat(actual));
  }
}

}  // namespace tdc::compare
