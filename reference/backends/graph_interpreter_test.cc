// The interpreter against the reference's own run: every graph of every compile-scope
// fixture (torch-2.13), run by the interpreter at both levels on the inputs the traced
// program gave it, computes what the reference computed for its outputs (whose values the
// fixtures' goldens pin to torch's). Dynamo graphs run the very kernels tracing ran: equal
// bit for bit. ATen graphs compute through AOT autograd's decompositions: equal within
// the comparator's float32 tolerance.
#include "reference/backends/graph_interpreter.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "reference/aot/aot_lowering.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/test_files.h"

namespace tdc::backends {
namespace {

using runtime::Tensor;

bool SameBits(const Tensor& a, const Tensor& b) {
  if (a.dtype != b.dtype || a.sizes != b.sizes) return false;
  std::vector<runtime::Scalar> x = a.Values(), y = b.Values();
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].AsDouble() != y[i].AsDouble() &&
        !(std::isnan(x[i].AsDouble()) && std::isnan(y[i].AsDouble())))
      return false;
  }
  return true;
}

bool Close(const Tensor& a, const Tensor& b) {
  if (a.dtype != b.dtype || a.sizes != b.sizes) return false;
  std::vector<runtime::Scalar> x = a.Values(), y = b.Values();
  for (size_t i = 0; i < x.size(); ++i) {
    double u = x[i].AsDouble(), v = y[i].AsDouble();
    if (std::isnan(u) && std::isnan(v)) continue;
    if (!(std::abs(u - v) <= 1e-5 + 1.3e-6 * std::abs(v)))
      return false;  // torch.testing's float32 rtol/atol
  }
  return true;
}

class Checker : public runtime::GraphBackend {
 public:
  std::optional<std::vector<Tensor>> Run(const Graphs& g) override {
    Check(*g.dynamo, GraphLevel::kDynamo, {}, g, g.dynamo_host);
    if (g.aten != nullptr) Check(*g.aten, GraphLevel::kAten, g.aten_constants, g, g.aten_host);
    return std::nullopt;  // the reference's values stay
  }
  std::string fixture;
  std::vector<std::string> failures;
  std::map<std::string, int> aten_errors;
  int graphs = 0;

 private:
  void Check(const graph::Graph& graph, GraphLevel level, const Constants& constants,
             const Graphs& g, const HostNode& host) {
    ++graphs;
    const char* name = level == GraphLevel::kAten ? "aten" : "dynamo";
    auto result = RunGraph(graph, level, g.inputs, constants, host);
    if (auto* error = std::get_if<std::string>(&result)) {
      failures.push_back(fmt::format("{} graph {} ({}): {}", fixture, g.compile_id, name, *error));
      return;
    }
    const auto& out = std::get<std::vector<Tensor>>(result);
    if (out.size() != g.expected.size()) {
      failures.push_back(fmt::format("{} graph {} ({}): {} outputs, expected {}", fixture,
                                     g.compile_id, name, out.size(), g.expected.size()));
      return;
    }
    // An allowed function's body reading is_compiling() is traced as True at the ATen level
    // only: there the ATen graph must compute something else than the program did
    // (interpreting_backend.h; checked with torch 2.13.0's aot_eager).
    const bool differs_by_level =
        level == GraphLevel::kAten &&
        fixture.find("allowed_body_values_differ_by_level") != std::string::npos;
    for (size_t i = 0; i < out.size(); ++i) {
      bool ok = level == GraphLevel::kDynamo ? SameBits(out[i], g.expected[i])
                                             : Close(out[i], g.expected[i]);
      if (ok == differs_by_level) {
        failures.push_back(fmt::format("{} graph {} ({}): output {} {}", fixture, g.compile_id,
                                       name, i,
                                       differs_by_level ? "is the Dynamo graph's" : "differs"));
      }
    }
  }
};

TEST(GraphInterpreterTest, EveryCompileScopeGraphComputesWhatTheReferenceComputed) {
  std::ifstream args(TDC_COMPILE_VERIFY_ARGS);
  ASSERT_TRUE(args) << TDC_COMPILE_VERIFY_ARGS;
  Checker checker;
  std::string line;
  int fixtures = 0;
  while (std::getline(args, line)) {
    if (!line.ends_with(".py")) continue;
    std::optional<std::string> source = graph::testing::ReadSourceFile(line);
    ASSERT_TRUE(source) << line;
    dynamo::CompileRunOptions options;
    options.aten = &aot::AotLowering();
    options.backend = &checker;
    checker.fixture = line;
    auto outcome = dynamo::RunCompiled(*source, line, options);
    ASSERT_TRUE(std::holds_alternative<graph::CompiledOutcome>(outcome)) << line;
    ++fixtures;
  }
  EXPECT_GT(fixtures, 500);
  EXPECT_GT(checker.graphs, 1000);
  std::string all;
  for (const std::string& f : checker.failures) all += f + "\n";
  EXPECT_TRUE(checker.failures.empty()) << checker.failures.size() << " graphs differ:\n" << all;
}

// torch._assert_async(cond, message) at both levels: nothing when cond holds, torch's
// RuntimeError text when it does not (its message) or cannot be read as one bool.
TEST(GraphInterpreterTest, AnAssertNodePassesOrFailsWithItsMessage) {
  for (const char* target :
       {"torch._VariableFunctionsClass._assert_async", "aten._assert_async.msg"}) {
    graph::Graph g;
    graph::Node input;
    input.op = graph::NodeOp::kPlaceholder;
    graph::Node check;
    check.target = target;
    check.args = {graph::Arg::Ref(0), graph::Arg::Str("sum must be positive")};
    graph::Node output;
    output.op = graph::NodeOp::kOutput;
    output.args = {graph::Arg::Sequence(graph::ValueKind::kTuple, {graph::Arg::Ref(0)})};
    g.nodes = {input, check, output};
    const HostNode no_host = [](size_t, const std::vector<Tensor>&) {
      return std::variant<std::vector<Tensor>, std::string>(std::string("no host"));
    };
    const GraphLevel level =
        std::string_view(target).starts_with("aten.") ? GraphLevel::kAten : GraphLevel::kDynamo;
    auto run = [&](std::vector<bool> values) {
      std::vector<runtime::Scalar> scalars;
      for (bool v : values) scalars.push_back(runtime::Scalar::Bool(v));
      const runtime::Shape sizes = values.size() == 1
                                       ? runtime::Shape{}
                                       : runtime::Shape{static_cast<int64_t>(values.size())};
      return RunGraph(g, level, {runtime::TensorFromValues(runtime::DType::kBool, sizes, scalars)},
                      {}, no_host);
    };
    EXPECT_TRUE(std::holds_alternative<std::vector<Tensor>>(run({true}))) << target;
    auto failed = run({false});
    ASSERT_TRUE(std::holds_alternative<std::string>(failed)) << target;
    EXPECT_NE(std::get<std::string>(failed).find("sum must be positive"), std::string::npos);
    auto ambiguous = run({true, true});
    ASSERT_TRUE(std::holds_alternative<std::string>(ambiguous)) << target;
    EXPECT_NE(std::get<std::string>(ambiguous).find("more than one value is ambiguous"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace tdc::backends
