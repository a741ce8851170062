// torch.compile under TORCHDYNAMO_DISABLE=1.
#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"

namespace tdc::runtime {

void InstallCompileApi(Interpreter& in) {
  PyModule& torch = *in.process().modules()[ModuleId::kTorch];
  // torch.compile(fn, ...) returns fn itself; torch.compile(**options) a decorator.
  torch.SetAttr("compile", MakeBuiltin(in, "compile", [&in](CallArgs& args) {
    if (!args.positional.empty()) return args.positional[0];
    return MakeBuiltin(in, "compile.<locals>.fn", [](CallArgs& inner) { return inner.positional.at(0); });
  }));
}

}  // namespace tdc::runtime
