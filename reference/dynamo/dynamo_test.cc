// Unit tests of the Dynamo layer's pieces whose expectations come from CPython 3.11 and
// torch 2.13.0 directly (the probes of SEMANTICS §8.3, the goldens' texts); the
// behaviour as a whole is checked against goldens by the fixture ctests.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "reference/dynamo/liveness.h"
#include "reference/dynamo/messages.h"
#include "reference/dynamo/rules.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/dynamo/user_traceback.h"
#include "reference/lang/ast_fields.h"
#include "reference/lang/parser.h"
#include "reference/runtime/interp/scopes.h"

namespace tdc::dynamo {
namespace {

// The first call in a subtree, in source order.
struct CallFinder : lang::FieldVisitor {
  const lang::Call* call = nullptr;
  void Walk(const lang::Node* node) {
    if (node == nullptr || call != nullptr) return;
    if (node->kind == lang::NodeKind::kCall) {
      call = &lang::As<lang::Call>(*node);
      return;
    }
    lang::VisitFields(*node, *this);
  }
  void Child(std::string_view, const lang::Node* child) override { Walk(child); }
  void Children(std::string_view, const lang::NodeList& children) override {
    for (const lang::Node* c : children) Walk(c);
  }
};

// The live locals after the first call on line `line` of the only function in `source`.
std::vector<std::string> LiveAfterCallOnLine(const std::string& source, int line) {
  lang::ParseResult parsed = lang::ParseSubset(source, "t.py");
  EXPECT_FALSE(parsed.error.has_value());
  runtime::ScopeTable scopes = runtime::AnalyzeScopes(*parsed.module);
  const auto& def = lang::As<lang::FunctionDef>(*parsed.module->body.at(0));
  // The statement on `line` (top level of the body, or inside an if or with) and its
  // outermost call.
  std::function<const lang::Stmt*(const lang::StmtList&)> find =
      [&](const lang::StmtList& body) -> const lang::Stmt* {
    for (const auto& st : body) {
      if (st->span.begin.line == line) return st.get();
      if (st->kind == lang::NodeKind::kIf) {
        if (const lang::Stmt* s = find(lang::As<lang::If>(*st).body)) return s;
      }
      if (st->kind == lang::NodeKind::kWith) {
        if (const lang::Stmt* s = find(lang::As<lang::With>(*st).body)) return s;
      }
    }
    return nullptr;
  };
  const lang::Stmt* stmt = find(def.body);
  EXPECT_NE(stmt, nullptr);
  CallFinder finder;
  finder.Walk(stmt);
  EXPECT_NE(finder.call, nullptr);
  const CodeLayout layout(def);
  std::optional<size_t> at = layout.AfterCall(*finder.call);
  EXPECT_TRUE(at.has_value());
  return LiveLocalsAt(scopes.Of(&def), layout, *at);
}

using Names = std::vector<std::string>;

TEST(LivenessTest, ResumeArgumentsAreTheLiveLocalsInVarnamesOrder) {
  // Probe Q4 under torch 2.13.0: the resume function of f takes a, c, d (not b).
  const std::string source =
      "def f(a, b):\n"
      "    c = a + 1\n"
      "    d = b + 2\n"
      "    g()\n"
      "    return d + c + a\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 4), (Names{"a", "c", "d"}));
}

TEST(LivenessTest, AnAssignedNameIsDeadAfterTheCallThatComputesIt) {
  const std::string source =
      "def f(x, y):\n"
      "    x = g(x)\n"
      "    return x * 3\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 2), Names{});
}

TEST(LivenessTest, ReadsLaterInTheSameStatementAndInEitherBranchAreLive) {
  const std::string source =
      "def f(a, b, c, d):\n"
      "    x = a + g(b) + c\n"
      "    if x:\n"
      "        return d\n"
      "    return x\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 2), (Names{"c", "d"}));
}

TEST(LivenessTest, InAReturnOnlyTheRestOfTheExpressionIsLive) {
  const std::string source =
      "def f(x, p, q):\n"
      "    return h(x) + g(p)\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 2), Names{"p"});
}

TEST(LivenessTest, AStoreAfterAJumpDoesNotKillALaterRead) {
  // torch's livevars_analysis: y is stored again after the if statement's jump, so it still
  // counts as read (golden graph_break/live_locals_after_jumps: the graph outputs y).
  const std::string source =
      "def f(x, flag):\n"
      "    y = x * 2\n"
      "    g()\n"
      "    if flag:\n"
      "        x = x - 1\n"
      "    y = x + 1\n"
      "    return y\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 3), (Names{"x", "flag", "y"}));
}

TEST(LivenessTest, AWithBlocksExceptionPathReadsWhatFollowsIt) {
  // The instruction after the call is in the with block's exception-table range: its handler
  // can go on after the with statement, which reads z before any store of the straight line.
  const std::string source =
      "def f(x):\n"
      "    z = x * 3\n"
      "    with cm():\n"
      "        g()\n"
      "        z = x + 2\n"
      "    return z\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 4), (Names{"x", "z"}));
}

TEST(LivenessTest, AConstantTestsDeadBranchReadsNothing) {
  // CPython folds `if 0:` away: w, read only there, is dead after the call.
  const std::string source =
      "def f(x, w):\n"
      "    y = g(x)\n"
      "    if 0:\n"
      "        return w\n"
      "    return y\n";
  EXPECT_EQ(LiveAfterCallOnLine(source, 2), Names{});
}

// The live locals at the jump of the if statement on line 3 of the only function in
// `source` (its test has no `not`), into the block `runs_body` says (nullopt: at the jump).
std::vector<std::string> LiveAtBranchOnLine3(const std::string& source,
                                             std::optional<bool> runs_body) {
  lang::ParseResult parsed = lang::ParseSubset(source, "t.py");
  EXPECT_FALSE(parsed.error.has_value());
  runtime::ScopeTable scopes = runtime::AnalyzeScopes(*parsed.module);
  const auto& def = lang::As<lang::FunctionDef>(*parsed.module->body.at(0));
  const auto& branch = lang::As<lang::If>(*def.body.at(1));
  const CodeLayout layout(def);
  const JumpSite* jump = layout.Jump(*branch.test, false);
  EXPECT_NE(jump, nullptr);
  return LiveLocalsAt(scopes.Of(&def), layout, runs_body ? jump->Next(*runs_body) : jump->at);
}

TEST(LivenessTest, ABranchOutputsTheLocalsLiveInEitherBlockAndResumesWithItsOwn) {
  // Golden data_dependent/if_on_tensor (torch 2.13.0): the graph outputs y (x is an input),
  // the body's resume function reads L['y'], the other block's L['x'] and L['y'].
  const std::string source =
      "def fn(x):\n"
      "    y = x * 2\n"
      "    if y.sum() > 0:\n"
      "        return y.sin()\n"
      "    return x.cos() + y\n";
  EXPECT_EQ(LiveAtBranchOnLine3(source, std::nullopt), (Names{"x", "y"}));
  EXPECT_EQ(LiveAtBranchOnLine3(source, true), Names{"y"});
  EXPECT_EQ(LiveAtBranchOnLine3(source, false), (Names{"x", "y"}));
}

TEST(MessagesTest, ABranchExplanationIsIndentedInTheMessageAndReadBackInTheRecord) {
  // Golden data_dependent/if_under_fullgraph: torch's explanation ends in a line of four
  // spaces, which textwrap.indent leaves as it is and the oracle's record loses.
  BreakText text = DataDependentBranchText(
      "\n\n  The branch condition involves a tensor computed as follows:\n    # File \"f.py\", "
      "line 10, in fn, code: if y.mean() < 1.5:\n    lt = lt(mean, 1.5)\n    ",
      {});
  EXPECT_EQ(RecordedExplanation(text.explanation),
            "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not "
            "support tracing dynamic control flow.\n\n  The branch condition involves a tensor "
            "computed as follows:\n    # File \"f.py\", line 10, in fn, code: if y.mean() < "
            "1.5:\n    lt = lt(mean, 1.5)\n");
  const std::string begins =
      "Data-dependent branching\n  Explanation: Detected data-dependent branching (e.g. `if "
      "my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.\n\n   "
      "   The branch condition involves a tensor computed as follows:\n        # File "
      "\"f.py\", line 10, in fn, code: if y.mean() < 1.5:\n        lt = lt(mean, 1.5)\n  "
      "  \n  Hint: This graph break is fundamental - it is unlikely th";
  EXPECT_EQ(FormatBreak(text).substr(0, begins.size()), begins);
}

TEST(UserTracebackTest, CaretsUnderTheCallUnlessTheyWouldCoverTheWholeLine) {
  // CPython 3.11 traceback.format_list, as the goldens' "from user code" blocks show it.
  TracebackEntry call{"f.py", 15, "outer", "    return fn(x)", SourceSpan{{15, 11}, {15, 16}}};
  TracebackEntry whole{"f.py", 9, "fn", "    torch._dynamo.mark_dynamic(x, 0)",
                       SourceSpan{{9, 4}, {9, 36}}};
  EXPECT_EQ(FormatUserTraceback({call, whole}),
            "   File \"f.py\", line 15, in outer\n"
            "    return fn(x)\n"
            "           ^^^^^\n"
            "  File \"f.py\", line 9, in fn\n"
            "    torch._dynamo.mark_dynamic(x, 0)");
}

TEST(UserTracebackTest, APositionGoingOnPastTheLineUnderlinesToItsEnd) {
  // 3.11 extends the carets of a multi-line position to the end of the first line, colon
  // included (golden set_stance/s31_forbid_in_graph: a with item).
  TracebackEntry with{"f.py", 19, "g", "    with h(1):", SourceSpan{{19, 9}, {20, 16}}};
  EXPECT_EQ(FormatUserTraceback({with}),
            "   File \"f.py\", line 19, in g\n"
            "    with h(1):\n"
            "         ^^^^^");
}

TEST(MessagesTest, GraphBreakKeyAsTorchCountsIt) {
  // counters["graph_break"]'s key in golden graph_break/s05_graph_break_three_graphs.
  EXPECT_EQ(FormatBreak(GraphBreakCallText(std::nullopt, "[]", "{}")),
            "Call to `torch._dynamo.graph_break()`\n"
            "  Explanation: User-inserted graph break. Message: None\n"
            "  Hint: Remove the `torch._dynamo.graph_break()` call.\n\n"
            "  Developer debug context: Called `torch._dynamo.graph_break()` with args `[]`, "
            "kwargs `{}`\n\n"
            " For more details about this graph break, please visit: "
            "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html");
}

TEST(RulesTest, LabelsRoundTripWithOrWithoutThePrefix) {
  for (int i = 0; i < static_cast<int>(Rule::kCount); ++i) {
    Rule rule = static_cast<Rule>(i);
    EXPECT_EQ(FindRule(RuleLabel(rule)), rule);
    EXPECT_EQ(FindRule("R-" + std::string(RuleLabel(rule))), rule);
  }
  EXPECT_FALSE(FindRule("R-no-such-rule").has_value());
}

}  // namespace
}  // namespace tdc::dynamo

