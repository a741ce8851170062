// torch.fft.fft of a real tensor. The runtime has no complex dtype (SEMANTICS.md §5.6):
// the complex result is returned as torch.view_as_real of it, a real tensor of the
// complex tensor's shape plus a trailing dim of 2 (real, imaginary), float32 for a
// complex64 result and float64 for complex128. All complex-specific code is here.
#ifndef TDCONFORM_REFERENCE_RUNTIME_SPECTRAL_H_
#define TDCONFORM_REFERENCE_RUNTIME_SPECTRAL_H_

#include <optional>

#include "reference/runtime/tensor.h"

namespace tdc::runtime {

// fft(t, n, dim) (norm="backward"): the DFT along dim, t zero-padded or trimmed to n
// points; computed in double and rounded to the result's element type.
Tensor FftAsReal(const Tensor& t, std::optional<int64_t> n, int64_t dim);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_SPECTRAL_H_
