#include "fuzz/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace tdc::fuzz {
namespace {

struct OpText {
  const char* python;   // the statement's right-hand side
  const char* targets;  // its Dynamo nodes, space-separated
  const char* aten;     // its ATen ops, space-separated
};

// The indexing ops' nodes as torch 2.13.0 records them in both profiles, at a graph's start,
// middle and end, after a break and in an allowed body (probed).
constexpr OpText kOps[] = {
    {"x * 1.5", "operator.mul", "aten.mul.Tensor"},
    {"x * 0.75", "operator.mul", "aten.mul.Tensor"},
    {"x + 0.25", "operator.add", "aten.add.Tensor"},
    {"torch.tanh(x)", "torch.tanh", "aten.tanh.default"},
    {"torch.sigmoid(x)", "torch.sigmoid", "aten.sigmoid.default"},
    {"torch.sqrt(x)", "torch.sqrt", "aten.sqrt.default"},
    {"x * K", "operator.mul", "aten.mul.Tensor"},
    {"torch.cat([x[1:], x[:1]])", "operator.getitem operator.getitem torch.cat",
     "aten.slice.Tensor aten.slice.Tensor aten.cat.default"},
    {"x[None][0]", "operator.getitem operator.getitem", "aten.unsqueeze.default aten.select.int"},
};

std::vector<std::string> Words(const char* text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}
static_assert(std::size(kOps) == static_cast<size_t>(OpKind::kCount));

const char* Decorator(Policy policy) {
  switch (policy) {
    case Policy::kDisable:
      return "@torch.compiler.disable\n";
    case Policy::kDisableNonrecursive:
      return "@torch.compiler.disable(recursive=False)\n";
    case Policy::kNonstrictTrace:
      return "@torch._dynamo.nonstrict_trace\n";
    case Policy::kNone:
    case Policy::kCustomOp:
    case Policy::kAllowInGraph:
    case Policy::kCount:
      return "";
  }
  return "";
}

void PrintStmt(const Stmt& s, std::string& out) {
  switch (s.kind) {
    case Stmt::Kind::kOp:
      out += fmt::format("    x = {}\n", kOps[static_cast<int>(s.op)].python);
      return;
    case Stmt::Kind::kCall:
      out += fmt::format("    x = f{}(x)\n", s.callee);
      return;
    case Stmt::Kind::kGraphBreak:
      out += "    torch._dynamo.graph_break()\n";
      return;
    case Stmt::Kind::kIfCompiling:
      // Equivalent branches (x * 2 and x + x are the same floats): outputs agree either way.
      out +=
          "    if torch.compiler.is_compiling():\n        x = x * 2\n    else:\n        x = x + "
          "x\n";
      return;
    case Stmt::Kind::kIfCompilingDiffers:
      // The branches of kMulUp and kMulDown: which one ran shows in the output.
      out += fmt::format(
          "    if torch.compiler.is_compiling():\n        x = {}\n    else:\n        x = {}\n",
          kOps[static_cast<int>(OpKind::kMulUp)].python,
          kOps[static_cast<int>(OpKind::kMulDown)].python);
      return;
    case Stmt::Kind::kCallHelper:
      out += fmt::format("    x = h{}(x)\n", s.callee);
      return;
    case Stmt::Kind::kSkipFrame:
      out += "    torch._dynamo.skip_frame()\n";
      return;
    case Stmt::Kind::kStepUnsupported:
      out += "    torch._dynamo.step_unsupported()\n";
      return;
    case Stmt::Kind::kTryBreak:
      out += fmt::format(
          "    try:\n        x = {}\n        torch._dynamo.graph_break()\n    except "
          "RuntimeError:\n        pass\n",
          kOps[static_cast<int>(s.op)].python);
      return;
    case Stmt::Kind::kLoop:
      out += fmt::format("    for _ in range(2):\n        x = {}\n",
                         kOps[static_cast<int>(s.op)].python);
      return;
    case Stmt::Kind::kLoopBreak:
      out += fmt::format(
          "    for _ in range(2):\n        x = {}\n        torch._dynamo.graph_break()\n",
          kOps[static_cast<int>(s.op)].python);
      return;
    case Stmt::Kind::kIfData:
      out += fmt::format("    if x.sum() > {}:\n        x = {}\n    else:\n        x = {}\n",
                         kThresholds[s.threshold], kOps[static_cast<int>(s.op)].python,
                         kOps[static_cast<int>(s.else_op)].python);
      return;
    case Stmt::Kind::kWhileData:
      out += fmt::format("    while x.sum() < {}:\n        x = {}\n", kThresholds[s.threshold],
                         kOps[static_cast<int>(s.op)].python);
      return;
    case Stmt::Kind::kCallInLoop:
      out += fmt::format("    for _ in range(2):\n        x = f{}(x)\n", s.callee);
      return;
    case Stmt::Kind::kCallInTry:
      out += fmt::format("    try:\n        x = f{}(x)\n    finally:\n        pass\n", s.callee);
      return;
    case Stmt::Kind::kCount:
      return;
  }
}

void PrintHelperStep(const HelperStep& step, std::string& out) {
  switch (step.kind) {
    case HelperStep::Kind::kDef:
      out += fmt::format("\n\ndef h{}(x):\n    return torch.tanh(x)\n", step.helper);
      return;
    case HelperStep::Kind::kAllow:
      out += fmt::format("\n\ntorch._dynamo.allow_in_graph(h{})\n", step.helper);
      return;
    case HelperStep::Kind::kAllowThenDisallow:
      // Disallowing needs an allowed callable (S4); allowing first makes it one whatever
      // the id inherited.
      out += fmt::format(
          "\n\ntorch._dynamo.allow_in_graph(h{0})\ntorch._dynamo.disallow_in_graph(h{0})\n",
          step.helper);
      return;
    case HelperStep::Kind::kDel:
      out += fmt::format("\n\ndel h{}\n", step.helper);
      return;
    case HelperStep::Kind::kCount:
      return;
  }
}

}  // namespace

