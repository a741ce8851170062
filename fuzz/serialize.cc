#include "fuzz/serialize.h"

#include <array>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace tdc::fuzz {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(OpKind::kCount)> kOpNames = {
    "mul_up", "mul_down", "add_quarter", "tanh", "sigmoid", "sqrt"};
constexpr std::array<std::string_view, static_cast<size_t>(Policy::kCount)> kPolicyNames = {
    "none", "disable", "disable_nonrecursive", "allow_in_graph"};

template <size_t N>
std::optional<size_t> IndexOf(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  return std::nullopt;
}

std::string Word(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::kOp: return fmt::format("op:{}", kOpNames[static_cast<size_t>(s.op)]);
    case Stmt::Kind::kCall: return fmt::format("call:{}", s.callee);
    case Stmt::Kind::kGraphBreak: return "break";
    case Stmt::Kind::kIfCompiling: return "if";
    case Stmt::Kind::kCount: break;
  }
  return "?";
}

std::optional<Stmt> ParseWord(const std::string& word) {
  if (word == "break") return Stmt{Stmt::Kind::kGraphBreak};
  if (word == "if") return Stmt{Stmt::Kind::kIfCompiling};
  if (word.starts_with("op:")) {
    auto op = IndexOf(kOpNames, std::string_view(word).substr(3));
    if (op) return Stmt{Stmt::Kind::kOp, static_cast<OpKind>(*op)};
  }
  if (word.starts_with("call:")) {
    try {
      return Stmt{Stmt::Kind::kCall, OpKind::kMulUp, std::stoi(word.substr(5))};
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

}  // namespace

std::string Serialize(const Program& p) {
  std::string out = fmt::format("tdfuzz-program 1\nswitches fullgraph={:d} call_twice={:d} disallow_sigmoid={:d}\n",
                                p.fullgraph, p.call_twice, p.disallow_sigmoid);
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
      if (line != "tdfuzz-program 1") return fail("expected the header `tdfuzz-program 1`");
      continue;
    }
    if (head == "switches") {
      std::string w;
      while (words >> w) {
        if (w == "fullgraph=1") p.fullgraph = true;
        else if (w == "call_twice=1") p.call_twice = true;
        else if (w == "disallow_sigmoid=1") p.disallow_sigmoid = true;
        else if (!w.ends_with("=0")) return fail(fmt::format("unknown switch `{}`", w));
      }
      continue;
    }
    if (head != fmt::format("f{}", p.functions.size())) return fail(fmt::format("expected f{}", p.functions.size()));
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
      if (s.callee <= static_cast<int>(f) || s.callee >= static_cast<int>(p.functions.size()) || called[s.callee]) {
        *error = fmt::format("f{} calls f{}: calls must make a tree of later functions", f, s.callee);
        return std::nullopt;
      }
      called[s.callee] = true;
    }
  }
  return p;
}

}  // namespace tdc::fuzz
