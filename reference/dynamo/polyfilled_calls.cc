// A call of a function substitute_in_graph registered a polyfill for, or of the `wrapped`
// function it returned (torch's PolyfilledFunctionVariable, spec §2.11, R-polyfill): Dynamo
// inlines the polyfill (the handler's __torch_dynamo_polyfill__, read at the call) in place
// of the callee, whatever the original does eagerly. Under nested graph breaks a break in it
// ends the graph at its caller's call.
#include <fmt/format.h>

#include "reference/dynamo/dynamo.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

using namespace runtime;  // NOLINT

std::optional<Value> Dynamo::PolyfilledCall(const Value& callee, CallArgs& args) {
  const auto& polyfills = in_.process().compiler.registries.polyfills;
  auto registered = polyfills.find(callee->id());
  if (registered == polyfills.end() || !rules_.on(Rule::kPolyfill)) return std::nullopt;
  const Value& handler = registered->second;
  Value fold = apis::GetAttrOrNull(in_, handler, "__torch_dynamo_can_constant_fold_through__");
  if (fold && Truth(in_, fold)) {
    // On constant arguments torch calls the original and builds its result; on others it
    // inlines the polyfill. Which arguments are constants to Dynamo is not modeled here.
    RefuseNotModeled("a call of a substitute_in_graph polyfill with can_constant_fold_through");
  }
  Value polyfill = apis::GetAttrOrNull(in_, handler, "__torch_dynamo_polyfill__");
  const auto* f = DynCast<PyFunction>(polyfill);
  if (f == nullptr || f->is_native()) {
    RefuseNotModeled(fmt::format("a polyfill handler whose __torch_dynamo_polyfill__ is a {}",
                                 polyfill ? TypeName(polyfill) : "missing attribute"));
  }
  Explain(fmt::format("{} has a substitute_in_graph polyfill: {} is inlined in its place",
                      FunctionReprOf(callee), FunctionReprOf(polyfill)));
  const size_t frame = in_.frames().size();  // the polyfill's, once called
  polyfill_frames_.insert(frame);
  struct Forget {
    std::set<size_t>& frames;
    size_t frame;
    ~Forget() { frames.erase(frame); }
  } forget{polyfill_frames_, frame};
  return InlineCall(callee, polyfill, args, false);
}

}  // namespace tdc::dynamo