std::vector<HelperStep> EffectiveHelperSteps(const Program& program) {
  std::vector<HelperStep> steps;
  bool bound[kHelpers] = {};
  // A death (del, or a def rebinding a helper) not yet observed by a def of an unbound
  // helper. While one is, other steps wait (are dropped): each freed id is taken by the
  // very next creation, the one shape SEMANTICS §6.4 finds safe from the inherited heap
  // layout (several deaths before a creation: tdfuzz --vs-torch seeds 30236, 30952).
  bool unobserved_death = false;
  for (const HelperStep& step : program.helper_steps) {
    bool& b = bound[step.helper];
    if (step.kind != HelperStep::Kind::kDef && !b) continue;
    const bool observes = step.kind == HelperStep::Kind::kDef && !b;
    const bool kills =
        step.kind == HelperStep::Kind::kDel || (step.kind == HelperStep::Kind::kDef && b);
    if (unobserved_death && !observes) continue;
    b = step.kind != HelperStep::Kind::kDel;
    unobserved_death = kills;
    steps.push_back(step);
  }
  for (int h = 0; h < kHelpers; ++h) {
    if (!bound[h]) steps.push_back({HelperStep::Kind::kDef, h});
  }
  return steps;
}

bool CanEndItsFrame(const Function& f) {
  return std::any_of(f.body.begin(), f.body.end(), [](const Stmt& s) {
    return s.kind == Stmt::Kind::kSkipFrame || s.kind == Stmt::Kind::kStepUnsupported ||
           s.kind == Stmt::Kind::kTryBreak || s.kind == Stmt::Kind::kLoop ||
           s.kind == Stmt::Kind::kLoopBreak || s.kind == Stmt::Kind::kCallInLoop ||
           s.kind == Stmt::Kind::kCallInTry;
  });
}

