// Each kernel unpacks its arguments by parameter name (ops.def's signature) and calls
// the runtime function that implements the op.
#include "reference/runtime/op_kernels.h"

#include <fmt/format.h>

#include "reference/runtime/constructors.h"
#include "reference/runtime/elementwise.h"
#include "reference/runtime/joins.h"
#include "reference/runtime/matmul.h"
#include "reference/runtime/reductions.h"
#include "reference/runtime/spectral.h"
#include "reference/runtime/views.h"

namespace tdc::runtime::kernels {
namespace {

Arg OperandOf(const OpValue& v) {
  return v.kind == OpValue::Kind::kTensor ? Arg::Of(v.tensor) : Arg::Python(v.scalar);
}

OpValue BinaryKernel(BinaryOp op, const BoundArgs& args, std::string_view other) {
  return OpValue::Of(Binary(op, Arg::Of(args.TensorArg("self")), OperandOf(args.Raw(other))));
}

OpValue UnaryKernel(UnaryOp op, const BoundArgs& args) {
  return OpValue::Of(Unary(op, args.TensorArg("self")));
}

OpValue ReduceKernel(ReduceOp op, const BoundArgs& args) {
  Shape dims = args.IsNone("dim") ? Shape{} : args.Ints("dim");
  return OpValue::Of(Reduce(op, args.TensorArg("self"), dims, args.Bool("keepdim")));
}

OpValue PythonInt(int64_t v) { return OpValue::Of(Scalar::Int(v)); }

// torch.tensor's nested lists: the shape is read along the first items; every list at a
// depth must have that depth's length (torch's error text when one does not).
void FlattenData(const OpValue& v, size_t depth, Shape& shape, std::vector<Scalar>& flat) {
  if (!v.IsSequence()) {
    if (depth < shape.size()) {
      throw TorchError("TypeError", fmt::format("not a sequence"));
    }
    flat.push_back(v.scalar);
    return;
  }
  int64_t n = static_cast<int64_t>(v.items.size());
  if (depth == shape.size()) {
    shape.push_back(n);
  } else if (shape[depth] != n) {
    throw TorchError("ValueError", fmt::format("expected sequence of length {} at dim {} (got {})",
                                               shape[depth], depth, n));
  }
  for (const OpValue& item : v.items) FlattenData(item, depth + 1, shape, flat);
}

}  // namespace

OpValue Add(const BoundArgs& a) { return BinaryKernel(BinaryOp::kAdd, a, "other"); }
OpValue Sub(const BoundArgs& a) { return BinaryKernel(BinaryOp::kSub, a, "other"); }
OpValue Mul(const BoundArgs& a) { return BinaryKernel(BinaryOp::kMul, a, "other"); }
OpValue Div(const BoundArgs& a) { return BinaryKernel(BinaryOp::kDiv, a, "other"); }
OpValue Pow(const BoundArgs& a) { return BinaryKernel(BinaryOp::kPow, a, "exponent"); }
OpValue LShift(const BoundArgs& a) { return BinaryKernel(BinaryOp::kLShift, a, "other"); }
OpValue RShift(const BoundArgs& a) { return BinaryKernel(BinaryOp::kRShift, a, "other"); }
OpValue Eq(const BoundArgs& a) { return BinaryKernel(BinaryOp::kEq, a, "other"); }
OpValue Ne(const BoundArgs& a) { return BinaryKernel(BinaryOp::kNe, a, "other"); }
OpValue Lt(const BoundArgs& a) { return BinaryKernel(BinaryOp::kLt, a, "other"); }
OpValue Le(const BoundArgs& a) { return BinaryKernel(BinaryOp::kLe, a, "other"); }
OpValue Gt(const BoundArgs& a) { return BinaryKernel(BinaryOp::kGt, a, "other"); }
OpValue Ge(const BoundArgs& a) { return BinaryKernel(BinaryOp::kGe, a, "other"); }

OpValue Where(const BoundArgs& a) {
  return OpValue::Of(runtime::Where(a.TensorArg("condition"), OperandOf(a.Raw("self")),
                                    OperandOf(a.Raw("other"))));
}

OpValue Neg(const BoundArgs& a) { return UnaryKernel(UnaryOp::kNeg, a); }
OpValue Abs(const BoundArgs& a) { return UnaryKernel(UnaryOp::kAbs, a); }
OpValue Relu(const BoundArgs& a) { return UnaryKernel(UnaryOp::kRelu, a); }
OpValue Sigmoid(const BoundArgs& a) { return UnaryKernel(UnaryOp::kSigmoid, a); }
OpValue Tanh(const BoundArgs& a) { return UnaryKernel(UnaryOp::kTanh, a); }
OpValue Sin(const BoundArgs& a) { return UnaryKernel(UnaryOp::kSin, a); }
OpValue Cos(const BoundArgs& a) { return UnaryKernel(UnaryOp::kCos, a); }
OpValue Tan(const BoundArgs& a) { return UnaryKernel(UnaryOp::kTan, a); }
OpValue Exp(const BoundArgs& a) { return UnaryKernel(UnaryOp::kExp, a); }
OpValue Log(const BoundArgs& a) { return UnaryKernel(UnaryOp::kLog, a); }
OpValue Sqrt(const BoundArgs& a) { return UnaryKernel(UnaryOp::kSqrt, a); }
OpValue Gelu(const BoundArgs& a) { return UnaryKernel(UnaryOp::kGelu, a); }

OpValue Sum(const BoundArgs& a) { return ReduceKernel(ReduceOp::kSum, a); }
OpValue Mean(const BoundArgs& a) { return ReduceKernel(ReduceOp::kMean, a); }
OpValue Amax(const BoundArgs& a) { return ReduceKernel(ReduceOp::kAmax, a); }

OpValue Max(const BoundArgs& a) {
  const Tensor& t = a.TensorArg("self");
  if (a.IsNone("dim")) {
    // torch.max(input) has no keepdim: only the default binds to the dim-less overload.
    if (a.Bool("keepdim")) throw TorchError("TypeError", "max() got keepdim without dim");
    return OpValue::Of(MaxAll(t));
  }
  auto [values, indices] = MaxDim(t, a.Int("dim"), a.Bool("keepdim"));
  return OpValue::Tuple({OpValue::Of(values), OpValue::Of(indices)});
}

OpValue VectorNorm(const BoundArgs& a) {
  Shape dims = a.IsNone("dim") ? Shape{} : a.Ints("dim");
  return OpValue::Of(runtime::VectorNorm(a.TensorArg("self"), a.Number("ord").AsDouble(), dims,
                                         a.Bool("keepdim")));
}

OpValue Fft(const BoundArgs& a) {
  std::optional<int64_t> n;
  if (!a.IsNone("n")) n = a.Int("n");
  return OpValue::Of(FftAsReal(a.TensorArg("self"), n, a.Int("dim")));
}

OpValue Matmul(const BoundArgs& a) {
  return OpValue::Of(runtime::Matmul(a.TensorArg("self"), a.TensorArg("other")));
}

OpValue View(const BoundArgs& a) {
  return OpValue::Of(runtime::View(a.TensorArg("self"), a.Ints("size")));
}
OpValue Reshape(const BoundArgs& a) {
  return OpValue::Of(runtime::Reshape(a.TensorArg("self"), a.Ints("shape")));
}
OpValue Transpose(const BoundArgs& a) {
  return OpValue::Of(runtime::Transpose(a.TensorArg("self"), a.Int("dim0"), a.Int("dim1")));
}
OpValue Permute(const BoundArgs& a) {
  return OpValue::Of(runtime::Permute(a.TensorArg("self"), a.Ints("dims")));
}
OpValue Expand(const BoundArgs& a) {
  return OpValue::Of(runtime::Expand(a.TensorArg("self"), a.Ints("size")));
}
OpValue Squeeze(const BoundArgs& a) {
  const Tensor& t = a.TensorArg("self");
  return OpValue::Of(a.IsNone("dim") ? runtime::Squeeze(t) : runtime::Squeeze(t, a.Int("dim")));
}
OpValue Unsqueeze(const BoundArgs& a) {
  return OpValue::Of(runtime::Unsqueeze(a.TensorArg("self"), a.Int("dim")));
}
OpValue Contiguous(const BoundArgs& a) {
  return OpValue::Of(runtime::Contiguous(a.TensorArg("self")));
}
OpValue Clone(const BoundArgs& a) { return OpValue::Of(runtime::Clone(a.TensorArg("self"))); }
OpValue Cat(const BoundArgs& a) {
  return OpValue::Of(runtime::Cat(a.Tensors("tensors"), a.Int("dim")));
}

OpValue Nonzero(const BoundArgs& a) { return OpValue::Of(runtime::Nonzero(a.TensorArg("self"))); }

OpValue Item(const BoundArgs& a) {
  // A Python number: a floating element becomes a Python float (double) exactly.
  Scalar s = runtime::Item(a.TensorArg("self"));
  return OpValue::Of(IsFloating(s.dtype) ? Scalar::Float(s.AsDouble()) : s);
}

namespace {

// Tensor.tolist(): nested lists of Python numbers (a 0-dim tensor: the number itself).
OpValue ListOf(const Tensor& t, size_t dim, int64_t offset) {
  if (dim == t.sizes.size()) {
    Tensor element = t;
    element.sizes = {};
    element.strides = {};
    element.storage_offset = offset;
    Scalar s = runtime::Item(element);
    return OpValue::Of(IsFloating(s.dtype) ? Scalar::Float(s.AsDouble()) : s);
  }
  std::vector<OpValue> items;
  for (int64_t i = 0; i < t.sizes[dim]; ++i)
    items.push_back(ListOf(t, dim + 1, offset + i * t.strides[dim]));
  return OpValue::List(std::move(items));
}

}  // namespace

OpValue Tolist(const BoundArgs& a) {
  const Tensor& t = a.TensorArg("self");
  return ListOf(t, 0, t.storage_offset);
}

OpValue Size(const BoundArgs& a) {
  const Tensor& t = a.TensorArg("self");
  if (a.IsNone("dim")) return OpValue::Size(t.sizes);
  return PythonInt(t.sizes[static_cast<size_t>(WrapDim(a.Int("dim"), t.dim()))]);
}
OpValue Dim(const BoundArgs& a) { return PythonInt(a.TensorArg("self").dim()); }
OpValue Numel(const BoundArgs& a) { return PythonInt(a.TensorArg("self").numel()); }

OpValue MakeTensorOp(const BoundArgs& a) {
  Shape shape;
  std::vector<Scalar> flat;
  FlattenData(a.Raw("data"), 0, shape, flat);
  return OpValue::Of(MakeTensor(shape, flat, a.OptDType("dtype")));
}

OpValue Arange(const BoundArgs& a) {
  // torch.arange(end) counts from 0: the first argument is the end when it is alone.
  Scalar start = a.Number("start");
  Scalar end = a.IsNone("end") ? start : a.Number("end");
  if (a.IsNone("end")) start = Scalar::Int(0);
  return OpValue::Of(runtime::Arange(start, end, a.Number("step"), a.OptDType("dtype")));
}

OpValue Linspace(const BoundArgs& a) {
  return OpValue::Of(
      runtime::Linspace(a.Number("start"), a.Number("end"), a.Int("steps"), a.OptDType("dtype")));
}
OpValue Full(const BoundArgs& a) {
  return OpValue::Of(runtime::Full(a.Ints("size"), a.Number("fill_value"), a.OptDType("dtype")));
}
OpValue Ones(const BoundArgs& a) {
  return OpValue::Of(runtime::Ones(a.Ints("size"), a.OptDType("dtype").value_or(DType::kFloat32)));
}
OpValue Zeros(const BoundArgs& a) {
  return OpValue::Of(runtime::Zeros(a.Ints("size"), a.OptDType("dtype").value_or(DType::kFloat32)));
}
OpValue EmptyLike(const BoundArgs& a) {
  return OpValue::Of(EmptyLikeOf(a.TensorArg("self"), a.OptDType("dtype")));
}
OpValue OnesLike(const BoundArgs& a) {
  return OpValue::Of(runtime::OnesLike(a.TensorArg("self"), a.OptDType("dtype")));
}
OpValue ZerosLike(const BoundArgs& a) {
  return OpValue::Of(runtime::ZerosLike(a.TensorArg("self"), a.OptDType("dtype")));
}

}  // namespace tdc::runtime::kernels
