// A golden document (fixtures/SCHEMA.md §4-§5): what one fixture program did, eagerly
// and under torch.compile per profile. The oracle records it from real torch; `tdref run
// --json` emits the same model. Field order follows SCHEMA.md (and the JSON writer).
#ifndef TDCONFORM_REFERENCE_GRAPH_GOLDEN_H_
#define TDCONFORM_REFERENCE_GRAPH_GOLDEN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/graph/graph.h"
#include "reference/graph/value.h"
#include "reference/graph/vocabulary.h"

namespace tdc::graph {

inline constexpr std::string_view kGoldenSchema = "tdconform-golden/1";

// A Python exception: `type` is module + qualname with `builtins.` dropped; `message`
// is str(exc), normalized (§8).
struct Exception {
  std::string type;
  std::string message;
};

// The statement that triggered a backend call.
struct Trigger {
  std::string code;  // co_qualname; resume functions keep Dynamo's name
  bool resume = false;
  int64_t line = 0;  // where tracing of this graph stopped
};

// One call of the recording backend.
struct Invocation {
  Trigger trigger;
  std::string compile_id;  // "frame_id/frame_compile_id"
  bool recompile = false;
  Graph dynamo_graph;
  std::optional<Graph> aten_graph;      // null when ATen capture failed
  std::optional<Exception> aten_error;  // why it failed
};

struct FileLine {
  std::string file;
  int64_t line = 0;
};

struct StackFrame {
  std::string file;
  int64_t line = 0;
  std::string name;
};

// One graph break Dynamo logged.
struct GraphBreak {
  std::optional<FileLine> location;
  std::string reason;
  std::string gb_type;
  std::string explanation;
  std::vector<std::string> hints;
  std::string context;
  std::optional<std::vector<StackFrame>> user_stack;  // null when Dynamo suppressed it
};

struct Counters {
  int64_t frame_count = 0;
  int64_t op_count = 0;
  OrderedMap<int64_t> graph_break;  // normalized key -> count
};

// The reference's refusal (DESIGN D13): what it does not model and where the program
// reached it (`file:line:col`). Never in a golden torch recorded: only the reference's own
// outcomes carry one, and an outcome with one is no prediction (its outs and exception are
// what had happened before, not an answer).
struct Unsupported {
  std::string reason;
  std::string where;
};

// What a program ended with, in one mode.
struct Outcome {
  OrderedMap<Value> outs;
  std::optional<Exception> exception;
  std::optional<Unsupported> unsupported;
};

struct CompiledOutcome : Outcome {
  std::vector<Invocation> invocations;
  Counters counters;
  std::vector<GraphBreak> graph_breaks;
  // The program's outcome with torch's aot_eager as the backend (its graphs' ATen forward
  // graphs run): what an ATen-level or AOT-based backend must give. Always recorded by the
  // oracle; null in an outcome nobody ran that way (`tdref run` without the ATen level, a
  // backend's run in tdconform).
  std::optional<Outcome> aot_eager;
};

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// A metamorphic variant's origin (DESIGN.md, Tests): the fixture it was derived from and
// the transform (rename, wrap, constants) that derived it.
struct VariantOf {
  std::string fixture;
  std::string transform;
};

// The parsed `# tdc:` header of the fixture (§2).
struct Header {
  std::vector<std::string> profiles;
  std::vector<std::string> rules;
  std::vector<std::string> scenarios;
  std::optional<int64_t> seed_example;
  std::optional<std::string> version_probe;
  std::vector<std::pair<DType, Tolerance>> tolerance;  // overrides, by dtype
  std::optional<VariantOf> variant_of;                 // null unless a variant
};

struct Environment {
  std::string aten_cpu_capability;
  int64_t num_threads = 0;
};

// Provenance; never compared (§4), except that the expected document's header
// tolerances configure the comparison.
struct Meta {
  std::string fixture;
  std::string fixture_sha256;
  std::string oracle_sha256;
  std::string torch_version;
  std::string python_version;
  Environment environment;
  Header header;
  OrderedMap<OrderedMap<bool>> profiles;  // profile -> config name -> value (§3)
};

struct Golden {
  Meta meta;
  Outcome eager;
  OrderedMap<CompiledOutcome> compiled;  // profile -> outcome
};

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_GOLDEN_H_
