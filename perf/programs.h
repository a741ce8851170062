// The programs the benchmarks and the callgrind scenarios run: fixture-shaped Python
// (fixtures/SCHEMA.md, `backend` given by the run) generated to a size, so that a cost can
// be read per op, per graph break or per call. Every program is one the reference answers
// (none is refused), and each is what a vendor's real traffic looks like at that size:
// straight-line tensor code, call trees of helpers, graph breaks spread through them.
#ifndef TDCONFORM_PERF_PROGRAMS_H_
#define TDCONFORM_PERF_PROGRAMS_H_

#include <cstdint>
#include <string>

namespace tdc::perf {

// One compiled function of `ops` pointwise tensor ops in a row, called once.
std::string StraightLineProgram(int64_t ops);

// `ops` pointwise ops spread over a binary tree of helper functions (ten per helper) under
// one compiled function, called once; with `break_every` > 0, every `break_every`-th
// helper calls torch._dynamo.graph_break() after its ops.
std::string CallTreeProgram(int64_t ops, int64_t break_every = 0);

// A function compiled once, then called `calls` more times with tensors of the same
// metadata: every later call is a cache hit through `guards` tensor guards.
std::string WarmCallsProgram(int64_t calls, int64_t guards);

// `registered` helpers registered with torch._dynamo.allow_in_graph and dropped (their ids
// free for reuse, SEMANTICS §6), then one compiled function calling `calls` fresh helpers:
// every call is a look-up in the registries under reused ids, none of them allowed (each
// helper inlined: `calls` ops in one graph; real torch 2.13.0 gives the same counts).
std::string RegistryProgram(int64_t registered, int64_t calls);

// A function with a graph break between two ops, compiled, then called `calls` times in a
// loop: each call runs its first graph, the resume function's code (a cache hit) and the
// second graph. What the run keeps per call shows in its peak memory (torch's is flat).
std::string BreakingCallsProgram(int64_t calls);

// The smallest fixture: one compiled function of one op, called once.
std::string TinyProgram();

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_PROGRAMS_H_
