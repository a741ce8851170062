// Graph targets with no ops.def row of their own that the runtime's kernels still compute:
// Python operators with a number on the left (torch's reflected methods), the two-tensor
// builtin max/min (torch.maximum/minimum), and ATen overloads AOT autograd emits
// (aten.scalar_tensor, aten.rsub.Scalar, aten.reciprocal, the fft as real and imaginary parts,
// the view and index ops tensor indexing lowers to), and tensor indexing itself.
#ifndef TDCONFORM_REFERENCE_BACKENDS_SPECIAL_NODES_H_
#define TDCONFORM_REFERENCE_BACKENDS_SPECIAL_NODES_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "reference/graph/value.h"
#include "reference/runtime/op_value.h"

namespace tdc::backends {

using Keywords = std::vector<std::pair<std::string, runtime::OpValue>>;

// `t.select(dim, index)`: a view without that dim.
std::variant<runtime::OpValue, std::string> Select(const runtime::Tensor& t, int64_t dim,
                                                   int64_t index);

// operator.getitem of a tensor (a Dynamo graph's indexing): `key` as the graph holds it
// (int, slice, None, Ellipsis, bool, a tensor's ref, or a tuple of these); `value_of`
// gives a ref's value.
std::variant<runtime::OpValue, std::string> TensorGetItem(
    const runtime::Tensor& self, const graph::Arg& key,
    const std::function<const runtime::OpValue&(int64_t)>& value_of);

// The node's value, an error, or nullopt when `target` is none of these (or, for a Python
// operator, its left operand is a tensor: the op table computes it).
std::optional<std::variant<runtime::OpValue, std::string>> RunSpecialNode(
    std::string_view target, const std::vector<runtime::OpValue>& args, const Keywords& kwargs);

}  // namespace tdc::backends

#endif  // TDCONFORM_REFERENCE_BACKENDS_SPECIAL_NODES_H_
