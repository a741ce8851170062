// Writing golden documents: SCHEMA.md's key order, Python's json.dumps(indent=1) text.
#include "reference/graph/golden_json.h"
#include "reference/graph/hex_float.h"

namespace tdc::graph {
namespace {

using enum Field;

// Adds `field: value` to an object, in call order (ordered_json keeps it).
void Put(Json& object, Field field, Json value) {
  object[std::string(FieldName(field))] = std::move(value);
}

template <typename T, typename Encode>
Json ListOf(const std::vector<T>& items, Encode encode) {
  Json list = Json::array();
  for (const T& item : items) list.push_back(encode(item));
  return list;
}

template <typename T, typename Encode>
Json MapOf(const OrderedMap<T>& map, Encode encode) {
  Json object = Json::object();
  for (const auto& [key, value] : map) object[key] = encode(value);
  return object;
}

template <typename T, typename Encode>
Json NullableOf(const std::optional<T>& value, Encode encode) {
  return value ? encode(*value) : Json(nullptr);
}

// Scalars and lists of scalars encode as themselves.
constexpr auto Identity = [](const auto& value) { return Json(value); };
Json ValueJson(const Value& value) { return ToJson(value); }
Json GraphJson(const Graph& graph) { return ToJson(graph); }
Json ExceptionJson(const Exception& exception) { return ToJson(exception); }
Json DTypeJson(DType dtype) { return Json(DTypeName(dtype)); }

Json TensorJson(const Tensor& tensor) {
  Json object = Json::object();
  Put(object, kDtype, DTypeJson(tensor.dtype));
  Put(object, kShape, Json(tensor.shape));
  Put(object, kStrides, Json(tensor.strides));
  Put(object, kRequiresGrad, Json(tensor.requires_grad));
  Json values = Json::array();
  switch (DTypeElementKind(tensor.dtype)) {
    case ElementKind::kFloat:
      for (double v : tensor.floats) values.push_back(FormatHexFloat(v));
      break;
    case ElementKind::kInt:
      for (int64_t v : tensor.integers) values.push_back(v);
      break;
    case ElementKind::kBool:
      for (int64_t v : tensor.integers) values.push_back(v != 0);
      break;
    case ElementKind::kComplex:
      break;  // Not encodable in schema v1; the reader never produces one.
  }
  Put(object, kValues, std::move(values));
  return object;
}

Json PayloadJson(const Value& value) {
  switch (value.kind) {
    case ValueKind::kTensor:
      return TensorJson(*value.tensor);
    case ValueKind::kInt:
    case ValueKind::kRef:
      return Json(value.integer);
    case ValueKind::kFloat:
      return Json(FormatHexFloat(value.number));
    case ValueKind::kBool:
      return Json(value.boolean);
    case ValueKind::kStr:
    case ValueKind::kDevice:
    case ValueKind::kCallable:
    case ValueKind::kRepr:
      return Json(value.text);
    case ValueKind::kNone:
    case ValueKind::kEllipsis:
      return Json(nullptr);
    case ValueKind::kTuple:
    case ValueKind::kList:
    case ValueKind::kSlice:
      return ListOf(value.items, ValueJson);
    case ValueKind::kDict: {
      Json entries = Json::array();
      for (const DictEntry& entry : value.entries) {
        entries.push_back(Json::array({ToJson(entry.key), ToJson(entry.value)}));
      }
      return entries;
    }
    case ValueKind::kDtype:
      return DTypeJson(value.dtype);
    case ValueKind::kLayout:
      return Json(LayoutName(value.layout));
    case ValueKind::kMemoryFormat:
      return Json(MemoryFormatName(value.memory_format));
  }
  return Json(nullptr);
}

Json NodeJson(const Node& node) {
  Json object = Json::object();
  Put(object, kOp, Json(NodeOpName(node.op)));
  switch (node.op) {
    case NodeOp::kPlaceholder:
      Put(object, kType, Json(node.type));
      Put(object, kShape, NullableOf(node.shape, Identity));
      Put(object, kDtype, NullableOf(node.dtype, DTypeJson));
      Put(object, kRequiresGrad, NullableOf(node.requires_grad, Identity));
      Put(object, kSource, NullableOf(node.source, Identity));
      break;
    case NodeOp::kCallFunction:
    case NodeOp::kCallMethod:
    case NodeOp::kCallModule:
    case NodeOp::kGetAttr:
      Put(object, kTarget, Json(node.target));
      Put(object, kArgs, ListOf(node.args, ValueJson));
      Put(object, kKwargs, MapOf(node.kwargs, ValueJson));
      break;
    case NodeOp::kOutput:
      Put(object, kArgs, ListOf(node.args, ValueJson));
      break;
  }
  return object;
}

Json FileLineJson(const FileLine& location) {
  Json object = Json::object();
  Put(object, kFile, Json(location.file));
  Put(object, kLine, Json(location.line));
  return object;
}

Json StackFrameJson(const StackFrame& frame) {
  Json object = Json::object();
  Put(object, kFile, Json(frame.file));
  Put(object, kLine, Json(frame.line));
  Put(object, kName, Json(frame.name));
  return object;
}

Json StackJson(const std::vector<StackFrame>& stack) { return ListOf(stack, StackFrameJson); }

Json GraphBreakJson(const GraphBreak& record) {
  Json object = Json::object();
  Put(object, kLocation, NullableOf(record.location, FileLineJson));
  Put(object, kReason, Json(record.reason));
  Put(object, kGbType, Json(record.gb_type));
  Put(object, kExplanation, Json(record.explanation));
  Put(object, kHints, Json(record.hints));
  Put(object, kContext, Json(record.context));
  Put(object, kUserStack, NullableOf(record.user_stack, StackJson));
  return object;
}

Json InvocationJson(const Invocation& invocation) {
  Json trigger = Json::object();
  Put(trigger, kCode, Json(invocation.trigger.code));
  Put(trigger, kResume, Json(invocation.trigger.resume));
  Put(trigger, kLine, Json(invocation.trigger.line));
  Json object = Json::object();
  Put(object, kTrigger, std::move(trigger));
  Put(object, kCompileId, Json(invocation.compile_id));
  Put(object, kRecompile, Json(invocation.recompile));
  Put(object, kDynamoGraph, ToJson(invocation.dynamo_graph));
  Put(object, kAtenGraph, NullableOf(invocation.aten_graph, GraphJson));
  Put(object, kAtenError, NullableOf(invocation.aten_error, ExceptionJson));
  return object;
}

Json UnsupportedJson(const Unsupported& unsupported) {
  Json object = Json::object();
  Put(object, kReason, Json(unsupported.reason));
  Put(object, kWhere, Json(unsupported.where));
  return object;
}

void PutOutcome(Json& object, const Outcome& outcome) {
  Put(object, kOuts, MapOf(outcome.outs, ValueJson));
  Put(object, kException, NullableOf(outcome.exception, ExceptionJson));
  Put(object, kUnsupported, NullableOf(outcome.unsupported, UnsupportedJson));
}

Json CompiledOutcomeJson(const CompiledOutcome& outcome) {
  Json object = Json::object();
  PutOutcome(object, outcome);
  Put(object, kInvocations, ListOf(outcome.invocations, InvocationJson));
  Json counters = Json::object();
  Put(counters, kFrameCount, Json(outcome.counters.frame_count));
  Put(counters, kOpCount, Json(outcome.counters.op_count));
  Put(counters, kGraphBreak, MapOf(outcome.counters.graph_break, Identity));
  Put(object, kCounters, std::move(counters));
  Put(object, kGraphBreaks, ListOf(outcome.graph_breaks, GraphBreakJson));
  Put(object, kAotEager, NullableOf(outcome.aot_eager, [](const Outcome& aot) {
        Json section = Json::object();
        PutOutcome(section, aot);
        return section;
      }));
  return object;
}

Json HeaderJson(const Header& header) {
  Json object = Json::object();
  Put(object, kProfiles, Json(header.profiles));
  Put(object, kRules, Json(header.rules));
  Put(object, kScenarios, Json(header.scenarios));
  Put(object, kSeedExample, NullableOf(header.seed_example, Identity));
  Put(object, kVersionProbe, NullableOf(header.version_probe, Identity));
  Json tolerance = Json::object();
  for (const auto& [dtype, t] : header.tolerance) {
    Json entry = Json::object();
    Put(entry, kRtol, Json(t.rtol));
    Put(entry, kAtol, Json(t.atol));
    tolerance[std::string(DTypeName(dtype))] = std::move(entry);
  }
  Put(object, kTolerance, std::move(tolerance));
  Put(object, kVariantOf, NullableOf(header.variant_of, [](const VariantOf& variant) {
        Json origin = Json::object();
        Put(origin, kFixture, Json(variant.fixture));
        Put(origin, kTransform, Json(variant.transform));
        return origin;
      }));
  return object;
}

Json MetaJson(const Meta& meta) {
  Json object = Json::object();
  Put(object, kFixture, Json(meta.fixture));
  Put(object, kFixtureSha256, Json(meta.fixture_sha256));
  Put(object, kOracleSha256, Json(meta.oracle_sha256));
  Put(object, kTorchVersion, Json(meta.torch_version));
  Put(object, kPythonVersion, Json(meta.python_version));
  Json environment = Json::object();
  Put(environment, kAtenCpuCapability, Json(meta.environment.aten_cpu_capability));
  Put(environment, kNumThreads, Json(meta.environment.num_threads));
  Put(object, kEnvironment, std::move(environment));
  Put(object, kHeader, HeaderJson(meta.header));
  Put(object, kProfiles,
      MapOf(meta.profiles, [](const OrderedMap<bool>& config) { return MapOf(config, Identity); }));
  return object;
}

}  // namespace

Json ToJson(const Value& value) {
  Json object = Json::object();
  object[std::string(ValueKindName(value.kind))] = PayloadJson(value);
  return object;
}

Json ToJson(const Graph& graph) {
  Json object = Json::object();
  Put(object, kNodes, ListOf(graph.nodes, NodeJson));
  return object;
}

Json ToJson(const Exception& exception) {
  Json object = Json::object();
  Put(object, kType, Json(exception.type));
  Put(object, kMessage, Json(exception.message));
  return object;
}

Json ToJson(const Golden& golden) {
  Json object = Json::object();
  Put(object, kSchema, Json(kGoldenSchema));
  Put(object, kMeta, MetaJson(golden.meta));
  Json eager = Json::object();
  PutOutcome(eager, golden.eager);
  Put(object, kEager, std::move(eager));
  Put(object, kCompiled, MapOf(golden.compiled, CompiledOutcomeJson));
  return object;
}

std::string WriteGolden(const Golden& golden) {
  // The oracle's json.dumps(doc, indent=1, ensure_ascii=False): one-space indent,
  // "key": value, "," at line ends, empty containers as [] and {}, UTF-8 as itself and
  // only controls escaped (\n, \t, ... and \u00XX in lower-case hex).
  return ToJson(golden).dump(1, ' ', /*ensure_ascii=*/false) + "\n";
}

}  // namespace tdc::graph
