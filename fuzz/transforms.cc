#include "fuzz/transforms.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace tdc::fuzz {
namespace {

// The `n`-th statement, modulo their number, among those (in function order) for which
// `pick(function, stmt)` holds; nullopt when there is none.
template <typename Pick>
std::optional<std::pair<size_t, size_t>> PickStatement(const Program& p, size_t n, Pick pick) {
  std::vector<std::pair<size_t, size_t>> picked;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      if (pick(p.functions[f], p.functions[f].body[i])) picked.emplace_back(f, i);
    }
  }
  if (picked.empty()) return std::nullopt;
  return picked[n % picked.size()];
}

}  // namespace

std::optional<Program> InsertWrapper(const Program& program, size_t n) {
  // Not around an allow_in_graph or nonstrict_trace function: offered as a frame (from
  // eager code) it is traced, while through a wrapper it is one opaque node (found by this
  // property); nor around a custom op, never offered, while the wrapper is.
  auto at = PickStatement(program, n, [&](const Function&, const Stmt& s) {
    if (!IsCall(s)) return false;
    const Policy p = program.functions[s.callee].policy;
    return p != Policy::kAllowInGraph && p != Policy::kNonstrictTrace && p != Policy::kCustomOp;
  });
  if (!at) return std::nullopt;
  Program p = program;
  Stmt& call = p.functions[at->first].body[at->second];
  Function wrapper{Policy::kNone, {Stmt{Stmt::Kind::kCall, OpKind::kMulUp, call.callee}}};
  call.callee = static_cast<int>(p.functions.size());
  p.functions.push_back(std::move(wrapper));
  return p;
}

Program WithoutBreaksOrPolicies(const Program& program) {
  Program p = program;
  p.disallow_sigmoid = false;
  p.new_shape = false;     // a new shape compiles everything again
  p.new_constant = false;  // so does a new K, for the code that read it
  p.helper_steps.clear();
  for (Function& f : p.functions) {
    f.policy = Policy::kNone;
    std::erase_if(f.body, [](const Stmt& s) {
      return s.kind == Stmt::Kind::kGraphBreak || s.kind == Stmt::Kind::kSkipFrame ||
             s.kind == Stmt::Kind::kStepUnsupported || IsDataBranch(s);
    });
    for (Stmt& s : f.body) {
      if (s.kind == Stmt::Kind::kTryBreak) s.kind = Stmt::Kind::kOp;
      if (s.kind == Stmt::Kind::kLoopBreak) s.kind = Stmt::Kind::kLoop;
    }
  }
  return p;
}

std::optional<Program> ExtractAFunction(const Program& program, size_t n, size_t length) {
  // Not out of a disable(recursive=False) body: it runs eagerly, while a function it calls
  // is offered as a frame.
  auto extractable = [&](const Function& f, const Stmt& s) {
    return f.policy != Policy::kDisableNonrecursive && !CanEndItsFrame(f) &&
           (s.kind == Stmt::Kind::kIfCompiling || s.kind == Stmt::Kind::kIfCompilingDiffers ||
            (s.kind == Stmt::Kind::kOp && !(s.op == OpKind::kSigmoid && program.disallow_sigmoid)));
  };
  auto at = PickStatement(program, n, extractable);
  if (!at) return std::nullopt;
  auto [f, from] = *at;
  Program p = program;
  std::vector<Stmt>& body = p.functions[f].body;
  size_t to = from + 1;
  while (to < body.size() && to - from < length && extractable(p.functions[f], body[to])) ++to;
  Function extracted{
      Policy::kNone,
      {body.begin() + static_cast<long>(from), body.begin() + static_cast<long>(to)}};
  body.erase(body.begin() + static_cast<long>(from + 1), body.begin() + static_cast<long>(to));
  body[from] = Stmt{Stmt::Kind::kCall, OpKind::kMulUp, static_cast<int>(p.functions.size())};
  p.functions.push_back(std::move(extracted));
  return p;
}

Program AddGraphBreak(const Program& program, size_t f, size_t at) {
  Program p = program;
  std::vector<Stmt>& body = p.functions[f % p.functions.size()].body;
  body.insert(body.begin() + static_cast<long>(at % (body.size() + 1)),
              Stmt{Stmt::Kind::kGraphBreak});
  return p;
}

std::optional<ReplacedOp> ReplaceAnOpWithAnAllowedFunction(const Program& program, size_t n) {
  // Not `x * K` under new_constant: an allowed body is not traced, so its read of K is not
  // guarded and the new K runs the cached graph.
  auto replaceable = [&](const Function& f, const Stmt& s) {
    return s.kind == Stmt::Kind::kOp && !IsIndexing(s.op) &&
           f.policy != Policy::kDisableNonrecursive && !CanEndItsFrame(f) &&
           !(s.op == OpKind::kSigmoid && program.disallow_sigmoid) &&
           !(s.op == OpKind::kMulGlobal && program.new_constant);
  };
  auto at = PickStatement(program, n, replaceable);
  if (!at) return std::nullopt;
  auto [f, i] = *at;
  const int allowed = static_cast<int>(program.functions.size());
  ReplacedOp out{program, fmt::format("f{}", allowed), program.functions[f].body[i].op};
  out.program.functions[f].body[i] = Stmt{Stmt::Kind::kCall, OpKind::kMulUp, allowed};
  out.program.functions.push_back(Function{Policy::kAllowInGraph, {program.functions[f].body[i]}});
  return out;
}

Program WithBranchesResolved(const Program& program,
                             const std::vector<std::vector<bool>>& compiling) {
  Program p = program;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      Stmt& s = p.functions[f].body[i];
      if (s.kind == Stmt::Kind::kIfCompilingDiffers) {
        s = Stmt{Stmt::Kind::kOp, compiling[f][i] ? OpKind::kMulUp : OpKind::kMulDown};
      }
    }
  }
  return p;
}

}  // namespace tdc::fuzz
