// inspect.signature(fn) for the functions whose signature the reference knows: a def's or a
// lambda's (read from its parameters and its __defaults__ / __kwdefaults__, as CPython 3.11's
// inspect reads them) and the builtins listed in inspect_signature.cc (their
// __text_signature__). torch.compiler.substitute_in_graph compares two of them.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_INSPECT_SIGNATURE_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_INSPECT_SIGNATURE_H_

#include <optional>
#include <string>
#include <vector>

#include "reference/runtime/values.h"

namespace tdc::runtime {

// inspect.Parameter: its name, kind and default (null: inspect.Parameter.empty).
struct SignatureParam {
  enum class Kind {
    kPositionalOnly,
    kPositionalOrKeyword,
    kVarPositional,
    kKeywordOnly,
    kVarKeyword
  };
  std::string name;
  Kind kind;
  Value default_value;
};

struct Signature {
  std::vector<SignatureParam> params;
};

// The signature of `fn`, or nullopt where the reference does not know it (a builtin
// outside the table, a library function, a callable object). A def with an annotation is
// refused: inspect prints annotations, which the reference does not keep.
std::optional<Signature> SignatureOf(const Value& fn);

// str(inspect.signature(fn)): "(a, b=3, /, *args, c, **kwargs)", defaults by repr().
std::string SignatureText(const Signature& signature);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_INSPECT_SIGNATURE_H_
