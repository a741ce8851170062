#include "fuzz/shrink.h"

#include <map>
#include <utility>
#include <vector>

#include "fuzz/checkable.h"

namespace tdc::fuzz {
namespace {

// The program without the functions f0 cannot reach, renumbered in call order.
Program DropUnreachable(const Program& p) {
  Program out = p;
  out.functions.clear();
  std::map<int, int> renumbered;
  std::function<int(int)> keep = [&](int f) {
    int index = static_cast<int>(out.functions.size());
    renumbered[f] = index;
    out.functions.push_back(p.functions[f]);
    std::vector<Stmt> body = p.functions[f].body;
    for (Stmt& s : body) {
      if (IsCall(s)) s.callee = keep(s.callee);
    }
    out.functions[index].body = std::move(body);
    return index;
  };
  keep(0);
  return out;
}

// Every program one simplification away from `p`, simplest first.
std::vector<Program> Simplifications(const Program& p) {
  std::vector<Program> out;
  for (size_t f = 0; f < p.functions.size(); ++f) {
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      Program q = p;
      q.functions[f].body.erase(q.functions[f].body.begin() + static_cast<long>(i));
      out.push_back(DropUnreachable(q));
    }
    // A call replaced by its callee's body (fuzz-anchors §6.2, custom shrink 1).
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      const Stmt& call = p.functions[f].body[i];
      if (call.kind != Stmt::Kind::kCall) continue;
      Program q = p;
      std::vector<Stmt>& body = q.functions[f].body;
      std::vector<Stmt> inlined = std::exchange(q.functions[call.callee].body, {});
      body.insert(body.erase(body.begin() + static_cast<long>(i)), inlined.begin(), inlined.end());
      out.push_back(DropUnreachable(q));
    }
    // A call in a loop or a try block made a plain call.
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      if (!IsCall(p.functions[f].body[i]) || p.functions[f].body[i].kind == Stmt::Kind::kCall)
        continue;
      Program q = p;
      q.functions[f].body[i].kind = Stmt::Kind::kCall;
      out.push_back(q);
    }
    // A data-dependent branch replaced by its first arm's op (a while loop by its body's).
    for (size_t i = 0; i < p.functions[f].body.size(); ++i) {
      const Stmt& s = p.functions[f].body[i];
      if (!IsDataBranch(s)) continue;
      Program q = p;
      q.functions[f].body[i] = Stmt{Stmt::Kind::kOp, s.op};
      out.push_back(q);
    }
    if (p.functions[f].policy != Policy::kNone) {
      Program q = p;
      q.functions[f].policy = Policy::kNone;
      out.push_back(q);
    }
  }
  for (size_t i = 0; i < p.helper_steps.size(); ++i) {
    Program q = p;
    q.helper_steps.erase(q.helper_steps.begin() + static_cast<long>(i));
    out.push_back(q);
  }
  for (bool Program::*flag : {&Program::fullgraph, &Program::call_twice, &Program::disallow_sigmoid,
                              &Program::new_shape, &Program::new_constant}) {
    if (p.*flag) {
      Program q = p;
      q.*flag = false;
      out.push_back(q);
    }
  }
  return out;
}

}  // namespace

Program Shrink(Program program, const std::function<bool(const Program&)>& still_fails) {
  for (bool progress = true; progress;) {
    progress = false;
    for (Program& candidate : Simplifications(program)) {
      // Not one the fuzzers do not check (checkable.h): a sum near its threshold once an op
      // is gone, or a call inlined into a shape the reference is known to get wrong.
      if (Checkable(candidate) && still_fails(candidate)) {
        program = std::move(candidate);
        progress = true;
        break;
      }
    }
  }
  return program;
}

}  // namespace tdc::fuzz
