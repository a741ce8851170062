// Binding a call's arguments to a Python function's parameters, in CPython 3.11's order
// (ceval.c initialize_locals) and with its TypeError texts: positional arguments fill the
// positional parameters (extras go to *args); then each keyword finds its parameter (or
// **kwargs), failing on an unknown or repeated name; then too many positional arguments;
// then missing positional, then missing keyword-only parameters. The `qualname` names the
// function in every message. Used for user functions and for the Python functions of the
// modeled libraries alike.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_BINDING_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_BINDING_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/values.h"

namespace tdc::runtime {

struct ParamSpec {
  std::vector<std::string> positional;  // positional-only first, then the others
  size_t positional_only = 0;
  size_t positional_defaults = 0;  // the last N positional parameters have defaults
  std::vector<std::string> keyword_only;
  std::vector<bool> keyword_only_has_default;
  bool varargs = false;  // *args
  bool varkw = false;    // **kwargs
};

struct BoundCall {
  // One per parameter, positional then keyword-only; null where the default applies.
  std::vector<Value> params;
  std::vector<Value> extra_positional;                        // for *args
  std::vector<std::pair<std::string, Value>> extra_keywords;  // for **kwargs
};

BoundCall BindCall(Heap& heap, std::string_view qualname, const ParamSpec& spec,
                   const CallArgs& args);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_PY_BINDING_H_