namespace tdc::dynamo {
namespace {

TEST(ExplainTest, SaysWhereTheGraphEndsAndWhatRanEagerly) {
  // Expectations from spec §2.1 / §3.3 as torch 2.13.0 behaves (golden s18's shape): the
  // disabled call is a break, the graph before it reaches the backend, the call runs with
  // nothing inside converted, the rest of f is a resume function compiled as frame 1/0.
  const std::string source =
      "import torch\n"
      "@torch.compiler.disable\n"
      "def d(x):\n"
      "    return x * 2\n"
      "def f(x):\n"
      "    y = x.sin()\n"
      "    return d(y) + 1\n"
      "out = torch.compile(f, backend=backend)(torch.ones(2))\n";
  auto result = RunExplained(source, "t.py", {});
  ASSERT_TRUE(std::holds_alternative<Explained>(result)) << std::get<std::string>(result);
  EXPECT_EQ(std::get<Explained>(result).explanation,
            (std::vector<std::string>{
                "f: converting as frame 0/0",
                "  line 7 in f: Skip calling `torch.compiler.disable()`d function",
                "  graph 0/0 of f ends at line 7 (graph break): 1 op(s) sent to the backend",
                "  runs eagerly: <function d at 0x?> (torch.compiler.disable: no frame inside it "
                "is converted)",
                "  torch_dynamo_resume_in_f_at_7: the rest of f after line 7",
                "  torch_dynamo_resume_in_f_at_7: converting as frame 1/0",
                "  graph 1/0 of torch_dynamo_resume_in_f_at_7 ends at line 7 (return): 1 op(s) "
                "sent to the backend",
            }));
}

}  // namespace
}  // namespace tdc::dynamo
