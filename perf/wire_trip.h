// A graph's round trip through the backend ABI's wire form (issue 30), for the benchmark and
// the callgrind scenario: encoded as the host hands it to a backend (WireGraph), decoded as a
// C++ backend reads it (DecodeGraph).
#ifndef TDCONFORM_PERF_WIRE_TRIP_H_
#define TDCONFORM_PERF_WIRE_TRIP_H_

#include <cstdint>
#include <optional>
#include <string>

#include "reference/graph/graph.h"

namespace tdc::perf {

// One input, `ops` chained `torch.add(previous, 1.0)` nodes, the last returned: a graph as
// Dynamo captures straight-line code.
graph::Graph ChainGraph(int64_t ops);

// Encodes and decodes `g`; the decoder's error, if any.
std::optional<std::string> WireRoundTrip(const graph::Graph& g);

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_WIRE_TRIP_H_
