#include "perf/programs.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace tdc::perf {
namespace {

constexpr int64_t kOpsPerHelper = 10;

// `count` statements `y = y <op> c` cycling through four ops, so that no rewrite can fold
// them and every one is a node of the graph.
void AppendOps(std::string& out, int64_t count, const char* indent) {
  static constexpr const char* kOps[] = {"+ 1.0", "* 1.5", "- 0.5", "/ 2.0"};
  for (int64_t i = 0; i < count; ++i)
    fmt::format_to(std::back_inserter(out), "{}y = y {}\n", indent, kOps[i % 4]);
}

}  // namespace

std::string StraightLineProgram(int64_t ops) {
  std::string out = "import torch\n\n\ndef f(x):\n    y = x\n";
  AppendOps(out, ops, "    ");
  out +=
      "    return y\n\n\n"
      "out = torch.compile(f, backend=backend)(torch.linspace(0.5, 2.0, 4))\n";
  return out;
}

std::string CallTreeProgram(int64_t ops, int64_t break_every) {
  int64_t helpers = std::max<int64_t>(1, (ops + kOpsPerHelper - 1) / kOpsPerHelper);
  std::string out = "import torch\n\n";
  // Helper i calls helpers 2i+1 and 2i+2 (a heap's layout): depth log2(helpers), far under
  // Python's recursion limit at any size.
  for (int64_t i = helpers - 1; i >= 0; --i) {
    fmt::format_to(std::back_inserter(out), "\ndef h{}(y):\n", i);
    AppendOps(out, std::min(kOpsPerHelper, ops - i * kOpsPerHelper), "    ");
    if (break_every > 0 && i % break_every == break_every - 1)
      out += "    torch._dynamo.graph_break()\n";
    for (int64_t child : {2 * i + 1, 2 * i + 2}) {
      if (child < helpers) fmt::format_to(std::back_inserter(out), "    y = h{}(y)\n", child);
    }
    out += "    return y\n\n";
  }
  out +=
      "\nout = torch.compile(h0, backend=backend)(torch.linspace(0.5, 2.0, 4))\n"
      "out_frame_count = backend.frame_count\n";
  return out;
}

std::string WarmCallsProgram(int64_t calls, int64_t guards) {
  std::string params, sum;
  for (int64_t i = 0; i < guards; ++i) {
    params += fmt::format("{}x{}", i ? ", " : "", i);
    sum += fmt::format("{}x{}", i ? " + " : "", i);
  }
  return fmt::format(
      "import torch\n\n\n"
      "def f({0}):\n    return {1} + 1.0\n\n\n"
      "opt = torch.compile(f, backend=backend)\n"
      "xs = [torch.ones(4) for _ in range({2})]\n"
      "out = opt(*xs)\n"
      "for _ in range({3}):\n    out = opt(*xs)\n"
      "out_frame_count = backend.frame_count\n",
      params, sum, guards, calls);
}

std::string RegistryProgram(int64_t registered, int64_t calls) {
  return fmt::format(
      "import torch\n\n\n"
      "def make(i):\n    def helper(x):\n        return x + i\n\n    return helper\n\n\n"
      "for i in range({0}):\n    h = make(i)\n    torch._dynamo.allow_in_graph(h)\n    del h\n\n"
      "fresh = [make(i) for i in range({1})]\n\n\n"
      "def f(x):\n    for h in fresh:\n        x = h(x)\n    return x\n\n\n"
      "out = torch.compile(f, backend=backend)(torch.ones(4))\n"
      "out_op_count = backend.op_count\n",
      registered, calls);
}

std::string BreakingCallsProgram(int64_t calls) {
  return fmt::format(
      "import torch\n\n\n"
      "def f(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    return x + 1\n\n\n"
      "opt = torch.compile(f, backend=backend)\n"
      "x = torch.ones(4)\n"
      "for _ in range({}):\n    x = opt(x)\n"
      "out = x\n",
      calls);
}

std::string TinyProgram() { return StraightLineProgram(1); }

}  // namespace tdc::perf
