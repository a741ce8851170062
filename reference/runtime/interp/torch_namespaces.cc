// torch.nn.functional, torch.special, torch.linalg and torch.fft as fixtures call them,
// each reusing the ops.def row whose kernel computes what torch computes, under the
// function object torch has (F.relu is a Python function of torch.nn.functional;
// F.gelu, torch.special.expit, torch.linalg.vector_norm and torch.fft.fft are the
// builtins `gelu`, `special_expit`, `linalg_vector_norm` and `fft_fft`). torch.max and
// Tensor.max come from the op table (torch_ops_surface.cc).
//
// torch.fft.fft's complex result is a stand-in object with `.real` and `.imag` (SEMANTICS
// §5.6): the runtime has no complex dtype.
#include <fmt/format.h>

#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/interp/tensor_values.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

const OpInfo& Op(std::string_view name) {
  const OpInfo* op = FindOp(name);
  if (op == nullptr) throw std::logic_error(fmt::format("ops.def has no row {}", name));
  return *op;
}

void InstallFunctional(Interpreter& in) {
  PyModule& functional = *in.process().modules()[ModuleId::kTorchNnFunctional];
  Value globals = apis::LibGlobals(in, "torch.nn.functional");
  const OpInfo* relu = &Op("relu");
  // def relu(input: Tensor, inplace: bool = False) -> Tensor
  functional.SetAttr(
      "relu", apis::MakeLibFunction(in, globals, "relu", [&in, relu](PyFunction&, CallArgs& args) {
        for (const auto& [k, v] : args.keywords) {
          if (k != "input" && k != "inplace") {
            Raise(in.heap(), ExcType::kTypeError,
                  fmt::format("relu() got an unexpected keyword argument '{}'", k));
          }
        }
        if (args.positional.size() > 2) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("relu() takes from 1 to 2 positional arguments but {} were given",
                            args.positional.size()));
        }
        Value input = ArgOrKeyword(args, 0, "input");
        Value inplace = ArgOrKeyword(args, 1, "inplace");
        if (!input)
          Raise(in.heap(), ExcType::kTypeError,
                "relu() missing 1 required positional argument: 'input'");
        if (inplace && Truth(in, inplace)) {
          RefuseNotModeled("F.relu(inplace=True) is outside the reference");
        }
        return CallTensorOpAt(in, {false, "torch.nn.functional.relu"}, *relu, Surface::kFunction,
                              CallArgs{{input}, {}});
      }));
}

void InstallSpecial(Interpreter& in) {
  PyModule& special = *in.process().modules()[ModuleId::kTorchSpecial];
  const OpInfo* sigmoid = &Op("sigmoid");
  // torch.special.expit is torch._C._special.special_expit, sigmoid's kernel.
  special.SetAttr("expit", MakeBuiltin(in, "special_expit", [&in, sigmoid](CallArgs& args) {
                    CallArgs call = std::move(args);
                    for (auto& kw : call.keywords) {
                      if (kw.first == "input") kw.first = "self";
                    }
                    return CallTensorOpAt(in, {false, "torch.special.expit"}, *sigmoid,
                                          Surface::kFunction, std::move(call));
                  }));
}

// Renames keyword `from` to `to` (torch's aliases for a builtin's first parameter).
void RenameKeyword(CallArgs& args, std::string_view from, std::string_view to) {
  for (auto& kw : args.keywords) {
    if (kw.first == from) kw.first = to;
  }
}

void InstallGelu(Interpreter& in) {
  PyModule& functional = *in.process().modules()[ModuleId::kTorchNnFunctional];
  const OpInfo* gelu = &Op("gelu");
  // gelu(input, *, approximate='none'): the str keyword is handled here, not by ops.def.
  functional.SetAttr("gelu", MakeBuiltin(in, "gelu", [&in, gelu](CallArgs& args) {
                       CallArgs call = std::move(args);
                       std::erase_if(call.keywords, [&in](const auto& kw) {
                         if (kw.first != "approximate") return false;
                         const auto* s = DynCast<PyStr>(kw.second);
                         if (s == nullptr || s->value() != "none") {
                           RefuseNotModeled("F.gelu(approximate=...) other than 'none'");
                         }
                         return true;
                       });
                       return CallTensorOpAt(in, {false, "torch.nn.functional.gelu"}, *gelu,
                                             Surface::kFunction, std::move(call));
                     }));
}

void InstallLinalg(Interpreter& in) {
  PyModule& linalg = *in.process().modules()[ModuleId::kTorchLinalg];
  const OpInfo* norm = &Op("vector_norm");
  linalg.SetAttr("vector_norm", MakeBuiltin(in, "linalg_vector_norm", [&in, norm](CallArgs& args) {
                   CallArgs call = std::move(args);
                   RenameKeyword(call, "x", "input");  // torch accepts the documented name `x` too
                   return CallTensorOpAt(in, {false, "torch.linalg.vector_norm"}, *norm,
                                         Surface::kFunction, std::move(call));
                 }));
}

// The complex result of torch.fft.fft: the op returns view_as_real of it (a real tensor
// with a trailing dim of 2); the stand-in's `.real` and `.imag` are its two strided views,
// as torch's are of the complex storage. Nothing else of a complex tensor is modeled.
void InstallFft(Interpreter& in) {
  PyModule& fft = *in.process().modules()[ModuleId::kTorchFft];
  const OpInfo* op = &Op("fft");
  Ref<PyType> complex_type = in.heap().NewType("ComplexTensorStandIn", "tdconform.reference");
  fft.SetAttr("fft", MakeBuiltin(in, "fft_fft", [&in, op, complex_type](CallArgs& args) {
                Value pair = CallTensorOpAt(in, {false, "torch.fft.fft"}, *op, Surface::kFunction,
                                            std::move(args));
                Ref<PyTensor> base = RefCast<PyTensor>(pair);
                Ref<PyInstance> result = in.heap().NewInstance(complex_type);
                for (int64_t part : {0, 1}) {
                  Tensor view = TensorOf(pair);
                  view.sizes.pop_back();
                  view.strides.pop_back();
                  view.storage_offset += part;
                  const char* name = part == 0 ? "real" : "imag";
                  Value tensor = in.heap().NewTensor(std::move(view), base);
                  // Dynamo reads `.real` of the complex result as a getattr node (an unused one is
                  // dropped from the graph).
                  NotifyTensorOp(in, {false, "builtins.getattr", true},
                                 CallArgs{{pair, in.heap().Intern(name)}, {}}, tensor);
                  result->attrs->SetStr(name, tensor);
                }
                return Value(result);
              }));
}

}  // namespace

void InstallTorchNamespaces(Interpreter& in) {
  InstallFunctional(in);
  InstallSpecial(in);
  InstallGelu(in);
  InstallLinalg(in);
  InstallFft(in);
}

}  // namespace tdc::runtime
