// torch's tensor surface from the op table: every ops.def row with a function becomes
// torch.<name> (qualname `_VariableFunctionsClass.<name>`, as torch 2.13.0 names them),
// every row with a method becomes a method of torch.Tensor (`Tensor.<name>`).
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/tensor_values.h"

namespace tdc::runtime {

Value MakeBuiltin(Interpreter& in, std::string_view qualname, BuiltinCode code) {
  return in.heap().NewBuiltin(std::string(qualname), std::move(code));
}

void InstallTorchOps(Interpreter& in) {
  const Modules& modules = in.process().modules();
  PyModule& torch = *modules[ModuleId::kTorch];
  const Ref<PyType>& tensor_type = in.process().types().ForKind(ObjectKind::kTensor);
  torch.SetAttr("Tensor", tensor_type);
  for (const OpInfo& op : AllOps()) {
    const OpInfo* info = &op;
    // A namespaced function (torch.nn.functional.gelu, torch.fft.fft) is installed in its
    // module by torch_namespaces.cc.
    if (!op.function.empty() && op.function.find('.') == op.function.rfind('.')) {
      std::string_view name = op.function.substr(op.function.rfind('.') + 1);
      torch.SetAttr(name, MakeBuiltin(in, "_VariableFunctionsClass." + std::string(name),
                                      [&in, info](CallArgs& args) {
                                        return CallTensorOpAt(in, {false, info->function}, *info,
                                                              Surface::kFunction, std::move(args));
                                      }));
    }
    if (!op.method.empty()) {
      tensor_type->dict->SetStr(
          op.method,
          MakeBuiltin(in, "Tensor." + std::string(op.method), [&in, info](CallArgs& args) {
            return CallTensorOpAt(in, {true, info->method}, *info, Surface::kMethod,
                                  std::move(args));
          }));
    }
  }
  // Tensor.requires_grad_(requires_grad=True): sets the flag in place and returns the
  // tensor; only floating tensors can require grad.
  tensor_type->dict->SetStr(
      "requires_grad_", MakeBuiltin(in, "Tensor.requires_grad_", [&in](CallArgs& args) {
        std::vector<Value> bound =
            apis::BindParams(in, "requires_grad_", {{"self"}, {"requires_grad", true}}, args);
        auto* tensor = DynCast<PyTensor>(bound[0]);
        if (tensor == nullptr) {
          Raise(in.heap(), ExcType::kTypeError,
                "descriptor 'requires_grad_' requires a 'torch._C.TensorBase' object");
        }
        const bool requires_grad = !bound[1] || Truth(in, bound[1]);
        if (requires_grad && !IsFloating(tensor->tensor().dtype)) {
          Raise(in.heap(), ExcType::kRuntimeError,
                "only Tensors of floating point and complex dtype can require gradients");
        }
        tensor->set_requires_grad(requires_grad);
        return bound[0];
      }));
  struct DTypeName {
    const char* name;
    DType dtype;
  };
  // torch's dtype objects and their aliases.
  constexpr DTypeName kDTypes[] = {{"float32", DType::kFloat32}, {"float", DType::kFloat32},
                                   {"float64", DType::kFloat64}, {"double", DType::kFloat64},
                                   {"int64", DType::kInt64},     {"long", DType::kInt64},
                                   {"bool", DType::kBool}};
  for (const DTypeName& d : kDTypes) torch.SetAttr(d.name, in.heap().DTypeObject(d.dtype));
  torch.SetAttr("dtype", in.process().types().ForKind(ObjectKind::kDType));
}

}  // namespace tdc::runtime
