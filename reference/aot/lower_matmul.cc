// torch.matmul by rank, as AOT autograd's forward graph has it (ATen's _matmul_impl, the
// probe family fixtures/probes/matmul): dot, mv, mm; a batched operand folded into a
// matrix (view or copy, then mm / mv and an _unsafe_view) when it is row-major and the
// other has at most 2 dims (never a matrix on the left); otherwise both operands expanded to the
// broadcast batch, reshaped to 3-d, bmm, and a view to the result's shape.
#include "reference/aot/args.h"
#include "reference/aot/lowering.h"
#include "reference/aot/reshape.h"
#include "reference/runtime/views.h"

namespace tdc::aot {
namespace {

using runtime::Shape;

graph::Arg Ref(int64_t r) { return graph::Arg::Ref(r); }

// Whether `t` is laid out row-major, dims of size 1 aside (the fold's condition).
bool RowMajor(const runtime::Tensor& t) {
  int64_t expected = 1;
  for (size_t i = t.sizes.size(); i-- > 0;) {
    if (t.sizes[i] != 1 && t.strides[i] != expected) return false;
    expected *= t.sizes[i];
  }
  return true;
}

Shape Prefix(const Shape& s, size_t n) {
  return Shape(s.begin(), s.begin() + static_cast<long>(n));
}

// torch's infer_size: the broadcast of two batch shapes.
Shape Broadcast(const Shape& a, const Shape& b) {
  Shape out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    out[i] = x == 1 ? y : x;
  }
  return out;
}

int64_t Product(const Shape& s) {
  int64_t p = 1;
  for (int64_t d : s) p *= d;
  return p;
}

// The larger operand (>= 3 dims) folded into a matrix, the other one of <= 2 dims.
int64_t Fold(Recorder& r, const Traced& a, const Traced& b, const Shape& out_shape, bool a_larger) {
  if (a_larger) {
    Traced folded = EmitReshape(
        r, a, {Product(Prefix(a.tensor.sizes, a.tensor.sizes.size() - 1)), a.tensor.sizes.back()});
    const char* op = b.tensor.sizes.size() == 1 ? "aten.mv.default" : "aten.mm.default";
    int64_t product = r.Emit(op, {folded.ref, b.ref});
    return r.Emit("aten._unsafe_view.default", {Ref(product), IntList(out_shape)});
  }
  // A vector times a batch of matrices: the batch transposed and folded, then mv.
  Traced transposed{
      Ref(r.Emit("aten.transpose.int", {b.ref, graph::Arg::Int(-2), graph::Arg::Int(-1)})),
      runtime::Transpose(b.tensor, -2, -1)};
  const Shape& ts = transposed.tensor.sizes;
  Traced folded = EmitReshape(r, transposed, {Product(Prefix(ts, ts.size() - 1)), ts.back()});
  int64_t product = r.Emit("aten.mv.default", {folded.ref, a.ref});
  return r.Emit("aten._unsafe_view.default", {Ref(product), IntList(out_shape)});
}

// Both operands expanded to the broadcast batch and reshaped to 3-d, then bmm.
int64_t Batched(Recorder& r, const Traced& a, const Traced& b, const Shape& out_shape) {
  const Shape &sa = a.tensor.sizes, &sb = b.tensor.sizes;
  const int64_t n = sa.size() > 1 ? sa[sa.size() - 2] : 1, m1 = sa.back();
  const int64_t m2 = sb.size() > 1 ? sb[sb.size() - 2] : sb.front(),
                p = sb.size() > 1 ? sb.back() : 1;
  const Shape batch = Broadcast(Prefix(sa, sa.size() >= 2 ? sa.size() - 2 : 0),
                                Prefix(sb, sb.size() >= 2 ? sb.size() - 2 : 0));
  const int64_t batch_product = Product(batch);
  auto expand = [&](const Traced& t, Shape shape) {
    return Traced{Ref(r.Emit("aten.expand.default", {t.ref, IntList(shape)})),
                  runtime::Expand(t.tensor, shape)};
  };
  Shape a_size = batch;
  a_size.insert(a_size.end(), {n, m1});
  Traced a3 = EmitReshape(r, expand(a, a_size), {batch_product, n, m1});
  const bool vector_rhs = sb.size() == 1;
  Shape b_size = batch;
  if (vector_rhs) {
    b_size.push_back(m2);
  } else {
    b_size.insert(b_size.end(), {m2, p});
  }
  Traced b3 = vector_rhs ? EmitReshape(r, expand(b, b_size), {batch_product, m2})
                         : EmitReshape(r, expand(b, b_size), {batch_product, m2, p});
  if (vector_rhs) b3.ref = Ref(r.Emit("aten.unsqueeze.default", {b3.ref, graph::Arg::Int(2)}));
  int64_t product = r.Emit("aten.bmm.default", {a3.ref, b3.ref});
  if (vector_rhs) product = r.Emit("aten.squeeze.dim", {Ref(product), graph::Arg::Int(-1)});
  return r.Emit("aten.view.default", {Ref(product), IntList(out_shape)});
}

}  // namespace

void LowerMatmul(Recorder& r, const OpCall& call) {
  Value self = call.Given("self"), other = call.Given("other");
  Traced a{r.ArgOf(self), runtime::TensorOf(self)}, b{r.ArgOf(other), runtime::TensorOf(other)};
  const size_t da = a.tensor.sizes.size(), db = b.tensor.sizes.size();
  const Shape& out_shape = call.Result().sizes;
  int64_t result;
  if (da == 1 && db == 1) {
    result = r.Emit("aten.dot.default", {a.ref, b.ref});
  } else if (da == 2 && db == 1) {
    result = r.Emit("aten.mv.default", {a.ref, b.ref});
  } else if (da == 1 && db == 2) {
    int64_t row = r.Emit("aten.unsqueeze.default", {a.ref, graph::Arg::Int(0)});
    int64_t product = r.Emit("aten.mm.default", {Ref(row), b.ref});
    result = r.Emit("aten.squeeze.dim", {Ref(product), graph::Arg::Int(0)});
  } else if (da == 2 && db == 2) {
    result = r.Emit("aten.mm.default", {a.ref, b.ref});
  } else {
    const bool a_larger = da >= db;
    const runtime::Tensor& larger = a_larger ? a.tensor : b.tensor;
    const size_t smaller_dim = a_larger ? db : da;
    // Folding: the larger has >= 3 dims and is row-major, the smaller <= 2; a matrix on
    // the left is never folded (it would need a transposed copy of the result).
    bool fold = larger.sizes.size() >= 3 && smaller_dim <= 2 && da != 2 && RowMajor(larger);
    result = fold ? Fold(r, a, b, out_shape, a_larger) : Batched(r, a, b, out_shape);
  }
  r.Bind(call.result, result);
}

}  // namespace tdc::aot
