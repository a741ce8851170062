// Tensors across the ABI: a runtime tensor seen as a tdc_tensor (a view of its storage, for
// passing in), and a tdc_tensor copied into a runtime tensor (for taking out).
#ifndef TDCONFORM_CONFORMANCE_ABI_TENSORS_H_
#define TDCONFORM_CONFORMANCE_ABI_TENSORS_H_

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "conformance/abi/tdconform_backend.h"
#include "reference/runtime/tensor.h"

namespace tdc::conformance {

// Tensors by name (a graph's tensor constants, by their get_attr target).
using NamedTensors = std::vector<std::pair<std::string, runtime::Tensor>>;

// tdc_tensor views of runtime tensors on the CPU; keeps the shapes and strides they point
// to (the tensors' storage must outlive the views).
class WireTensors {
 public:
  const tdc_tensor& Add(const runtime::Tensor& t);
  // A contiguous tensor of that dtype and shape, owned here, seen as `out`.
  const runtime::Tensor& Allocate(int32_t dtype, int32_t ndim, const int64_t* shape,
                                  tdc_tensor& out);
  // The tensor Allocate made whose data `data` is, or null: memory the host owns, which
  // stays valid as long as this does.
  const runtime::Tensor* FindAllocated(const void* data) const;

 private:
  std::deque<runtime::Tensor> owned_;
  std::deque<std::vector<int64_t>> dims_;
  std::deque<tdc_tensor> views_;
};

// The most bytes one tensor crossing the ABI may hold (alloc_tensor, a backend's output): a
// shape whose size overflows or passes it is refused, never allocated.
inline constexpr int64_t kMaxWireTensorBytes = int64_t{1} << 32;

// Why a tensor of that dtype and shape cannot be made (a negative or overflowing size, one
// above kMaxWireTensorBytes, an empty one whose sizes with each 0 counted as 1 are: its
// strides would be); nothing when it can.
std::optional<std::string> CheckShape(int32_t dtype, int32_t ndim, const int64_t* shape);

// A copy of `t` (on the CPU), or why it cannot be one: an unknown dtype, a null pointer, a
// device other than the CPU.
std::variant<runtime::Tensor, std::string> CopyFromWire(const tdc_tensor& t);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_ABI_TENSORS_H_
