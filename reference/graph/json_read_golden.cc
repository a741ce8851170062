// Reading a whole golden document (SCHEMA.md §4-§5) and turning failures into located
// errors.
#include <fmt/format.h>

#include <cmath>

#include "reference/graph/json_depth.h"
#include "reference/graph/json_read_internal.h"

namespace tdc::graph::json_read {
namespace {

using enum Field;

std::string ReadSha256(const Json& json, const JsonPath& at) {
  std::string text = ReadString(json, at);
  bool hex = text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!hex) Fail(at, "expected a SHA-256 as 64 lower-case hex digits");
  return text;
}

// The reference's own documents (`tdref run --json`) were recorded by no oracle: their
// oracle_sha256 is empty (fixtures/SCHEMA.md §3). The freshness check still requires
// the digest of every golden under fixtures/.
std::string ReadOracleSha256(const Json& json, const JsonPath& at) {
  if (json.is_string() && json.get_ref<const std::string&>().empty()) return "";
  return ReadSha256(json, at);
}

FileLine ReadFileLine(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kFile, kLine});
  return FileLine{object.Get(kFile, ReadString), object.Get(kLine, ReadInt)};
}

StackFrame ReadStackFrame(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kFile, kLine, kName});
  return StackFrame{object.Get(kFile, ReadString), object.Get(kLine, ReadInt),
                    object.Get(kName, ReadString)};
}

std::vector<StackFrame> ReadStack(const Json& json, const JsonPath& at) {
  return ReadList(json, at, ReadStackFrame);
}

GraphBreak ReadGraphBreak(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at,
                      {kLocation, kReason, kGbType, kExplanation, kHints, kContext, kUserStack});
  GraphBreak record;
  record.location = ReadNullable(object.Member(kLocation), at.Field(kLocation), ReadFileLine);
  record.reason = object.Get(kReason, ReadString);
  record.gb_type = object.Get(kGbType, ReadString);
  record.explanation = object.Get(kExplanation, ReadString);
  record.hints = object.Get(kHints, ReadStringList);
  record.context = object.Get(kContext, ReadString);
  record.user_stack = ReadNullable(object.Member(kUserStack), at.Field(kUserStack), ReadStack);
  return record;
}

Trigger ReadTrigger(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kCode, kResume, kLine});
  return Trigger{object.Get(kCode, ReadString), object.Get(kResume, ReadBool),
                 object.Get(kLine, ReadInt)};
}

Invocation ReadInvocation(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at,
                      {kTrigger, kCompileId, kRecompile, kDynamoGraph, kAtenGraph, kAtenError});
  Invocation invocation;
  invocation.trigger = object.Get(kTrigger, ReadTrigger);
  invocation.compile_id = object.Get(kCompileId, ReadString);
  invocation.recompile = object.Get(kRecompile, ReadBool);
  invocation.dynamo_graph = object.Get(kDynamoGraph, ReadGraph);
  invocation.aten_graph = ReadNullable(object.Member(kAtenGraph), at.Field(kAtenGraph), ReadGraph);
  invocation.aten_error =
      ReadNullable(object.Member(kAtenError), at.Field(kAtenError), ReadException);
  return invocation;
}

Counters ReadCounters(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kFrameCount, kOpCount, kGraphBreak});
  Counters counters;
  counters.frame_count = object.Get(kFrameCount, ReadInt);
  counters.op_count = object.Get(kOpCount, ReadInt);
  counters.graph_break = ReadMap(object.Member(kGraphBreak), at.Field(kGraphBreak), ReadInt);
  return counters;
}

OrderedMap<Value> ReadOuts(const Json& json, const JsonPath& at) {
  return ReadMap(json, at, ReadOutValue);
}

std::optional<Exception> ReadOptionalException(const Json& json, const JsonPath& at) {
  return ReadNullable(json, at, ReadException);
}

Unsupported ReadUnsupported(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kReason, kWhere});
  return Unsupported{object.Get(kReason, ReadString), object.Get(kWhere, ReadString)};
}