bool IsGrowingOp(OpKind op) {
  return std::find(std::begin(kGrowingOps), std::end(kGrowingOps), op) != std::end(kGrowingOps);
}

bool IsDataBranch(const Stmt& s) {
  return s.kind == Stmt::Kind::kIfData || s.kind == Stmt::Kind::kWhileData;
}

bool IsCall(const Stmt& s) {
  return s.kind == Stmt::Kind::kCall || s.kind == Stmt::Kind::kCallInLoop ||
         s.kind == Stmt::Kind::kCallInTry;
}

// Split once: the oracle asks for them at every op it traces.
const std::vector<std::string>& OpTargets(OpKind op) {
  static const auto* split = new std::vector<std::vector<std::string>>([] {
    std::vector<std::vector<std::string>> all;
    for (const OpText& text : kOps) all.push_back(Words(text.targets));
    return all;
  }());
  return (*split)[static_cast<size_t>(op)];
}
const std::vector<std::string>& AtenOps(OpKind op) {
  static const auto* split = new std::vector<std::vector<std::string>>([] {
    std::vector<std::vector<std::string>> all;
    for (const OpText& text : kOps) all.push_back(Words(text.aten));
    return all;
  }());
  return (*split)[static_cast<size_t>(op)];
}
bool IsIndexing(OpKind op) { return op == OpKind::kRotate || op == OpKind::kIndexIdentity; }

std::string PrintFixture(const Program& program) {
  std::string out =
      "# tdc: profiles all\n# Generated by tdfuzz (fuzz/program.cc).\nimport torch\n\nK = 1.5\n";
  if (program.disallow_sigmoid) out += "\ntorch._dynamo.disallow_in_graph(torch.sigmoid)\n";
  // Callees first, so every decorator and allow_in_graph runs before the entry is defined.
  for (size_t i = program.functions.size(); i-- > 0;) {
    const Function& f = program.functions[i];
    if (f.policy == Policy::kCustomOp) {
      // A custom op returns a new tensor (never its input) and needs a fake implementation.
      out += fmt::format(
          "\n\n@torch.library.custom_op(\"tdc::f{0}\", mutates_args=())\ndef f{0}(x: torch.Tensor) "
          "-> "
          "torch.Tensor:\n",
          i);
      for (const Stmt& s : f.body) PrintStmt(s, out);
      out += fmt::format(
          "    return x.clone()\n\n\n@f{}.register_fake\ndef _(x):\n    return "
          "torch.empty_like(x)\n",
          i);
      continue;
    }
    out += fmt::format("\n\n{}def f{}(x):\n", Decorator(f.policy), i);
    for (const Stmt& s : f.body) PrintStmt(s, out);
    out += "    return x\n";
    if (f.policy == Policy::kAllowInGraph)
      out += fmt::format("\n\ntorch._dynamo.allow_in_graph(f{})\n", i);
  }
  // After the f<i>, so only helpers reuse the helpers' ids.
  for (const HelperStep& step : EffectiveHelperSteps(program)) PrintHelperStep(step, out);
  std::string compile = fmt::format("torch.compile(f0, backend=backend{})",
                                    program.fullgraph ? ", fullgraph=True" : "");
  out += "\n\nx = torch.linspace(0.5, 2.0, 4)\n";
  if (!program.call_twice && !program.new_shape && !program.new_constant) {
    return out + fmt::format("out = {}(x)\n", compile);
  }
  out += fmt::format("compiled = {}\nout = compiled(x)\n", compile);
  if (program.call_twice) out += "out2 = compiled(x)\n";
  if (program.new_shape) out += "out3 = compiled(torch.linspace(0.5, 2.0, 6))\n";
  if (program.new_constant) out += "K = 1.25\nout4 = compiled(x)\n";
  return out;
}

size_t StatementCount(const Program& program) {
  size_t n = 0;
  for (const Function& f : program.functions) n += f.body.size();
  return n + program.helper_steps.size();
}

}  // namespace tdc::fuzz
