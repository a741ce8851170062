// The CUDA backend's elementwise kernel: one output element per thread, its operands (up to
// three: where's condition and two values) read through broadcast strides (0 on a stretched
// dim) in their own dtypes, computed in the compute dtype the planner chose by torch's type
// promotion (promotion.h), stored in the output's. The same code runs on the device
// (cuda_device.cu) and, for the tests of a machine without one, on the host (host_device.cc):
// everything but the launch itself is tested on the CPU.
#ifndef TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_
#define TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_

#include <cstdint>
#include <type_traits>

#include "gpu/backend/elements.h"
#include "gpu/backend/host_device.h"

namespace tdc::gpu {

enum class ElementOp {
#define TDC_CUDA_ELEMENTWISE(name, Kind, arity, function, method, python_operator, overloads) Kind,
#include "gpu/backend/cuda_ops.def"
  kCopy,  // the operand as it is: what views and copies launch (cuda_ops.def's TDC_CUDA_VIEW)
};

// How many operands the op takes.
TDC_HOST_DEVICE constexpr int Arity(ElementOp op) {
  switch (op) {
#define TDC_CUDA_ELEMENTWISE(name, Kind, arity, function, method, python_operator, overloads) \
  case ElementOp::Kind:                                                                       \
    return arity;
#include "gpu/backend/cuda_ops.def"
    case ElementOp::kCopy:
      return 1;
  }
  return 1;
}

TDC_HOST_DEVICE constexpr bool IsComparison(ElementOp op) {
  return op == ElementOp::kEq || op == ElementOp::kNe || op == ElementOp::kLt ||
         op == ElementOp::kLe || op == ElementOp::kGt || op == ElementOp::kGe;
}

inline constexpr int kMaxRank = 8;

// One operand of a launch: a tensor's device buffer, or a Python number (an int or a bool
// as `integer`, a float as `real`), converted to the compute dtype.
struct ElementOperand {
  const void* data = nullptr;  // null: the number
  DType dtype = DType::kFloat32;
  bool is_integer = false;
  int64_t integer = 0;
  double real = 0;
  int64_t strides[kMaxRank] = {};  // in elements, per dim of the output
};

struct ElementLaunch {
  ElementOp op = ElementOp::kAdd;
  DType compute = DType::kFloat32, out_dtype = DType::kFloat32;
  int rank = 0;
  int64_t shape[kMaxRank] = {};  // the output's, contiguous
  int64_t numel = 0;
  ElementOperand operands[3];  // Arity(op) of them
  void* out = nullptr;
};

// The float math of both float dtypes, by overload.
TDC_HOST_DEVICE inline float Sin(float x) { return sinf(x); }
TDC_HOST_DEVICE inline double Sin(double x) { return sin(x); }
TDC_HOST_DEVICE inline float Cos(float x) { return cosf(x); }
TDC_HOST_DEVICE inline double Cos(double x) { return cos(x); }
TDC_HOST_DEVICE inline float Tan(float x) { return tanf(x); }
TDC_HOST_DEVICE inline double Tan(double x) { return tan(x); }
TDC_HOST_DEVICE inline float Tanh(float x) { return tanhf(x); }
TDC_HOST_DEVICE inline double Tanh(double x) { return tanh(x); }
TDC_HOST_DEVICE inline float Exp(float x) { return expf(x); }
TDC_HOST_DEVICE inline double Exp(double x) { return exp(x); }
TDC_HOST_DEVICE inline float Log(float x) { return logf(x); }
TDC_HOST_DEVICE inline double Log(double x) { return log(x); }
TDC_HOST_DEVICE inline float Sqrt(float x) { return sqrtf(x); }
TDC_HOST_DEVICE inline double Sqrt(double x) { return sqrt(x); }
TDC_HOST_DEVICE inline float Erf(float x) { return erff(x); }
TDC_HOST_DEVICE inline double Erf(double x) { return erf(x); }
TDC_HOST_DEVICE inline float Pow(float x, float y) { return powf(x, y); }
TDC_HOST_DEVICE inline double Pow(double x, double y) { return pow(x, y); }

// torch's integer power: by squaring, wrapping as int64 does; a negative exponent gives 0
// except for a base of 1 or -1 (a Python int exponent below 0 is torch's error before this).
TDC_HOST_DEVICE inline int64_t Pow(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if (base == -1) return exponent % 2 == 0 ? 1 : -1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

TDC_HOST_DEVICE inline float Abs(float x) { return fabsf(x); }
TDC_HOST_DEVICE inline double Abs(double x) { return fabs(x); }

// The ops in T. int64 wraps (through uint64_t, where C++'s signed overflow is undefined);
// bool adds as `or` and multiplies as `and`, as torch's bool kernels do, and its power (a
// Python bool exponent) is x ** y. The planner (promotion.h) sends float math, division
// among them, in a float dtype only, comparisons' results to bool, and none of what torch
// refuses (bool subtraction and negation, say); what it never sends returns x.
template <typename T>
TDC_HOST_DEVICE inline T Apply(ElementOp op, T x, T y) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  constexpr bool kBool = std::is_same_v<T, bool>;
  constexpr bool kInt = !kFloat && !kBool;
  auto wrap = [](uint64_t v) { return static_cast<T>(static_cast<int64_t>(v)); };
  switch (op) {
    case ElementOp::kAdd:
      if constexpr (kBool) return x || y;
      if constexpr (kInt) return wrap(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
      if constexpr (kFloat) return x + y;
      break;
    case ElementOp::kSub:
      if constexpr (kInt) return wrap(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
      if constexpr (kFloat) return x - y;
      break;
    case ElementOp::kMul:
      if constexpr (kBool) return x && y;
      if constexpr (kInt) return wrap(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
      if constexpr (kFloat) return x * y;
      break;
    case ElementOp::kDiv:
      if constexpr (kFloat) return x / y;
      break;
    case ElementOp::kPow:
      if constexpr (kBool) return !y || x;
      if constexpr (!kBool) return Pow(x, y);
      break;
    case ElementOp::kNeg:
      if constexpr (kInt) return wrap(0 - static_cast<uint64_t>(x));
      if constexpr (kFloat) return -x;
      break;
    case ElementOp::kAbs:
      if constexpr (kInt) return x < 0 ? wrap(0 - static_cast<uint64_t>(x)) : x;
      if constexpr (kFloat) return Abs(x);
      break;
    case ElementOp::kRelu:
      if constexpr (!kBool) return x > 0 ? x : (x == x ? static_cast<T>(0) : x);  // NaN stays
      break;
    case ElementOp::kSigmoid:
      if constexpr (kFloat) return static_cast<T>(1) / (static_cast<T>(1) + Exp(-x));
      break;
    case ElementOp::kTanh:
      if constexpr (kFloat) return Tanh(x);
      break;
    case ElementOp::kSin:
      if constexpr (kFloat) return Sin(x);
      break;
    case ElementOp::kCos:
      if constexpr (kFloat) return Cos(x);
      break;
    case ElementOp::kTan:
      if constexpr (kFloat) return Tan(x);
      break;
    case ElementOp::kExp:
      if constexpr (kFloat) return Exp(x);
      break;
    case ElementOp::kLog:
      if constexpr (kFloat) return Log(x);
      break;
    case ElementOp::kSqrt:
      if constexpr (kFloat) return Sqrt(x);
      break;
    case ElementOp::kGelu:  // approximate='none', the only form the op table models
      if constexpr (kFloat)
        return static_cast<T>(0.5) * x *
               (static_cast<T>(1) + Erf(x * static_cast<T>(0.70710678118654752)));
      break;
    case ElementOp::kEq:  // comparisons and where: Compare, ComputeIn
    case ElementOp::kNe:
    case ElementOp::kLt:
    case ElementOp::kLe:
    case ElementOp::kGt:
    case ElementOp::kGe:
    case ElementOp::kWhere:
    case ElementOp::kCopy:
      break;
  }
  return x;
}

template <typename T>
TDC_HOST_DEVICE inline bool Compare(ElementOp op, T x, T y) {
  switch (op) {
    case ElementOp::kEq:
      return x == y;
    case ElementOp::kNe:
      return x != y;
    case ElementOp::kLt:
      return x < y;
    case ElementOp::kLe:
      return x <= y;
    case ElementOp::kGt:
      return x > y;
    case ElementOp::kGe:
      return x >= y;
    case ElementOp::kAdd:
    case ElementOp::kSub:
    case ElementOp::kMul:
    case ElementOp::kDiv:
    case ElementOp::kPow:
    case ElementOp::kWhere:
    case ElementOp::kNeg:
    case ElementOp::kAbs:
    case ElementOp::kRelu:
    case ElementOp::kSigmoid:
    case ElementOp::kTanh:
    case ElementOp::kSin:
    case ElementOp::kCos:
    case ElementOp::kTan:
    case ElementOp::kExp:
    case ElementOp::kLog:
    case ElementOp::kSqrt:
    case ElementOp::kGelu:
    case ElementOp::kCopy:
      break;
  }
  return false;
}

template <typename T>
TDC_HOST_DEVICE inline T Read(const ElementOperand& operand, const int64_t* index, int rank) {
  if (operand.data == nullptr) {
    return operand.is_integer ? static_cast<T>(operand.integer) : static_cast<T>(operand.real);
  }
  int64_t offset = 0;
  for (int d = 0; d < rank; ++d) offset += index[d] * operand.strides[d];
  return Load<T>(operand.data, operand.dtype, offset);
}

template <typename T>
TDC_HOST_DEVICE inline void ComputeIn(const ElementLaunch& launch, const int64_t* index,
                                      int64_t linear) {
  const ElementOperand* o = launch.operands;
  if (launch.op == ElementOp::kWhere) {
    const bool condition = Read<bool>(o[0], index, launch.rank);
    const T value =
        condition ? Read<T>(o[1], index, launch.rank) : Read<T>(o[2], index, launch.rank);
    Store(launch.out, launch.out_dtype, linear, value);
    return;
  }
  const T x = Read<T>(o[0], index, launch.rank);
  const T y = Arity(launch.op) == 2 ? Read<T>(o[1], index, launch.rank) : T{};
  if (IsComparison(launch.op)) {
    Store(launch.out, launch.out_dtype, linear, Compare(launch.op, x, y));
  } else {
    Store(launch.out, launch.out_dtype, linear, Apply(launch.op, x, y));
  }
}

// Output element `linear` (row-major) of the launch.
TDC_HOST_DEVICE inline void ComputeElement(const ElementLaunch& launch, int64_t linear) {
  int64_t index[kMaxRank] = {};
  for (int64_t d = launch.rank - 1, rest = linear; d >= 0; --d) {
    index[d] = rest % launch.shape[d];
    rest /= launch.shape[d];
  }
  switch (launch.compute) {
    case DType::kBool:
      return ComputeIn<bool>(launch, index, linear);
    case DType::kInt64:
      return ComputeIn<int64_t>(launch, index, linear);
    case DType::kFloat32:
      return ComputeIn<float>(launch, index, linear);
    case DType::kFloat64:
      return ComputeIn<double>(launch, index, linear);
  }
}

}  // namespace tdc::gpu

#endif  // TDCONFORM_GPU_BACKEND_ELEMENTWISE_H_
