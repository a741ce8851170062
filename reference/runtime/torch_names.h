// The attribute names torch 2.13.0 and CPython 3.11 give the modules and types the runtime
// models (torch_names.def, written by ci/torch_names.py). A name the runtime lacks is then
// either one torch has, which the reference refuses as not modeled (DESIGN D13), or one it
// does not have, which raises AttributeError as Python would.
#ifndef TDCONFORM_REFERENCE_RUNTIME_TORCH_NAMES_H_
#define TDCONFORM_REFERENCE_RUNTIME_TORCH_NAMES_H_

#include <string_view>

namespace tdc::runtime {

// Whether `name` is an attribute of module `module` ("torch.nn.functional") there; for
// torch._dynamo.config, whether it is a config key.
bool TorchModuleHas(std::string_view module, std::string_view name);
// Whether instances of the type named `type` ("str", "Tensor") have attribute `name` there.
bool PythonTypeHas(std::string_view type, std::string_view name);
// Whether the table lists the type named `type` at all: for another type (dtype, a builtin
// function, a module's classes) the runtime cannot tell which attributes it lacks.
bool PythonTypeListed(std::string_view type);
// Whether instances of `type` may have attribute `name` there: they do, or the table does
// not list the type (a miss is then refused, never Python's AttributeError or TypeError).
bool PythonMayHave(std::string_view type, std::string_view name);
// Whether an overload of torch function `torch.<name>` (or Tensor method `name`, when
// `method`) of the op table takes a parameter `keyword` there.
bool TorchAcceptsKeyword(bool method, std::string_view name, std::string_view keyword);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_TORCH_NAMES_H_