// The fields every outcome has; `unsupported` is null but where the reference refused (D13).
void ReadOutcomeFields(const ObjectReader& object, Outcome& outcome) {
  outcome.outs = object.Get(kOuts, ReadOuts);
  outcome.exception = object.Get(kException, ReadOptionalException);
  outcome.unsupported =
      ReadNullable(object.Member(kUnsupported), object.path().Field(kUnsupported), ReadUnsupported);
}

Outcome ReadOutcome(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kOuts, kException, kUnsupported});
  Outcome outcome;
  ReadOutcomeFields(object, outcome);
  return outcome;
}

CompiledOutcome ReadCompiledOutcome(const Json& json, const JsonPath& at) {
  ObjectReader object(
      json, at,
      {kOuts, kException, kUnsupported, kInvocations, kCounters, kGraphBreaks, kAotEager});
  CompiledOutcome outcome;
  ReadOutcomeFields(object, outcome);
  outcome.invocations =
      ReadList(object.Member(kInvocations), at.Field(kInvocations), ReadInvocation);
  outcome.counters = object.Get(kCounters, ReadCounters);
  outcome.graph_breaks =
      ReadList(object.Member(kGraphBreaks), at.Field(kGraphBreaks), ReadGraphBreak);
  outcome.aot_eager = ReadNullable(object.Member(kAotEager), at.Field(kAotEager), ReadOutcome);
  return outcome;
}

double ReadToleranceNumber(const Json& json, const JsonPath& at) {
  if (!json.is_number()) Fail(at, fmt::format("expected a number, got {}", Describe(json)));
  double value = json.get<double>();
  if (!(value >= 0) || !std::isfinite(value)) Fail(at, "expected a finite number >= 0");
  return value;
}

Tolerance ReadTolerance(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kRtol, kAtol});
  return Tolerance{object.Get(kRtol, ReadToleranceNumber), object.Get(kAtol, ReadToleranceNumber)};
}

VariantOf ReadVariantOf(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kFixture, kTransform});
  return VariantOf{object.Get(kFixture, ReadString), object.Get(kTransform, ReadString)};
}

Header ReadHeader(const Json& json, const JsonPath& at) {
  ObjectReader object(
      json, at,
      {kProfiles, kRules, kScenarios, kSeedExample, kVersionProbe, kTolerance, kVariantOf});
  Header header;
  header.profiles = object.Get(kProfiles, ReadStringList);
  header.rules = object.Get(kRules, ReadStringList);
  header.scenarios = object.Get(kScenarios, ReadStringList);
  header.seed_example = ReadNullable(object.Member(kSeedExample), at.Field(kSeedExample), ReadInt);
  header.version_probe =
      ReadNullable(object.Member(kVersionProbe), at.Field(kVersionProbe), ReadString);
  JsonPath tolerance_at = at.Field(kTolerance);
  for (auto& [name, tolerance] : ReadMap(object.Member(kTolerance), tolerance_at, ReadTolerance)) {
    std::optional<DType> dtype = ParseDType(name);
    if (!dtype || DTypeElementKind(*dtype) != ElementKind::kFloat) {
      Fail(tolerance_at.Key(name),
           "a tolerance applies to a floating-point dtype "
           "(float16, bfloat16, float32, float64)");
    }
    header.tolerance.emplace_back(*dtype, tolerance);
  }
  header.variant_of = ReadNullable(object.Member(kVariantOf), at.Field(kVariantOf), ReadVariantOf);
  return header;
}

Environment ReadEnvironment(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at, {kAtenCpuCapability, kNumThreads});
  return Environment{object.Get(kAtenCpuCapability, ReadString), object.Get(kNumThreads, ReadInt)};
}

OrderedMap<bool> ReadProfileConfig(const Json& json, const JsonPath& at) {
  return ReadMap(json, at, ReadBool);
}

