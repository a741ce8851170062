#include "fuzz/serialize.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <vector>

#include "fuzz/checkable.h"

namespace tdc::fuzz {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(OpKind::kCount)> kOpNames = {
    "mul_up", "mul_down",   "add_quarter", "tanh",          "sigmoid",
    "sqrt",   "mul_global", "rotate",      "index_identity"};
constexpr std::array<std::string_view, static_cast<size_t>(Policy::kCount)> kPolicyNames = {
    "none", "disable", "disable_nonrecursive", "allow_in_graph", "nonstrict_trace", "custom_op"};
constexpr std::array<std::string_view, static_cast<size_t>(HelperStep::Kind::kCount)> kStepNames = {
    "def", "allow", "allow_disallow", "del"};
// Version 2 added helpers (their steps and calls), kIfCompilingDiffers and the new_shape
// switch, version 3 the op mul_global and the new_constant switch, version 4 the frames
// that cannot resume (skip_frame, step_unsupported, try_break:<op>, loop:<op>,
// loop_break:<op>) and the policies nonstrict_trace and custom_op, version 5 the
// data-dependent branches (if_data:<threshold>:<op>:<else op>, while_data:<threshold>:<op>)
// and the calls in a loop or a try block (loop_call:<f>, try_call:<f>) and the indexing ops
// rotate and index_identity; an older text is a version 5 text without them.
constexpr std::string_view kHeader = "tdfuzz-program 5";
constexpr std::string_view kOlderHeaders[] = {"tdfuzz-program 4", "tdfuzz-program 3",
                                              "tdfuzz-program 2", "tdfuzz-program 1"};
// The statements holding an op: `<name>:<op>`.
constexpr std::array<std::pair<Stmt::Kind, std::string_view>, 4> kOpStatements = {
    {{Stmt::Kind::kOp, "op"},
     {Stmt::Kind::kTryBreak, "try_break"},
     {Stmt::Kind::kLoop, "loop"},
     {Stmt::Kind::kLoopBreak, "loop_break"}}};

template <size_t N>
std::optional<size_t> IndexOf(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  return std::nullopt;
}

std::string Word(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::kOp:
    case Stmt::Kind::kTryBreak:
    case Stmt::Kind::kLoop:
    case Stmt::Kind::kLoopBreak:
      for (const auto& [kind, name] : kOpStatements) {
        if (kind == s.kind) return fmt::format("{}:{}", name, kOpNames[static_cast<size_t>(s.op)]);
      }
      break;
    case Stmt::Kind::kSkipFrame:
      return "skip_frame";
    case Stmt::Kind::kStepUnsupported:
      return "step_unsupported";
    case Stmt::Kind::kCall:
      return fmt::format("call:{}", s.callee);
    case Stmt::Kind::kCallInLoop:
      return fmt::format("loop_call:{}", s.callee);
    case Stmt::Kind::kCallInTry:
      return fmt::format("try_call:{}", s.callee);
    case Stmt::Kind::kGraphBreak:
      return "break";
    case Stmt::Kind::kIfCompiling:
      return "if";
    case Stmt::Kind::kIfCompilingDiffers:
      return "if_differs";
    case Stmt::Kind::kCallHelper:
      return fmt::format("helper:{}", s.callee);
    case Stmt::Kind::kIfData:
      return fmt::format("if_data:{}:{}:{}", kThresholds[s.threshold],
                         kOpNames[static_cast<size_t>(s.op)],
                         kOpNames[static_cast<size_t>(s.else_op)]);
    case Stmt::Kind::kWhileData:
      return fmt::format("while_data:{}:{}", kThresholds[s.threshold],
                         kOpNames[static_cast<size_t>(s.op)]);
    case Stmt::Kind::kCount:
      break;
  }
  return "?";
}

// The fields of `word` between colons.
std::vector<std::string_view> Fields(std::string_view word) {
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    size_t colon = word.find(':', start);
    fields.push_back(word.substr(start, colon - start));
    if (colon == std::string_view::npos) return fields;
    start = colon + 1;
  }
}

