// The reader's primitives: type checks with messages that say what was expected and
// what was found, at which path.
#include <fmt/format.h>

#include <cstdint>

#include "reference/graph/hex_float.h"
#include "reference/graph/json_read_internal.h"

namespace tdc::graph::json_read {
namespace {

constexpr size_t kQuoteLimit = 60;  // Longer strings are cut in messages.

std::string Quote(const std::string& text) {
  std::string cut = text.size() > kQuoteLimit ? text.substr(0, kQuoteLimit) + "..." : text;
  return Json(cut).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string FieldList(std::initializer_list<Field> fields) {
  std::string list;
  for (Field field : fields) {
    if (!list.empty()) list += ", ";
    list += FieldName(field);
  }
  return list;
}

}  // namespace

void Fail(const JsonPath& at, std::string message) {
  throw ReadFailure{at.str(), std::move(message)};
}

std::string Describe(const Json& json) {
  switch (json.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "the string " + Quote(json.get_ref<const std::string&>());
    case Json::value_t::boolean:
      return json.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "the integer " + json.dump();
    case Json::value_t::number_float:
      return "the number " + json.dump();
    case Json::value_t::binary:
    case Json::value_t::discarded:
      return "an unreadable value";
  }
  return "an unreadable value";
}

ObjectReader::ObjectReader(const Json& json, JsonPath at, std::initializer_list<Field> fields)
    : json_(json), at_(std::move(at)) {
  ExpectObject(json, at_);
  for (const auto& item : json.items()) {
    std::optional<Field> field = ParseField(item.key());
    bool known = false;
    for (Field f : fields) known = known || (field && *field == f);
    if (!known) {
      Fail(at_, fmt::format("unknown field {} (expected the fields {})", Quote(item.key()),
                            FieldList(fields)));
    }
  }
  for (Field field : fields) {
    if (!json.contains(std::string(FieldName(field)))) {
      Fail(at_, fmt::format("missing field \"{}\"", FieldName(field)));
    }
  }
}

void ExpectObject(const Json& json, const JsonPath& at) {
  if (!json.is_object()) Fail(at, fmt::format("expected an object, got {}", Describe(json)));
}

void ExpectArray(const Json& json, const JsonPath& at) {
  if (!json.is_array()) Fail(at, fmt::format("expected an array, got {}", Describe(json)));
}

std::string ReadString(const Json& json, const JsonPath& at) {
  if (!json.is_string()) Fail(at, fmt::format("expected a string, got {}", Describe(json)));
  return json.get<std::string>();
}

int64_t ReadInt(const Json& json, const JsonPath& at) {
  if (json.is_number_unsigned()) {
    uint64_t value = json.get<uint64_t>();
    if (value > static_cast<uint64_t>(INT64_MAX)) {
      Fail(at, fmt::format("integer {} is outside the 64-bit signed range", value));
    }
    return static_cast<int64_t>(value);
  }
  if (!json.is_number_integer()) {
    Fail(at, fmt::format("expected an integer, got {}", Describe(json)));
  }
  return json.get<int64_t>();
}

bool ReadBool(const Json& json, const JsonPath& at) {
  if (!json.is_boolean()) Fail(at, fmt::format("expected true or false, got {}", Describe(json)));
  return json.get<bool>();
}

double ReadHexFloat(const Json& json, const JsonPath& at) {
  if (!json.is_string()) {
    Fail(at, fmt::format("expected a float.hex() string, got {}", Describe(json)));
  }
  std::optional<double> value = ParseHexFloat(json.get_ref<const std::string&>());
  if (!value) {
    Fail(at, fmt::format("{} is not Python's float.hex() text (e.g. \"0x1.8000000000000p+1\", "
                         "\"-0x0.0p+0\", \"inf\", \"nan\")",
                         Quote(json.get_ref<const std::string&>())));
  }
  return *value;
}

DType ReadDType(const Json& json, const JsonPath& at) {
  std::string name = ReadString(json, at);
  std::optional<DType> dtype = ParseDType(name);
  if (!dtype) Fail(at, fmt::format("unknown dtype {}", Quote(name)));
  return *dtype;
}

std::vector<int64_t> ReadIntList(const Json& json, const JsonPath& at) {
  return ReadList(json, at, ReadInt);
}

std::vector<std::string> ReadStringList(const Json& json, const JsonPath& at) {
  return ReadList(json, at, ReadString);
}

}  // namespace tdc::graph::json_read
