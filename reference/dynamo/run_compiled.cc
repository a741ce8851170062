#include "reference/dynamo/run_compiled.h"

#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/outcome.h"
#include "reference/runtime/interp/run_program.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

// The profiles of fixtures/SCHEMA.md §3 (DESIGN D3): the torch._dynamo.config values the
// oracle sets before a fixture runs (conformance/oracle/profiles.py holds the same table).
struct Profile {
  const char* name;
  bool nested_graph_breaks;
};
constexpr Profile kProfiles[] = {{"torch-2.13", false}, {"torch-2.13-ngb", true}};

const Profile* FindProfile(const std::string& name) {
  for (const Profile& p : kProfiles) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

}  // namespace

bool IsKnownProfile(const std::string& profile) { return FindProfile(profile) != nullptr; }

std::vector<std::string> KnownProfiles() {
  std::vector<std::string> names;
  for (const Profile& p : kProfiles) names.emplace_back(p.name);
  return names;
}

std::variant<graph::CompiledOutcome, std::string> RunCompiled(const std::string& source,
                                                              const std::string& display_name,
                                                              const CompileRunOptions& options) {
  return RunCompiled(ParseProgram(source, display_name), display_name, options);
}

std::variant<graph::CompiledOutcome, std::string> RunCompiled(const ParsedProgram& parsed,
                                                              const std::string& display_name,
                                                              const CompileRunOptions& options) {
  auto result = RunExplained(parsed, display_name, options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) return std::move(*diagnostic);
  return std::get<Explained>(std::move(result)).outcome;
}

std::variant<Explained, std::string> RunExplained(const std::string& source,
                                                  const std::string& display_name,
                                                  const CompileRunOptions& options) {
  return RunExplained(ParseProgram(source, display_name), display_name, options);
}

std::variant<Explained, std::string> RunExplained(const ParsedProgram& parsed,
                                                  const std::string& display_name,
                                                  const CompileRunOptions& options) {
  if (!IsKnownProfile(options.profile)) {
    return fmt::format(
        "{}:1:1: error: unknown profile '{}' (the reference predicts: torch-2.13, torch-2.13-ngb)",
        display_name, options.profile);
  }
  RuleSet rules;
  for (const std::string& label : options.disabled_rules) {
    std::optional<Rule> rule = FindRule(label);
    if (!rule)
      return fmt::format("{}:1:1: error: unknown rule '{}' (reference/dynamo/rules.def)",
                         display_name, label);
    rules.Disable(*rule);
  }
  if (const auto* diagnostic = std::get_if<Diagnostic>(&parsed)) {
    auto refused = OutcomeOfDiagnostic(*diagnostic);
    if (auto* text = std::get_if<std::string>(&refused)) return std::move(*text);
    Explained explained;
    static_cast<graph::Outcome&>(explained.outcome) = std::get<graph::Outcome>(std::move(refused));
    return explained;
  }
  const auto& program = std::get<std::shared_ptr<const Program>>(parsed);

  Process process;
  process.heap().set_reuse_flip(options.reuse_flip);
  ScopedStepBudget budget(options.max_steps);
  Explained explained;
  graph::CompiledOutcome& outcome = explained.outcome;
  {
    Interpreter in(process);
    Ref<PyDict> globals = PrepareFixture(in, display_name);
    process.modules()[ModuleId::kTorchDynamoConfig]->SetAttr(
        "nested_graph_breaks",
        process.heap().Bool(FindProfile(options.profile)->nested_graph_breaks));
    Value recorder = globals->GetStr("backend");
    Dynamo dynamo(in, rules, recorder, options.aten, options.backend);
    process.compiler.make_compile_wrapper = [&dynamo](const Value& model,
                                                      CompileCallback callback) -> Value {
      return dynamo.MakeCompileWrapper(model, std::move(callback));
    };
    static_cast<graph::Outcome&>(outcome) =
        MakeOutcome(*globals, RunFixtureModule(in, program, globals), display_name);
    const Records& records = dynamo.records();
    outcome.invocations = records.invocations;
    outcome.graph_breaks = records.graph_breaks;
    // torch._dynamo.utils.counters["graph_break"] at the end (the program may clear it).
    outcome.counters.graph_break = process.compiler.counters.Counts("graph_break");
    explained.explanation = records.explanation;
    if (records.explanation_omitted > 0) {
      explained.explanation.push_back(
          fmt::format("... and {} more decisions, not kept (the first {} are above)",
                      records.explanation_omitted, kMaxExplanationLines));
    }
    auto count = [&](const char* name) {
      const auto* v = DynCast<PyInt>(in.GetAttr(recorder, name));
      return v != nullptr ? v->value() : 0;
    };
    outcome.counters.frame_count = count("frame_count");
    outcome.counters.op_count = count("op_count");
    process.compiler.make_compile_wrapper = nullptr;
  }
  return explained;
}

}  // namespace tdc::dynamo
