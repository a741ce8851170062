#include "reference/graph/json_path.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace tdc::graph {

JsonPath JsonPath::Member(std::string_view name) const {
  if (text_.empty()) return JsonPath(std::string(name));
  return JsonPath(fmt::format("{}.{}", text_, name));
}

JsonPath JsonPath::Key(std::string_view key) const {
  // JSON string syntax makes every key printable and unambiguous; replacing invalid
  // UTF-8 keeps this total (keys read from a document are valid already).
  std::string quoted = nlohmann::json(std::string(key))
                           .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return JsonPath(fmt::format("{}[{}]", text_, quoted));
}

JsonPath JsonPath::Index(size_t index) const {
  return JsonPath(fmt::format("{}[{}]", text_, index));
}

}  // namespace tdc::graph