// `if_data:4.6:tanh:mul_down`, `while_data:3.3:add_quarter`; a threshold as Word prints it.
std::optional<Stmt> ParseDataBranch(const std::string& word) {
  std::vector<std::string_view> f = Fields(word);
  const bool is_if = f[0] == "if_data" && f.size() == 4;
  if (!is_if && !(f[0] == "while_data" && f.size() == 3)) return std::nullopt;
  std::optional<int> threshold;
  for (int t = 0; t < kThresholdCount; ++t) {
    if (f[1] == fmt::format("{}", kThresholds[t])) threshold = t;
  }
  auto op = IndexOf(kOpNames, f[2]);
  auto else_op = is_if ? IndexOf(kOpNames, f[3]) : std::optional<size_t>(0);
  if (!threshold || !op || !else_op) return std::nullopt;
  Stmt s{is_if ? Stmt::Kind::kIfData : Stmt::Kind::kWhileData, static_cast<OpKind>(*op)};
  s.else_op = static_cast<OpKind>(*else_op);
  s.threshold = *threshold;
  return s;
}

// The n in `<prefix>n` when 0 <= n < limit.
std::optional<int> NumberAfter(const std::string& word, std::string_view prefix, int limit) {
  if (!word.starts_with(prefix)) return std::nullopt;
  try {
    size_t used = 0;
    int n = std::stoi(word.substr(prefix.size()), &used);
    if (used == word.size() - prefix.size() && n >= 0 && n < limit) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::optional<Stmt> ParseWord(const std::string& word) {
  if (word == "break") return Stmt{Stmt::Kind::kGraphBreak};
  if (word == "if") return Stmt{Stmt::Kind::kIfCompiling};
  if (word == "if_differs") return Stmt{Stmt::Kind::kIfCompilingDiffers};
  if (auto h = NumberAfter(word, "helper:", kHelpers))
    return Stmt{Stmt::Kind::kCallHelper, OpKind::kMulUp, *h};
  if (word == "skip_frame") return Stmt{Stmt::Kind::kSkipFrame};
  if (word == "step_unsupported") return Stmt{Stmt::Kind::kStepUnsupported};
  if (auto s = ParseDataBranch(word)) return s;
  for (const auto& [kind, name] : kOpStatements) {
    if (!word.starts_with(name) || word.size() <= name.size() || word[name.size()] != ':') continue;
    auto op = IndexOf(kOpNames, std::string_view(word).substr(name.size() + 1));
    if (op) return Stmt{kind, static_cast<OpKind>(*op)};
  }
  if (auto f = NumberAfter(word, "call:", 1 << 20))
    return Stmt{Stmt::Kind::kCall, OpKind::kMulUp, *f};
  if (auto f = NumberAfter(word, "loop_call:", 1 << 20))
    return Stmt{Stmt::Kind::kCallInLoop, OpKind::kMulUp, *f};
  if (auto f = NumberAfter(word, "try_call:", 1 << 20))
    return Stmt{Stmt::Kind::kCallInTry, OpKind::kMulUp, *f};
  return std::nullopt;
}

// `allow:1` (a step on h1).
std::optional<HelperStep> ParseStep(const std::string& word) {
  size_t colon = word.find(':');
  if (colon == std::string::npos) return std::nullopt;
  auto kind = IndexOf(kStepNames, std::string_view(word).substr(0, colon));
  auto helper = NumberAfter(word, word.substr(0, colon + 1), kHelpers);
  if (!kind || !helper) return std::nullopt;
  return HelperStep{static_cast<HelperStep::Kind>(*kind), *helper};
}

}  // namespace

std::string Serialize(const Program& p) {
  std::string out = fmt::format(
      "{}\nswitches fullgraph={:d} call_twice={:d} disallow_sigmoid={:d} new_shape={:d} "
      "new_constant={:d}\n",
      kHeader, p.fullgraph, p.call_twice, p.disallow_sigmoid, p.new_shape, p.new_constant);
  if (!p.helper_steps.empty()) {
    out += "helpers";
    for (const HelperStep& step : p.helper_steps) {
      out += fmt::format(" {}:{}", kStepNames[static_cast<size_t>(step.kind)], step.helper);
    }
    out += "\n";
  }
  for (size_t f = 0; f < p.functions.size(); ++f) {
    out += fmt::format("f{} {}:", f, kPolicyNames[static_cast<size_t>(p.functions[f].policy)]);
    for (const Stmt& s : p.functions[f].body) out += " " + Word(s);
    out += "\n";
  }
  return out;
}

std::optional<Program> Parse(const std::string& text, std::string* error) {
  std::istringstream lines(text);
  std::string line;
  Program p;
  int number = 0;
  auto fail = [&](const std::string& why) -> std::optional<Program> {
    *error = fmt::format("line {}: {}", number, why);
    return std::nullopt;
  };
  while (std::getline(lines, line)) {
    ++number;
    std::istringstream words(line);
    std::string head;
    if (!(words >> head) || head.starts_with("#")) continue;  // blank lines and comments
    if (number == 1) {
      if (line != kHeader && std::find(std::begin(kOlderHeaders), std::end(kOlderHeaders), line) ==
                                 std::end(kOlderHeaders)) {
        return fail(fmt::format("expected the header `{}`", kHeader));
      }
      continue;
    }
    if (head == "helpers") {
      std::string w;
      while (words >> w) {
        std::optional<HelperStep> step = ParseStep(w);
        if (!step) return fail(fmt::format("unknown helper step `{}`", w));
        p.helper_steps.push_back(*step);
      }
      continue;
    }
    if (head == "switches") {
      std::string w;
      while (words >> w) {
        if (w == "fullgraph=1")
          p.fullgraph = true;
        else if (w == "call_twice=1")
          p.call_twice = true;
        else if (w == "new_shape=1")
          p.new_shape = true;
        else if (w == "new_constant=1")
          p.new_constant = true;
        else if (w == "disallow_sigmoid=1")
          p.disallow_sigmoid = true;
        else if (!w.ends_with("=0"))
          return fail(fmt::format("unknown switch `{}`", w));
      }
      continue;
    }
    if (head != fmt::format("f{}", p.functions.size()))
      return fail(fmt::format("expected f{}", p.functions.size()));
    std::string policy;
    words >> policy;
    if (!policy.ends_with(":")) return fail("expected `<policy>:` after the function");
    auto index = IndexOf(kPolicyNames, std::string_view(policy).substr(0, policy.size() - 1));
    if (!index) return fail(fmt::format("unknown policy `{}`", policy));
    Function f{static_cast<Policy>(*index), {}};
    std::string w;
    while (words >> w) {
      std::optional<Stmt> s = ParseWord(w);
      if (!s) return fail(fmt::format("unknown statement `{}`", w));
      f.body.push_back(*s);
    }
    p.functions.push_back(std::move(f));
  }
  if (p.functions.empty()) return fail("no function");
  // A tree: every call names a later function, and no function is called twice.
  std::vector<bool> called(p.functions.size(), false);
  for (size_t f = 0; f < p.functions.size(); ++f) {
    for (const Stmt& s : p.functions[f].body) {
      if (!IsCall(s)) continue;
      if (s.callee <= static_cast<int>(f) || s.callee >= static_cast<int>(p.functions.size()) ||
          called[s.callee]) {
        *error =
            fmt::format("f{} calls f{}: calls must make a tree of later functions", f, s.callee);
        return std::nullopt;
      }
      called[s.callee] = true;
    }
  }
  // What the generators never make, as the oracle could not predict it (checkable.h).
  std::string why;
  if (!OracleCanPredict(p, &why)) {
    *error = "not a program the oracle predicts: " + why;
    return std::nullopt;
  }
  return p;
}

}  // namespace tdc::fuzz
