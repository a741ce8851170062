// `assert t` on a traced tensor (R-data-dependent-branch, SEMANTICS §8.2): CPython compiles
// it to a POP_JUMP_IF_TRUE past LOAD_ASSERTION_ERROR [LOAD_CONST message, PRECALL, CALL]
// RAISE_VARARGS, and torch 2.13.0 rewrites a jump on a tensor there into a node
// `torch._assert_async(t, message)` ("assertion error" without one), which raises
// RuntimeError(message) when the compiled graph runs and the tensor is false (probed: the
// graph goes on past it; golden data_dependent/assert_on_tensor). Any other jump of an assert
// on a tensor (`assert not t`, the first operand of `and`, a message that is not a constant)
// is an ordinary data-dependent branch (data_dependent.cc).
#include "reference/dynamo/dynamo.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

namespace {

constexpr std::string_view kAssertAsync = "torch._VariableFunctionsClass._assert_async";
constexpr std::string_view kAtenAssertAsync = "aten._assert_async.msg";

}  // namespace

void Dynamo::AssertAsyncNode(Trace& t, const Value& cond, const lang::Assert& stmt) {
  std::string message = "assertion error";
  if (stmt.msg) {
    const lang::ConstantValue& c = lang::As<lang::Constant>(*stmt.msg).value;
    if (c.kind != lang::ConstantValue::Kind::kStr) {
      RefuseNotModeled(
          "an assert on a traced tensor with a message that is not a str (torch hands it to "
          "torch._assert_async as it is)");
    }
    message = c.text;
  }
  // The compiled graph checks the tensor when it runs, after the ops before it: a check that
  // fails there (torch raises RuntimeError from the graph) is not modeled.
  if (DynCast<PyTensor>(cond)->tensor().numel() != 1) {
    RefuseNotModeled(
        "an assert on a traced tensor without exactly one element (torch._assert_async raises "
        "RuntimeError when the compiled graph runs)");
  }
  if (!IsTruthy(cond)) {
    RefuseNotModeled(
        "an assert on a traced tensor that fails (torch._assert_async raises "
        "RuntimeError(message) when the compiled graph runs)");
  }
  const CallArgs args{{cond, in_.heap().Str(message)}, {}};
  const Value none = in_.heap().None();
  Fragment fragment = Fragment::Unsupported("no ATen lowering was given");
  if (aten_ != nullptr) {
    std::unique_ptr<FragmentRecorder> recorder =
        aten_->Start(TensorsOf(args), ForeignTensor::kConstant);
    OpCallSite site;
    site.target = kAtenAssertAsync;
    site.opaque = true;  // already its ATen node, as a custom op's is
    recorder->Record(site, args, none);
    fragment = recorder->Finish(none);
  }
  t.graph.AddCall(graph::NodeOp::kCallFunction, std::string(kAssertAsync), args, none,
                  std::move(fragment));
}

}  // namespace tdc::dynamo