Meta ReadMeta(const Json& json, const JsonPath& at) {
  ObjectReader object(json, at,
                      {kFixture, kFixtureSha256, kOracleSha256, kTorchVersion, kPythonVersion,
                       kEnvironment, kHeader, kProfiles});
  Meta meta;
  meta.fixture = object.Get(kFixture, ReadString);
  meta.fixture_sha256 = object.Get(kFixtureSha256, ReadSha256);
  meta.oracle_sha256 = object.Get(kOracleSha256, ReadOracleSha256);
  meta.torch_version = object.Get(kTorchVersion, ReadString);
  meta.python_version = object.Get(kPythonVersion, ReadString);
  meta.environment = object.Get(kEnvironment, ReadEnvironment);
  meta.header = object.Get(kHeader, ReadHeader);
  meta.profiles = ReadMap(object.Member(kProfiles), at.Field(kProfiles), ReadProfileConfig);
  return meta;
}

Golden ReadDocument(const Json& json) {
  JsonPath root;
  // The schema version first: a document of another version fails on that, not on the
  // first field that changed.
  const std::string schema_key(FieldName(kSchema));
  if (json.is_object() && json.contains(schema_key)) {
    std::string schema = ReadString(json.at(schema_key), root.Field(kSchema));
    if (schema != kGoldenSchema) {
      Fail(root.Field(kSchema), fmt::format("unsupported schema \"{}\" (this reader knows \"{}\")",
                                            schema, kGoldenSchema));
    }
  }
  ObjectReader object(json, root, {kSchema, kMeta, kEager, kCompiled});
  Golden golden;
  golden.meta = object.Get(kMeta, ReadMeta);
  golden.eager = object.Get(kEager, ReadOutcome);
  golden.compiled = ReadMap(object.Member(kCompiled), root.Field(kCompiled), ReadCompiledOutcome);
  return golden;
}

// 1-based line and byte column of `offset` in `text`.
std::pair<int, int> LineAndColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<int>(offset - line_start) + 1};
}

// nlohmann's message without its "[json.exception...] parse error at ...: " prefix and
// its "; last read: '...'" suffix (the position says where; the bytes may not be text).
std::string SyntaxMessage(const std::string& what) {
  std::string message = what;
  size_t bracket = message.find("] ");
  if (message.starts_with("[json.exception") && bracket != std::string::npos) {
    message = message.substr(bracket + 2);
  }
  size_t colon = message.find(": ");
  if (message.starts_with("parse error") && colon != std::string::npos) {
    message = message.substr(colon + 2);
  }
  size_t last_read = message.find("; last read: ");
  if (last_read != std::string::npos) message.resize(last_read);
  return "invalid JSON: " + message;
}

}  // namespace
}  // namespace tdc::graph::json_read

namespace tdc::graph {

GoldenReadResult ReadGolden(std::string_view text) {
  GoldenReadResult result;
  if (std::optional<size_t> deep = FirstTooDeep(text)) {
    auto [line, column] = json_read::LineAndColumn(text, *deep);
    result.error = JsonError{line, column, "",
                             fmt::format("JSON nested more than {} levels deep", kMaxJsonNesting)};
    return result;
  }
  Json json;
  try {
    json = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // `byte` counts from 1 and points just past the offending character.
    auto [line, column] = json_read::LineAndColumn(text, e.byte == 0 ? 0 : e.byte - 1);
    result.error = JsonError{line, column, "", json_read::SyntaxMessage(e.what())};
    return result;
  } catch (const Json::exception& e) {
    result.error = JsonError{0, 0, "", json_read::SyntaxMessage(e.what())};
    return result;
  }
  try {
    result.golden = json_read::ReadDocument(json);
  } catch (const json_read::ReadFailure& failure) {
    result.error = JsonError{0, 0, failure.path, failure.message};
  }
  return result;
}

std::string FormatJsonError(std::string_view file, const JsonError& error) {
  if (error.line > 0) {
    return fmt::format("{}:{}:{}: error: {}", file, error.line, error.column, error.message);
  }
  if (error.path.empty()) return fmt::format("{}: error: {}", file, error.message);
  return fmt::format("{}: error: {}: {}", file, error.path, error.message);
}

}  // namespace tdc::graph
