#include "gpu/backend/views.h"

#include <utility>

#include "gpu/backend/shapes.h"

namespace tdc::gpu {

namespace {

// view and reshape's sizes with a -1 inferred, or why they do not fit `numel`.
std::string InferSizes(std::vector<int64_t> sizes, int64_t numel, std::vector<int64_t>& out) {
  int64_t known = 1;
  int inferred = -1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == -1 && inferred < 0) {
      inferred = static_cast<int>(d);
    } else if (sizes[d] < 0) {
      return "a size below -1, or two -1s";
    } else {
      known *= sizes[d];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0) return "sizes that do not fit the input";
    sizes[inferred] = numel / known;
  } else if (known != numel) {
    return "sizes that do not fit the input";
  }
  out = std::move(sizes);
  return {};
}

}  // namespace

std::string ViewOf(const Step& s, const std::vector<int64_t>& in,
                   const std::vector<int64_t>& in_strides, std::vector<int64_t>& shape,
                   std::vector<int64_t>& strides) {
  const auto rank = static_cast<int64_t>(in.size());
  const std::vector<int64_t> dims = s.dims.value_or(std::vector<int64_t>{});
  switch (s.view) {
    case ViewOp::kView:
    case ViewOp::kReshape:
      if (std::string e = InferSizes(dims, Numel(in), shape); !e.empty()) return e;
      strides = ContiguousStrides(shape);  // the same elements in the same order
      return {};
    case ViewOp::kTranspose: {
      const int64_t a = Wrap(dims[0], rank), b = Wrap(dims[1], rank);
      if (a < 0 || b < 0) return "a dim out of range";
      shape = in;
      strides = in_strides;
      if (rank > 0) {
        std::swap(shape[a], shape[b]);
        std::swap(strides[a], strides[b]);
      }
      return {};
    }
    case ViewOp::kPermute: {
      if (static_cast<int64_t>(dims.size()) != rank) return "dims that are not a permutation";
      std::vector<bool> seen(in.size(), false);
      for (int64_t dim : dims) {
        const int64_t d = Wrap(dim, rank);
        if (d < 0 || seen[d]) return "dims that are not a permutation";
        seen[d] = true;
        shape.push_back(in[d]);
        strides.push_back(in_strides[d]);
      }
      return {};
    }
    case ViewOp::kExpand: {
      if (dims.size() < in.size()) return "fewer sizes than the input has dims";
      const size_t lead = dims.size() - in.size();
      for (size_t d = 0; d < dims.size(); ++d) {
        if (d < lead) {  // a new leading dim
          if (dims[d] < 0) return "-1 for a new dim";
          shape.push_back(dims[d]);
          strides.push_back(0);
          continue;
        }
        const int64_t size = in[d - lead];
        const int64_t want = dims[d] == -1 ? size : dims[d];
        if (want != size && size != 1) return "a size that does not expand the input's";
        shape.push_back(want);
        strides.push_back(want != size ? 0 : in_strides[d - lead]);
      }
      return {};
    }
    case ViewOp::kSqueeze:
    case ViewOp::kUnsqueeze: {
      std::vector<bool> drop(in.size(), !s.dims);  // squeeze(): every size-1 dim
      shape = in;
      if (s.view == ViewOp::kUnsqueeze) {
        const int64_t d = Wrap(dims[0], rank + 1);
        if (d < 0) return "a dim out of range";
        shape.insert(shape.begin() + d, 1);
      } else {
        for (int64_t dim : dims) {
          const int64_t d = Wrap(dim, rank);
          if (d < 0) return "a dim out of range";
          if (rank > 0) drop[d] = true;
        }
        shape.clear();
        for (size_t d = 0; d < in.size(); ++d) {
          if (!(drop[d] && in[d] == 1)) shape.push_back(in[d]);
        }
      }
      strides = ContiguousStrides(shape);  // the same elements in the same order
      return {};
    }
    case ViewOp::kContiguous:
    case ViewOp::kClone:
      shape = in;
      strides = in_strides;
      return {};
  }
  return "an unknown view";
}

}  // namespace tdc::gpu
