// The CUDA backend's one kernel: an elementwise operation on float32 values, broadcast as
// torch broadcasts. The same code runs on the device (cuda_device.cu) and, for the tests of
// a machine without one, on the host (host_device.cc): everything but the launch itself is
// tested on the CPU.
#ifndef TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_
#define TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_

#include <cstdint>

#include "gpu/backend/host_device.h"

namespace tdc::gpu {

enum class ElementOp {
#define TDC_CUDA_ELEMENTWISE(name, Kind, function, method, python_operator, overloads) Kind,
#include "gpu/backend/cuda_ops.def"
  kCopy,  // the operand as it is: what views and copies launch (cuda_ops.def's TDC_CUDA_VIEW)
};

TDC_HOST_DEVICE constexpr bool IsBinary(ElementOp op) {
  return op == ElementOp::kAdd || op == ElementOp::kSub || op == ElementOp::kMul ||
         op == ElementOp::kDiv || op == ElementOp::kPow;
}

inline constexpr int kMaxRank = 8;

// One operand of a launch: a tensor's device buffer read through broadcast strides (0 on a
// stretched dim), or a Python number.
struct ElementOperand {
  const float* data = nullptr;  // null: `number`
  float number = 0;
  int64_t strides[kMaxRank] = {};  // in elements, per dim of the output
};

struct ElementLaunch {
  ElementOp op = ElementOp::kAdd;
  int rank = 0;
  int64_t shape[kMaxRank] = {};  // the output's, contiguous
  int64_t numel = 0;
  ElementOperand a, b;  // b: binary ops only
  float* out = nullptr;
};

TDC_HOST_DEVICE inline float Apply(ElementOp op, float x, float y) {
  switch (op) {
    case ElementOp::kAdd:
      return x + y;
    case ElementOp::kSub:
      return x - y;
    case ElementOp::kMul:
      return x * y;
    case ElementOp::kDiv:
      return x / y;
    case ElementOp::kPow:
      return powf(x, y);
    case ElementOp::kNeg:
      return -x;
    case ElementOp::kAbs:
      return fabsf(x);
    case ElementOp::kRelu:
      return x > 0.0f ? x : (x == x ? 0.0f : x);  // NaN stays NaN
    case ElementOp::kSigmoid:
      return 1.0f / (1.0f + expf(-x));
    case ElementOp::kTanh:
      return tanhf(x);
    case ElementOp::kSin:
      return sinf(x);
    case ElementOp::kCos:
      return cosf(x);
    case ElementOp::kTan:
      return tanf(x);
    case ElementOp::kExp:
      return expf(x);
    case ElementOp::kLog:
      return logf(x);
    case ElementOp::kSqrt:
      return sqrtf(x);
    case ElementOp::kGelu:  // approximate='none', the only form the op table models
      return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case ElementOp::kCopy:
      return x;
  }
  return x;
}

TDC_HOST_DEVICE inline float Read(const ElementOperand& operand, const int64_t* index, int rank) {
  if (operand.data == nullptr) return operand.number;
  int64_t offset = 0;
  for (int d = 0; d < rank; ++d) offset += index[d] * operand.strides[d];
  return operand.data[offset];
}

// Output element `linear` (row-major) of the launch.
TDC_HOST_DEVICE inline void ComputeElement(const ElementLaunch& launch, int64_t linear) {
  int64_t index[kMaxRank] = {};
  for (int64_t d = launch.rank - 1, rest = linear; d >= 0; --d) {
    index[d] = rest % launch.shape[d];
    rest /= launch.shape[d];
  }
  const float x = Read(launch.a, index, launch.rank);
  const float y = IsBinary(launch.op) ? Read(launch.b, index, launch.rank) : 0.0f;
  launch.out[linear] = Apply(launch.op, x, y);
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_
