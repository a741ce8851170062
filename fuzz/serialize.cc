#include "fuzz/serialize.h"

#include <fmt/format.h>

#include <array>
#include <sstream>
#include <vector>

namespace tdc::fuzz {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(OpKind::kCount)> kOpNames = {
    "mul_up", "mul_down", "add_quarter", "tanh", "sigmoid", "sqrt", "mul_global"};
constexpr std::array<std::string_view, static_cast<size_t>(Policy::kCount)> kPolicyNames = {
    "none", "disable", "disable_nonrecursive", "allow_in_graph", "nonstrict_trace", "custom_op"};
constexpr std::array<std::string_view, static_cast<size_t>(HelperStep::Kind::kCount)> kStepNames = {
    "def", "allow", "allow_disallow", "del"};
// Version 2 added helpers (their steps and calls), kIfCompilingDiffers and the new_shape
// switch, version 3 the op mul_global and the new_constant switch, version 4 the frames
// that cannot resume (skip_frame, step_unsupported, try_break:<op>, loop:<op>,
// loop_break:<op>) and the policies nonstrict_trace and custom_op; an older text is a
// version 4 text without them.
constexpr std::string_view kHeader = "tdfuzz-program 4";
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
    case Stmt::Kind::kGraphBreak:
      return "break";
    case Stmt::Kind::kIfCompiling:
      return "if";
    case Stmt::Kind::kIfCompilingDiffers:
      return "if_differs";
    case Stmt::Kind::kCallHelper:
      return fmt::format("helper:{}", s.callee);
    case Stmt::Kind::kCount:
      break;
  }
  return "?";
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
  for (const auto& [kind, name] : kOpStatements) {
    if (!word.starts_with(name) || word.size() <= name.size() || word[name.size()] != ':') continue;
    auto op = IndexOf(kOpNames, std::string_view(word).substr(name.size() + 1));
    if (op) return Stmt{kind, static_cast<OpKind>(*op)};
  }
  if (auto f = NumberAfter(word, "call:", 1 << 20))
    return Stmt{Stmt::Kind::kCall, OpKind::kMulUp, *f};
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
      if (line != kHeader && line != "tdfuzz-program 3" && line != "tdfuzz-program 2" &&
          line != "tdfuzz-program 1") {
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
      if (s.kind != Stmt::Kind::kCall) continue;
      if (s.callee <= static_cast<int>(f) || s.callee >= static_cast<int>(p.functions.size()) ||
          called[s.callee]) {
        *error =
            fmt::format("f{} calls f{}: calls must make a tree of later functions", f, s.callee);
        return std::nullopt;
      }
      called[s.callee] = true;
    }
  }
  return p;
}

}  // namespace tdc::fuzz
