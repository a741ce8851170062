// Inputs that once crashed, aborted or fooled tdref and tdcompare (issue 32, items 11-12):
// each must now end with a located error or refusal and never a crash. Expected texts of
// torch's and CPython's errors are real torch 2.13.0's and CPython 3.11.7's.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "reference/runtime/memory_budget.h"
#include "reference/tools/compare_command.h"
#include "reference/tools/run_command.h"

namespace tdc::tools {
namespace {

// Whether `part` occurs in `text`, showing the text when not.
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in:\n" << text.substr(0, 2000);
}

struct Result {
  int code = 0;
  std::string out;
  std::string err;
};

std::filesystem::path TestDir() {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "hostile_inputs" /
                              ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::create_directories(dir);
  return dir;
}

std::string Write(const std::string& name, const std::string& bytes) {
  std::filesystem::path path = TestDir() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

Result RunFile(const std::string& file, RunOptions options = {}, bool json = false) {
  std::ostringstream out, err;
  Result r;
  r.code = RunRun(file, options, json, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

Result RunText(const std::string& program, RunOptions options = {}) {
  return RunFile(Write("program.py", program), options);
}

Result RunCompiledText(const std::string& program) {
  RunOptions options;
  options.mode = "compile";
  return RunText(program, options);
}

std::string Repeat(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// ---- Nesting: refused by the parser (outcome `unsupported`), never a stack overflow ----

constexpr char kNestingRefusal[] =
    "too many nested expressions (the tdconform parser's limit is 1000)";

TEST(HostileInputs, LongBinaryChainIsRefused) {
  Result r = RunText("x = 1" + Repeat(" + 1", 50000) + "\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "unsupported "));
  EXPECT_TRUE(Contains(r.out, kNestingRefusal));
}

TEST(HostileInputs, LongPostfixChainsAreRefused) {
  for (const char* link : {".b", "()", "[0]"}) {
    Result r = RunText("x = a" + Repeat(link, 100000) + "\n");
    EXPECT_EQ(r.code, 0) << link << ": " << r.err;
    EXPECT_TRUE(Contains(r.out, kNestingRefusal)) << link;
  }
}

TEST(HostileInputs, LongPowerChainIsRefused) {
  Result r = RunText("x = 2" + Repeat(" ** 2", 100000) + "\n");
  EXPECT_TRUE(Contains(r.out, kNestingRefusal));
}

TEST(HostileInputs, LongElifChainIsRefused) {
  Result r = RunText("x = 0\nif x == 1:\n    pass\n" + Repeat("elif x == 1:\n    pass\n", 100000));
  EXPECT_TRUE(Contains(r.out, kNestingRefusal));
}

// Just inside the limit the program runs, in both modes (every later walk of the tree
// holds at this depth). CPython computes the same sum.
TEST(HostileInputs, ChainInsideTheLimitRuns) {
  std::string sum = "1" + Repeat(" + 1", 899);
  Result eager = RunText("out = " + sum + "\n");
  EXPECT_EQ(eager.code, 0) << eager.err;
  EXPECT_EQ(eager.out, "out = {\"int\":900}\n");
  Result compiled = RunCompiledText(
      "import torch\n"
      "@torch.compile(backend=backend)\n"
      "def f(x):\n"
      "    return " +
      Repeat("x + ", 899) +
      "x\n"
      "out = f(torch.ones(1))\n");
  EXPECT_EQ(compiled.code, 0) << compiled.err;
  EXPECT_TRUE(Contains(compiled.out, "\"values\":[\"0x1.c200000000000p+9\"]"));  // 900.0
}

// Deep recursion whose every frame nests deep expressions: CPython computes it (its
// expressions use no C recursion); the reference either does too or, where its C++ stack
// would run out, refuses: never SIGSEGV.
TEST(HostileInputs, RecursionTimesNestingEndsWithoutACrash) {
  std::string nested = Repeat("1 + (", 150) + "f(n - 1)" + Repeat(")", 150);
  Result r = RunText("def f(n):\n    if n == 0:\n        return 0\n    return " + nested +
                     "\nout = f(900)\n");
  EXPECT_EQ(r.code, 0) << r.err;
  bool computed = r.out == "out = {\"int\":135000}\n";
  bool refused = Contains(r.out, "deeper than the reference's C++ stack allows");
  EXPECT_TRUE(computed || refused) << r.out;
}

// A container holding itself (`a.append(a)`), wherever a walk of its items would meet it
// again: refused where the program was, never SIGSEGV and never gigabytes of guard names.
// (torch 2.13.0 compiles most of these; cat's argument hangs its Dynamo; == raises
// RecursionError: none is modeled.)
TEST(HostileInputs, ContainerHoldingItselfIsRefusedWhereItIsWalked) {
  struct Case {
    const char* what;
    std::string program;
    const char* refused_at;
  };
  const std::string make_a = "a = [torch.ones(2)]\na.append(a)\n";
  const Case cases[] = {
      {"argument",
       "import torch\ndef f(x, a):\n    return x + a[0]\n" + make_a +
           "out = torch.compile(f, backend=backend)(torch.ones(2), a)\n",
       "program.py:6:"},
      {"global",
       "import torch\n" + make_a +
           "def f(x):\n    return x + a[0]\n"
           "out = torch.compile(f, backend=backend)(torch.ones(2))\n",
       "program.py:5:"},
      {"dict argument",
       "import torch\ndef f(x, d):\n    return x + d['t']\nd = {'t': torch.ones(2)}\n"
       "d['self'] = d\nout = torch.compile(f, backend=backend)(torch.ones(2), d)\n",
       "program.py:6:"},
      {"returned",
       "import torch\ndef f(x):\n    a = [x + 1]\n    a.append(a)\n    return a\n"
       "res = torch.compile(f, backend=backend)(torch.ones(2))\n",
       "program.py:6:"},
      {"live at a break",
       "import torch\ndef f(x):\n    a = [x + 1]\n    a.append(a)\n"
       "    torch._dynamo.graph_break()\n    return a[0]\n"
       "out = torch.compile(f, backend=backend)(torch.ones(2))\n",
       "program.py:5:"},
      {"op argument", "import torch\n" + make_a + "out = torch.cat(a)\n", "program.py:4:"},
      {"compared", "b = [1]\nb.append(b)\nc = [1]\nc.append(c)\nout = b == c\n", "program.py:5:"},
  };
  for (const Case& c : cases) {
    Result r = RunCompiledText(c.program);
    EXPECT_EQ(r.code, 0) << c.what << ": " << r.err;
    EXPECT_TRUE(Contains(r.out, "unsupported")) << c.what << ": " << r.out;
    EXPECT_TRUE(Contains(r.out, c.refused_at)) << c.what << ": " << r.out;
  }
}

// A wide list holding itself: each walk that builds something per item (an op's arguments,
// a graph's arguments, pytree leaves, the values realized at a break) held 20,000 items once
// per turn until the stack guard stopped it, gigabytes before it did (SIGABRT on
// std::bad_alloc, or minutes). Each refuses it on its second turn.
TEST(HostileInputs, WideContainerHoldingItselfIsRefusedOnItsSecondTurn) {
  struct Case {
    const char* what;
    std::string body;  // of f(x), where `a` is the list holding itself
    const char* refused_because;
  };
  const std::string make_a = "    a = [x + 1] * 20000\n    a.append(a)\n";
  const Case cases[] = {
      {"op argument", "    return torch.cat(a)\n", "cat() with an argument of type 'list'"},
      {"returned", "    return a\n", "a container holding itself, walked for the tensors"},
      {"live at a break", "    torch._dynamo.graph_break()\n    return a[0]\n",
       "a list or tuple holding itself, realized for code run outside the graph"},
      {"argument of a disabled call", "    return g(a)\n",
       "a list or tuple holding itself, realized for code run outside the graph"},
      {"nonstrict_trace argument", "    return n(a)\n",
       "a container holding itself, flattened by torch.utils._pytree"},
  };
  const std::string callees =
      "import torch\n@torch.compiler.disable\ndef g(a):\n    return a[0]\n"
      "@torch._dynamo.nonstrict_trace\ndef n(a):\n    return a[0]\n";
  for (const Case& c : cases) {
    const std::string f = "def f(x):\n" + make_a + c.body;
    Result compiled =
        RunCompiledText(callees + f + "out = torch.compile(f, backend=backend)(torch.ones(2))\n");
    EXPECT_EQ(compiled.code, 0) << c.what << ": " << compiled.err;
    EXPECT_TRUE(Contains(compiled.out, c.refused_because)) << c.what << ": " << compiled.out;
  }
  Result eager = RunText(
      "import torch\na = [torch.ones(2)] * 20000\na.append(a)\n"
      "out = torch.cat(a)\n");
  EXPECT_TRUE(Contains(eager.out,
                       "program.py:4:7: cat() with an argument of type 'list' "
                       "(position 1) is not modeled"))
      << eager.out;
}

// ---- Tensor sizes: torch's errors where torch raises, the budget where it would allocate ----

TEST(HostileInputs, NegativeSizeIsTorchsError) {
  Result r = RunText("import torch\nout = torch.ones(-1)\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out,
                       "exception RuntimeError: Trying to create tensor with negative dimension "
                       "-1: [-1]"));
  Result zeros = RunText("import torch\nout = torch.zeros(2, -1)\n");
  EXPECT_TRUE(
      Contains(zeros.out, "exception RuntimeError: zeros: Dimension size must be non-negative."));
}

TEST(HostileInputs, OverflowingSizesAreTorchsErrors) {
  Result storage = RunText("import torch\nout = (torch.ones(2**32, 2**32) + 1).sum()\n");
  EXPECT_EQ(storage.code, 0) << storage.err;
  EXPECT_TRUE(Contains(storage.out,
                       "exception RuntimeError: Storage size calculation overflowed with "
                       "sizes=[4294967296, 4294967296]"));
  EXPECT_FALSE(Contains(storage.out, "out ="));
  Result numel = RunText("import torch\nout = torch.tensor([1.]).expand(2**32, 2**32)\n");
  EXPECT_TRUE(
      Contains(numel.out, "exception RuntimeError: numel: integer multiplication overflow"));
  // An empty tensor holds no bytes, but its strides overflow (found by tdc_wire_fuzzer through
  // the ABI); one whose strides fit is made.
  Result strides = RunText("import torch\nout = torch.ones(0, 2**62, 4)\n");
  EXPECT_TRUE(Contains(strides.out, "exception RuntimeError: Stride calculation overflowed"));
  Result fits = RunText("import torch\nout = torch.ones(0, 2**62).sum()\n");
  EXPECT_TRUE(Contains(fits.out, "\"values\":[\"0x0.0p+0\"]"));
}

TEST(HostileInputs, HugeTensorIsOverTheBudget) {
  Result r = RunText("import torch\nout = torch.ones(100000, 100000)\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "program.py:2:7: a tensor of 10000000000 elements"));
  EXPECT_TRUE(Contains(r.out, "over the reference's budget"));
  // An expanded view holds one element but would be walked 2**40 times.
  Result view = RunText("import torch\nout = torch.ones(1).expand(2**40).sum()\n");
  EXPECT_TRUE(Contains(view.out, "unsupported "));
  EXPECT_TRUE(Contains(view.out, "over the reference's budget"));
}

// ---- Text: strict UTF-8 source, and strings no golden can hold ----

TEST(HostileInputs, InvalidUtf8SourceIsCPythonsSyntaxError) {
  Result in_string = RunText("x = \"\xff\"\n");
  EXPECT_EQ(in_string.code, 2);
  EXPECT_TRUE(Contains(in_string.err,
                       "program.py:1:8: error: (unicode error) 'utf-8' codec can't decode byte "
                       "0xff in position 0: invalid start byte"));
  Result latin1 = RunText("x = \"abc\"\ny = \"\xe9t\xe9\"\n");
  EXPECT_TRUE(Contains(latin1.err,
                       "program.py:2:10: error: (unicode error) 'utf-8' codec can't decode "
                       "byte 0xe9 in position 0: invalid continuation byte"));
  Result in_name = RunText(
      "ab\xff"
      "c = 1\n");
  EXPECT_TRUE(Contains(in_name.err,
                       "program.py:1:4: error: (unicode error) 'utf-8' codec can't decode byte "
                       "0xff in position 2: invalid start byte"));
  // CPython never decodes a comment.
  Result comment = RunText("# caf\xe9\nout = 1\n");
  EXPECT_EQ(comment.out, "out = {\"int\":1}\n");
}

// CPython honours a coding declaration; the reference reads UTF-8 only and says so.
TEST(HostileInputs, OtherSourceEncodingsAreRefused) {
  Result latin1 = RunText("#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nout = \"\xe9\"\n");
  EXPECT_EQ(latin1.code, 0) << latin1.err;
  EXPECT_TRUE(Contains(latin1.out,
                       "program.py:2:1: source encoding 'latin-1' (a coding "
                       "declaration) is not modeled"));
  Result utf8 = RunText("# -*- coding: utf-8 -*-\nout = \"\xc3\xa9\"\n");
  EXPECT_EQ(utf8.out, "out = {\"str\":\"\xc3\xa9\"}\n");
}

TEST(HostileInputs, LoneSurrogateOutIsRefused) {
  Result r = RunText("out = \"\\ud800\"\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "unsupported "));
  EXPECT_TRUE(Contains(r.out, "out `out`: a str with a lone surrogate"));
}

TEST(HostileInputs, DeepOrCyclicOutIsRefused) {
  Result deep = RunText("out = []\nfor i in range(100000):\n    out = [out]\n");
  EXPECT_EQ(deep.code, 0) << deep.err;
  EXPECT_TRUE(Contains(deep.out, "an out nested more than 200 levels deep"));
  Result cycle = RunText("out = []\nout.append(out)\n");
  EXPECT_TRUE(Contains(cycle.out, "an out nested more than 200 levels deep (or holding itself)"));
}

// ---- Files: only regular files are programs ----

TEST(HostileInputs, OnlyRegularFilesAreRead) {
  std::filesystem::path dir = TestDir() / "a_directory.py";
  std::filesystem::create_directories(dir);
  EXPECT_TRUE(Contains(RunFile(dir.string()).err, "not a regular file (a directory)"));
  std::string fifo = (TestDir() / "fifo.py").string();
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Result from_fifo = RunFile(fifo);  // must not block waiting for a writer
  EXPECT_EQ(from_fifo.code, 2);
  EXPECT_TRUE(Contains(from_fifo.err, "not a regular file (a FIFO)"));
  EXPECT_TRUE(Contains(RunFile("/dev/zero").err,
                       "/dev/zero:1:1: error: not a regular file (a character device)"));
  EXPECT_TRUE(
      Contains(RunFile("/proc/self/status").err, "not a regular file (a file of procfs or sysfs)"));
}

// ---- Steps: a program that does not end is refused where it exceeded the budget ----

TEST(HostileInputs, EndlessLoopIsRefusedByTheStepBudget) {
  RunOptions options;
  options.max_steps = 10000;
  Result r = RunText("x = 0\nwhile True:\n    x += 1\n", options);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "unsupported "));
  EXPECT_TRUE(Contains(r.out, "program.py:"));
  EXPECT_TRUE(Contains(r.out, "the program ran more than 10000 steps"));
  Result comprehension = RunText("out = [i for i in range(100000)]\n", options);
  EXPECT_TRUE(Contains(comprehension.out, "the program ran more than 10000 steps"));
  options.mode = "compile";
  Result compiled = RunText(
      "import torch\n"
      "@torch.compile(backend=backend)\n"
      "def f(x):\n"
      "    while True:\n"
      "        x = x + 1\n"
      "out = f(torch.ones(1))\n",
      options);
  EXPECT_EQ(compiled.code, 0) << compiled.err;
  EXPECT_TRUE(Contains(compiled.out, "the program ran more than 10000 steps"));
}

// range(10**9) was made whole before the step budget could end the loop (72 GB of ints: an
// abort under a memory limit): a range past a million items is refused where it is made.
TEST(HostileInputs, AHugeRangeIsRefusedWhereItIsMade) {
  Result r = RunText("x = 0\nfor i in range(10**9):\n    x += 1\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "unsupported "));
  EXPECT_TRUE(Contains(r.out,
                       "program.py:2:10: range(0, 1000000000, 1) of "
                       "1000000000 items: the reference makes a range's items at once"));
  // len() of ranges, as CPython 3.11 gives it ([4, 5, 0, 4]; it was a TypeError here).
  Result lengths = RunText(
      "out = [len(range(7, 0, -2)), len(range(5)), len(range(3, 3)), "
      "len(range(-2**62, 2**62, 2**61))]\n");
  EXPECT_TRUE(Contains(lengths.out,
                       "out = {\"list\":[{\"int\":4},{\"int\":5},{\"int\":0},"
                       "{\"int\":4}]}"));
}

// `tdref explain` of a compiled function with a graph break called 5,000 times (each call
// decides again: cache hits, the break, the resume function): the first 10,000 decisions
// and a count of the rest, not a line per decision of every call kept in memory.
TEST(HostileInputs, TheExplanationOfALongLoopIsBounded) {
  const std::string file =
      Write("program.py",
            "import torch\n\n\ndef f(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n"
            "    return x + 1\n\n\nopt = torch.compile(f, backend=backend)\nx = torch.ones(2)\n"
            "for _ in range(5000):\n    x = opt(x)\nout = x\n");
  std::ostringstream out, err;
  ASSERT_EQ(RunExplain(file, {}, out, err), 0) << err.str();
  const std::string text = out.str();
  const size_t outcome = text.find("\noutcome:\n");
  ASSERT_NE(outcome, std::string::npos);
  const std::string explanation = text.substr(0, outcome + 1);
  EXPECT_EQ(std::count(explanation.begin(), explanation.end(), '\n'), 10'001);
  EXPECT_TRUE(Contains(explanation, "more decisions, not kept (the first 10000 are above)\n"));
}

// A program that keeps 20 tensors of 4 MiB: refused at the statement where it holds more than
// a 64 MiB budget, eagerly and compiled; one that makes as many but frees each runs (a freed
// storage gives its bytes back).
TEST(HostileInputs, HoldingMoreThanTheMemoryBudgetIsRefused) {
  runtime::SetMaxMemoryBytes(int64_t{64} << 20);
  const std::string kept =
      "import torch\n"
      "xs = []\n"
      "for i in range(20):\n"
      "    xs.append(torch.ones(2**20))\n"
      "out = len(xs)\n";
  Result r = RunText(kept);
  Result compiled = RunCompiledText(
      "import torch\n"
      "@torch.compile(backend=backend)\n"
      "def f(x):\n"
      "    return x + 1\n"
      "xs = []\n"
      "for i in range(20):\n"
      "    xs.append(f(torch.ones(2**20)))\n"
      "out = len(xs)\n");
  Result freed = RunText(
      "import torch\n"
      "for i in range(100):\n"
      "    x = torch.ones(2**20)\n"
      "out = x.sum()\n");
  runtime::SetMaxMemoryBytes(runtime::kDefaultMaxMemoryBytes);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "unsupported "));
  EXPECT_TRUE(Contains(r.out, "program.py:4:"));
  EXPECT_TRUE(Contains(r.out, "over the memory budget of 67108864 bytes"));
  EXPECT_TRUE(Contains(compiled.out, "over the memory budget of 67108864 bytes"));
  EXPECT_TRUE(Contains(freed.out, "\"values\":[\"0x1.0000000000000p+20\"]"));  // 2**20
}

// ---- tdcompare ----

int Compare(const std::string& expected, const std::string& actual, std::string* out_text,
            std::string* err_text) {
  CompareCommand command;
  command.expected_file = expected;
  command.actual_file = actual;
  std::ostringstream out, err;
  int code = RunCompare(command, out, err);
  *out_text = out.str();
  *err_text = err.str();
  return code;
}

// `tdref run --json` writes a document tdcompare reads (issue 32, item 12).
TEST(HostileInputs, RunJsonIsReadByTdcompare) {
  std::string program = Write("program.py", "import torch\nout = torch.ones(2) + 1\n");
  for (const std::string mode : {"eager", "compile"}) {
    RunOptions options;
    options.mode = mode;
    Result r = RunFile(program, options, /*json=*/true);
    ASSERT_EQ(r.code, 0) << r.err;
    // The digest of the bytes it ran, as hashlib.sha256 gives it.
    EXPECT_TRUE(Contains(r.out,
                         "\"fixture_sha256\": \""
                         "6679d3d156166d36c8feeac3b9586a6bf762ced7cd3484080936ee480e25fa06\""))
        << r.out;
    std::string document = Write(mode + ".json", r.out);
    std::string out, err;
    EXPECT_EQ(Compare(document, document, &out, &err), kCompareEqual) << err;
    EXPECT_EQ(out, "0 differences\n");
  }
}

std::string NestedOut(int depth) {
  return "{\"schema\": \"tdconform-golden/1\", \"meta\": {}, \"eager\": {\"outs\": {\"out\": " +
         Repeat("[", depth) + Repeat("]", depth) + "}}}";
}

// Nested 10^5 levels in meta: the nesting error, at the first level past the limit.
std::string NestedMeta(int depth) {
  return "{\"schema\": \"tdconform-golden/1\", \"meta\": {\"x\": " + Repeat("[", depth) +
         Repeat("]", depth) + "}}";
}

TEST(HostileInputs, DeeplyNestedJsonIsRefusedWithItsPosition) {
  for (const std::string& text : {NestedOut(30000), NestedOut(100000), NestedMeta(100000)}) {
    std::string file = Write("deep.json", text);
    std::string out, err;
    EXPECT_EQ(Compare(file, file, &out, &err), kCompareError);
    EXPECT_TRUE(Contains(err, "deep.json:1:"));
    EXPECT_TRUE(Contains(err, "error: JSON nested more than 1000 levels deep"));
  }
}

}  // namespace
}  // namespace tdc::tools
