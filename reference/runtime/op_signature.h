// Op signatures and the binding of a call's arguments to them, following torch's Python
// argument parser where a fixture can observe it: positional then keyword arguments;
// keyword-only parameters after `*`; an int list given as separate ints when it is the
// only positional parameter (`x.view(2, 3)`, `torch.ones(2, 3)`); one int for a dim list
// declared `int[1]` (`x.sum(0)`); a method's receiver bound to the parameter `self`, which
// the function form names `input` as a keyword.
//
// The notation (one signature per op in ops.def) is torch's schema order with Python's
// annotation syntax: "self: Tensor, dim: int[1]? = None, keepdim: bool = False, *,
// dtype: ScalarType? = None". Types: Tensor, Number (a Python bool, int or float),
// Tensor|Number, int, bool, int[], int[1], Tensor[], ScalarType, Data (torch.tensor's
// nested lists), Device (device="cpu", the only one modeled); `?` accepts None. Defaults: None,
// True, False, an int, or [] (empty list).
#ifndef TDCONFORM_REFERENCE_RUNTIME_OP_SIGNATURE_H_
#define TDCONFORM_REFERENCE_RUNTIME_OP_SIGNATURE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/op_value.h"

namespace tdc::runtime {

enum class ParamType {
  kTensor,
  kNumber,
  kTensorOrNumber,
  kInt,
  kBool,
  kIntList,
  kIntListOrInt,
  kTensorList,
  kScalarType,
  kData,
  kDevice
};

struct Param {
  std::string name;
  ParamType type = ParamType::kTensor;
  bool accepts_none = false;  // `?`
  bool keyword_only = false;  // after `*`
  std::optional<OpValue> default_value;
};

struct Signature {
  std::vector<Param> params;
};

// Parses ops.def's notation; a malformed signature is a table bug (std::logic_error).
Signature ParseSignature(std::string_view text);

// How the call reached the op: `torch.op(...)` or `tensor.op(...)` (receiver first).
enum class Surface { kFunction, kMethod };

// A call's arguments bound to the parameters, defaults filled in, types checked.
class BoundArgs {
 public:
  BoundArgs(const Signature* signature, std::vector<OpValue> values)
      : signature_(signature), values_(std::move(values)) {}

  const OpValue& Raw(std::string_view name) const;
  bool IsNone(std::string_view name) const { return Raw(name).kind == OpValue::Kind::kNone; }
  const Tensor& TensorArg(std::string_view name) const;
  Scalar Number(std::string_view name) const;
  int64_t Int(std::string_view name) const;
  bool Bool(std::string_view name) const;
  // int[] and int[1]: the list (one int given for int[1] becomes a list of one).
  Shape Ints(std::string_view name) const;
  std::vector<Tensor> Tensors(std::string_view name) const;
  std::optional<DType> OptDType(std::string_view name) const;

 private:
  const Signature* signature_;
  std::vector<OpValue> values_;  // one per parameter, in signature order
};

// Binds a call of `op_name` (used in error messages). A call torch's parser rejects raises
// TorchError("TypeError", ...): the type is torch's, the text the reference's own
// (SEMANTICS.md §5.5).
BoundArgs Bind(const Signature& signature, std::string_view op_name, Surface surface,
               std::vector<OpValue> positional,
               std::vector<std::pair<std::string, OpValue>> keywords);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_OP_SIGNATURE_H_
