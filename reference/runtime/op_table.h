// The op table (ops.def) as data: what the interpreter looks up when a program calls
// `torch.<function>`, `tensor.<method>` or applies a Python operator to a tensor, and
// what later layers ask of an op (its traits, its Dynamo target; the aot layer keys its
// lowerings by the op's name).
#ifndef TDCONFORM_REFERENCE_RUNTIME_OP_TABLE_H_
#define TDCONFORM_REFERENCE_RUNTIME_OP_TABLE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/op_signature.h"

namespace tdc::runtime {

enum OpTrait : uint32_t {
  kNone = 0,
  kPointwise = 1u << 0,
  kReduction = 1u << 1,
  kView = 1u << 2,           // always returns a view of its input
  kMayAlias = 1u << 3,       // returns a view (or its input) when the layout allows
  kFactory = 1u << 4,        // makes a new tensor from sizes or values
  kDataDependent = 1u << 5,  // its output's shape or Python type depends on tensor data
  kBreaksGraph = 1u << 6,    // Dynamo breaks the graph here under torch's default config
  kMetadata = 1u << 7,       // reads sizes only: a constant while tracing (static shapes)
  kInPlace = 1u << 8,        // mutates its first operand (none yet)
};

using OpKernel = OpValue (*)(const BoundArgs&);

struct OpInfo {
  std::string_view name;
  OpKernel kernel;
  std::string_view function;         // "torch.add", or empty
  std::string_view method;           // "add", or empty
  std::string_view python_operator;  // "operator.add", or empty
  Signature signature;
  uint32_t traits;

  bool Has(OpTrait t) const { return (traits & t) != 0; }
  // The number of parameters and how many must be given.
  size_t Arity() const { return signature.params.size(); }
  size_t RequiredArity() const;
};

// Every op, in ops.def order.
std::span<const OpInfo> AllOps();
const OpInfo* FindOp(std::string_view name);
// By surface: `torch.add` → add; method `add` → add; `operator.add` → add.
const OpInfo* FindFunction(std::string_view dotted_name);
const OpInfo* FindMethod(std::string_view method_name);
const OpInfo* FindPythonOperator(std::string_view dotted_name);

// Calls an op: binds the arguments to its signature and runs its kernel. Errors are
// TorchError with torch's exception type.
OpValue CallOp(const OpInfo& op, Surface surface, std::vector<OpValue> positional,
               std::vector<std::pair<std::string, OpValue>> keywords = {});

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_OP_TABLE_H_
