// The wire form of the backend ABI (tdconform_backend.h): canonical graph v1 (DESIGN.md D2)
// as the C structs a backend reads, and back. The host encodes every graph it hands a
// backend with EncodeGraph; backends written in C++ (the reference backend) decode it with
// DecodeGraph. Enum values are the graph vocabulary's own order (reference/graph/*.def),
// which the header numbers explicitly (wire_test checks them name by name).
#ifndef TDCONFORM_CONFORMANCE_ABI_WIRE_H_
#define TDCONFORM_CONFORMANCE_ABI_WIRE_H_

#include <deque>
#include <string>
#include <variant>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "conformance/abi/tensors.h"
#include "reference/graph/graph.h"

namespace tdc::conformance {

// A tdc_graph and everything its pointers reach; not copyable (the pointers are into it).
class WireGraph {
 public:
  // `constants`: what its get_attr nodes read, by target (their storage must outlive it).
  // `example_inputs`: the inputs its first run will get (tdc_graph.example_inputs), copied.
  WireGraph(const graph::Graph& g, tdc_graph_level level, std::string name,
            const NamedTensors& constants = {},
            const std::vector<runtime::Tensor>& example_inputs = {});
  WireGraph(const WireGraph&) = delete;
  WireGraph& operator=(const WireGraph&) = delete;
  const tdc_graph& get() const { return graph_; }

 private:
  tdc_arg Encode(const graph::Arg& arg);
  const char* Keep(std::string text);

  // Deques: growing them keeps the addresses of what they already hold.
  std::deque<std::string> strings_;
  std::deque<std::vector<tdc_arg>> args_;
  std::deque<std::vector<tdc_kwarg>> kwargs_;
  std::deque<std::vector<int64_t>> shapes_;
  std::vector<tdc_node> nodes_;
  WireTensors constants_;
  std::vector<const char*> constant_names_;
  std::vector<tdc_tensor> constant_views_;
  std::vector<runtime::Tensor> example_copies_;  // a backend writing them writes no input
  WireTensors examples_;
  std::vector<tdc_tensor> example_views_;
  tdc_graph graph_{};
};

// The canonical graph `g` describes, or what is wrong with it (a bad kind, a REF to a
// later node, a NULL where a string belongs), naming the node.
std::variant<graph::Graph, std::string> DecodeGraph(const tdc_graph& g);
// Copies of `g`'s tensor constants, or what is wrong with one.
std::variant<NamedTensors, std::string> DecodeConstants(const tdc_graph& g);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_ABI_WIRE_H_
