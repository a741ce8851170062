// Comparing outcomes (SCHEMA.md §5, §10) and whole documents: `eager` and `compiled`,
// never `meta`.
#include <fmt/format.h>

#include "reference/compare/comparator.h"
#include "reference/compare/differ.h"

namespace tdc::compare {
namespace {

using enum Field;
using graph::CompiledOutcome;
using graph::Counters;
using graph::Exception;
using graph::FileLine;
using graph::Golden;
using graph::Graph;
using graph::GraphBreak;
using graph::Invocation;
using graph::OrderedMap;
using graph::Outcome;
using graph::StackFrame;
using graph::Trigger;
using graph::Value;

std::string RenderValue(const Value& value) { return RenderJson(graph::ToJson(value)); }
std::string RenderException(const Exception& e) { return RenderJson(graph::ToJson(e)); }
std::string RenderGraph(const Graph& graph) { return RenderJson(graph::ToJson(graph)); }
std::string RenderCount(int64_t count) { return Render(count); }
std::string RenderFileLine(const FileLine& at) {
  return fmt::format("{{\"file\":{},\"line\":{}}}", Render(at.file), at.line);
}
std::string RenderStack(const std::vector<StackFrame>& stack) {
  return fmt::format("{} frames", stack.size());
}
std::string RenderOutcome(const Outcome&) { return "an outcome"; }

void CompareExceptions(Differ& d, const JsonPath& at, const Exception& expected,
                       const Exception& actual) {
  ExactField(d, at, kType, expected.type, actual.type);
  ExactField(d, at, kMessage, expected.message, actual.message);
}

void CompareOptionalExceptions(Differ& d, const JsonPath& at,
                               const std::optional<Exception>& expected,
                               const std::optional<Exception>& actual) {
  CompareNullables(d, at, expected, actual, CompareExceptions, RenderException);
}

void CompareOptionalGraphs(Differ& d, const JsonPath& at, const std::optional<Graph>& expected,
                           const std::optional<Graph>& actual) {
  CompareNullables(d, at, expected, actual, CompareGraphs, RenderGraph);
}

void CompareTriggers(Differ& d, const JsonPath& at, const Trigger& expected,
                     const Trigger& actual) {
  ExactField(d, at, kCode, expected.code, actual.code);
  ExactField(d, at, kResume, expected.resume, actual.resume);
  ExactField(d, at, kLine, expected.line, actual.line);
}

void CompareInvocations(Differ& d, const JsonPath& at, const Invocation& expected,
                        const Invocation& actual) {
  InField(d, at, kTrigger, expected.trigger, actual.trigger, CompareTriggers);
  ExactField(d, at, kCompileId, expected.compile_id, actual.compile_id);
  ExactField(d, at, kRecompile, expected.recompile, actual.recompile);
  InField(d, at, kDynamoGraph, expected.dynamo_graph, actual.dynamo_graph, CompareGraphs);
  InField(d, at, kAtenGraph, expected.aten_graph, actual.aten_graph, CompareOptionalGraphs);
  InField(d, at, kAtenError, expected.aten_error, actual.aten_error, CompareOptionalExceptions);
}

void CompareFileLines(Differ& d, const JsonPath& at, const FileLine& expected,
                      const FileLine& actual) {
  ExactField(d, at, kFile, expected.file, actual.file);
  ExactField(d, at, kLine, expected.line, actual.line);
}

void CompareFrames(Differ& d, const JsonPath& at, const StackFrame& expected,
                   const StackFrame& actual) {
  ExactField(d, at, kFile, expected.file, actual.file);
  ExactField(d, at, kLine, expected.line, actual.line);
  ExactField(d, at, kName, expected.name, actual.name);
}

void CompareStacks(Differ& d, const JsonPath& at, const std::vector<StackFrame>& expected,
                   const std::vector<StackFrame>& actual) {
  CompareLists(d, at, expected, actual, CompareFrames);
}

void CompareStrings(Differ& d, const JsonPath& at, const std::string& expected,
                    const std::string& actual) {
  d.Exact(at, expected, actual);
}

void CompareGraphBreaks(Differ& d, const JsonPath& at, const GraphBreak& expected,
                        const GraphBreak& actual) {
  InField(d, at, kLocation, expected.location, actual.location,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareNullables(d2, in, e, a, CompareFileLines, RenderFileLine);
          });
  ExactField(d, at, kReason, expected.reason, actual.reason);
  ExactField(d, at, kGbType, expected.gb_type, actual.gb_type);
  ExactField(d, at, kExplanation, expected.explanation, actual.explanation);
  InField(d, at, kHints, expected.hints, actual.hints,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareLists(d2, in, e, a, CompareStrings);
          });
  ExactField(d, at, kContext, expected.context, actual.context);
  InField(d, at, kUserStack, expected.user_stack, actual.user_stack,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareNullables(d2, in, e, a, CompareStacks, RenderStack);
          });
}

