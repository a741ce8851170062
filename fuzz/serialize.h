// The canonical text of a fuzz program (research/fuzz-anchors.md §6.1): versioned and
// line-oriented, one function per line, so that corpus cases stay readable and durable
// when the generators change (a RapidCheck reproduce string does not).
//
//   tdfuzz-program 3
//   switches fullgraph=0 call_twice=1 disallow_sigmoid=0 new_shape=0 new_constant=1
//   helpers def:0 allow_disallow:0 del:0 def:1
//   f0 none: op:mul_up call:1 break if helper:1
//   f1 disable_nonrecursive: op:tanh if_differs
#ifndef TDCONFORM_FUZZ_SERIALIZE_H_
#define TDCONFORM_FUZZ_SERIALIZE_H_

#include <optional>
#include <string>

#include "fuzz/program.h"

namespace tdc::fuzz {

std::string Serialize(const Program& program);
// The program, or nullopt with `error` set (`line N: ...`).
std::optional<Program> Parse(const std::string& text, std::string* error);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_SERIALIZE_H_
