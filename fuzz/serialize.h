// The canonical text of a fuzz program (research/fuzz-anchors.md §6.1): versioned and
// line-oriented, one function per line, so that corpus cases stay readable and durable
// when the generators change (a RapidCheck reproduce string does not).
//
//   tdfuzz-program 5
//   switches fullgraph=0 call_twice=1 disallow_sigmoid=0 new_shape=0 new_constant=1
//   helpers def:0 allow_disallow:0 del:0 def:1
//   f0 none: op:mul_up call:1 break if helper:1 if_data:4.6:tanh:mul_down loop_call:2
//   f1 disable_nonrecursive: op:tanh if while_data:3.3:add_quarter
//   f2 none: try_call:3
//   f3 disable: op:sqrt
#ifndef TDCONFORM_FUZZ_SERIALIZE_H_
#define TDCONFORM_FUZZ_SERIALIZE_H_

#include <optional>
#include <string>

#include "fuzz/program.h"

namespace tdc::fuzz {

std::string Serialize(const Program& program);
// The program, or nullopt with `error` set (`line N: ...`, or why the oracle could not
// predict it: checkable.h's OracleCanPredict).
std::optional<Program> Parse(const std::string& text, std::string* error);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_SERIALIZE_H_