void CompareCounts(Differ& d, const JsonPath& at, const int64_t& expected, const int64_t& actual) {
  d.Exact(at, expected, actual);
}

void CompareCounters(Differ& d, const JsonPath& at, const Counters& expected,
                     const Counters& actual) {
  ExactField(d, at, kFrameCount, expected.frame_count, actual.frame_count);
  ExactField(d, at, kOpCount, expected.op_count, actual.op_count);
  InField(d, at, kGraphBreak, expected.graph_break, actual.graph_break,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareMaps(d2, in, e, a, CompareCounts, RenderCount);
          });
}

void CompareOutcomes(Differ& d, const JsonPath& at, const Outcome& expected,
                     const Outcome& actual) {
  InField(d, at, kOuts, expected.outs, actual.outs,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareMaps(d2, in, e, a, CompareValues, RenderValue);
          });
  InField(d, at, kException, expected.exception, actual.exception, CompareOptionalExceptions);
}

void CompareCompiledOutcomes(Differ& d, const JsonPath& at, const CompiledOutcome& expected,
                             const CompiledOutcome& actual) {
  CompareOutcomes(d, at, expected, actual);
  InField(d, at, kInvocations, expected.invocations, actual.invocations,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareLists(d2, in, e, a, CompareInvocations);
          });
  InField(d, at, kCounters, expected.counters, actual.counters, CompareCounters);
  InField(d, at, kGraphBreaks, expected.graph_breaks, actual.graph_breaks,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareLists(d2, in, e, a, CompareGraphBreaks);
          });
  InField(d, at, kAotEager, expected.aot_eager, actual.aot_eager,
          [](Differ& d2, const JsonPath& in, const auto& e, const auto& a) {
            CompareNullables(d2, in, e, a, CompareOutcomes, RenderOutcome);
          });
}

// `compiled`, or only its entry for `profile`.
void CompareCompiled(Differ& d, const JsonPath& at, const OrderedMap<CompiledOutcome>& expected,
                     const OrderedMap<CompiledOutcome>& actual,
                     const std::optional<std::string>& profile) {
  if (!profile) {
    CompareMaps(d, at, expected, actual, CompareCompiledOutcomes, RenderOutcome);
    return;
  }
  auto only = [&](const OrderedMap<CompiledOutcome>& map) {
    OrderedMap<CompiledOutcome> selected;
    for (const auto& entry : map) {
      if (entry.first == *profile) selected.push_back(entry);
    }
    return selected;
  };
  CompareMaps(d, at, only(expected), only(actual), CompareCompiledOutcomes, RenderOutcome);
}

}  // namespace

std::optional<Mode> ParseMode(std::string_view name) {
  if (name == "eager") return Mode::kEager;
  if (name == "compile") return Mode::kCompile;
  return std::nullopt;
}

std::optional<std::vector<Field>> MaskFields(std::string_view name) {
  if (name == "aten") return std::vector<Field>{kAtenGraph, kAtenError, kAotEager};
  if (std::optional<Field> field = graph::ParseField(name)) return std::vector<Field>{*field};
  return std::nullopt;
}

std::string FormatDifference(const Difference& difference) {
  return fmt::format("{}: expected {}, got {}", difference.path, difference.expected,
                     difference.got);
}

CompareResult Compare(const Golden& expected, const Golden& actual, const CompareOptions& options) {
  CompareResult result;
  bool eager = options.mode != Mode::kCompile;
  bool compiled = options.mode != Mode::kEager;
  if (compiled && options.profile) {
    bool known = false;
    for (const auto& entry : expected.compiled) known = known || entry.first == *options.profile;
    if (!known) {
      result.error = fmt::format("the expected document has no profile \"{}\"", *options.profile);
      return result;
    }
  }
  Differ d(options, expected.meta.header);
  JsonPath root;
  if (eager) InField(d, root, kEager, expected.eager, actual.eager, CompareOutcomes);
  if (compiled) {
    if (std::optional<JsonPath> at = d.Enter(root, kCompiled)) {
      CompareCompiled(d, *at, expected.compiled, actual.compiled, options.profile);
    }
  }
  result.differences = d.Take();
  return result;
}

}  // namespace tdc::compare
