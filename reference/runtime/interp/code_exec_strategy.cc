// torch._dynamo.types' FrameAction and FrameExecStrategy (torch._C._dynamo.eval_frame's
// pybind11 _FrameAction enum and _FrameExecStrategy class) and
// torch._dynamo.eval_frame.set_code_exec_strategy(code, strategy), which sets how Dynamo's
// frame evaluation treats every frame of a code object. Modeled: (SKIP, DEFAULT), the
// strategy torch sets when a break skips a frame (its frames run unconverted, the frames
// they call offered), and (DEFAULT, DEFAULT), which clears it; every other strategy, and
// any use in a compiled region, is refused (DESIGN D13; a strategy argument of another type
// aborts torch 2.13.0's process, probed).
#include <fmt/format.h>

#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/runtime/interp/code_objects.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

constexpr std::string_view kModule = "torch._C._dynamo.eval_frame";
// _FrameAction's members, in value order.
constexpr std::array<std::string_view, 3> kFrameActions = {"DEFAULT", "SKIP", "RUN_ONLY"};

// The FrameExecStrategy objects made, with their (cur_action, recursive_action) indices into
// kFrameActions. Their attributes are not modeled: torch's getters make a new _FrameAction
// object on each read (probed: `s.cur_action is FrameAction.SKIP` is False).
struct Strategies {
  Ref<PyType> action_type;
  Ref<PyType> strategy_type;
  std::vector<std::pair<Ref<PyInstance>, std::pair<size_t, size_t>>> made;

  std::optional<size_t> ActionOf(const Value& v) const {
    for (size_t i = 0; i < kFrameActions.size(); ++i) {
      if (action_type && action_type->dict->GetStr(kFrameActions[i]) == v) return i;
    }
    return std::nullopt;
  }
  const std::pair<size_t, size_t>* Of(const Value& v) const {
    for (const auto& [strategy, actions] : made) {
      if (Value(strategy) == v) return &actions;
    }
    return nullptr;
  }
};

void InstallTypesModule(Interpreter& in, const std::shared_ptr<Strategies>& strategies) {
  PyModule& types = *in.process().modules()[ModuleId::kTorchDynamoTypes];
  Ref<PyType> action = LibraryClass(in, "_FrameAction", kModule);
  for (size_t value = 0; value < kFrameActions.size(); ++value) {
    Ref<PyInstance> member = in.heap().NewInstance(action);
    member->repr = fmt::format("<_FrameAction.{}: {}>", kFrameActions[value], value);
    action->dict->SetStr(kFrameActions[value], member);
  }
  RefuseOtherAttributes(in, action);
  Ref<PyType> strategy = LibraryClass(in, "_FrameExecStrategy", kModule);
  strategy->construct = [&in, raw = strategies.get()](CallArgs& args) -> Value {
    std::optional<size_t> cur, recursive;
    if (args.positional.size() == 2 && args.keywords.empty()) {
      cur = raw->ActionOf(args.positional[0]);
      recursive = raw->ActionOf(args.positional[1]);
    }
    if (!cur || !recursive) {
      RefuseNotModeled(
          "torch._dynamo.types.FrameExecStrategy other than (cur_action, recursive_action) "
          "FrameActions is not modeled");
    }
    Ref<PyInstance> made = in.heap().NewInstance(raw->strategy_type);
    raw->made.emplace_back(made, std::pair{*cur, *recursive});
    return made;
  };
  RefuseOtherAttributes(in, strategy);
  strategies->action_type = action;
  strategies->strategy_type = strategy;
  types.SetAttr("FrameAction", action);
  types.SetAttr("FrameExecStrategy", strategy);
}

Value SetCodeExecStrategy(Interpreter& in, const Strategies& strategies, CallArgs& args) {
  RefuseInCompiledRegion(in, "torch._dynamo.eval_frame.set_code_exec_strategy");
  if (args.positional.size() != 2 || !args.keywords.empty()) {
    RefuseNotModeled("set_code_exec_strategy() other than (code, strategy) is not modeled");
  }
  const lang::Node* def = DefOfCodeObject(in, args.positional[0]);
  if (def == nullptr) Raise(in.heap(), ExcType::kTypeError, "expected a code object");
  const std::pair<size_t, size_t>* actions = strategies.Of(args.positional[1]);
  if (actions == nullptr) {
    RefuseNotModeled("set_code_exec_strategy() with a strategy of another type (torch aborts)");
  }
  const std::string_view cur = kFrameActions[actions->first];
  const std::string_view recursive = kFrameActions[actions->second];
  if (recursive != "DEFAULT" || cur == "RUN_ONLY") {
    RefuseNotModeled(fmt::format(
        "set_code_exec_strategy() with FrameExecStrategy({}, {}) is not modeled", cur, recursive));
  }
  // The eager run has no frame evaluation to set.
  if (in.process().compiler.set_code_skipped) {
    in.process().compiler.set_code_skipped(*def, cur == "SKIP");
  }
  return in.heap().None();
}

}  // namespace

void InstallCodeExecStrategy(Interpreter& in) {
  auto strategies = std::make_shared<Strategies>();
  in.process().modules()[ModuleId::kTorchDynamoTypes]->FillOnFirstUse([&in, strategies] {
    Heap::StartupScope startup(in.heap());
    InstallTypesModule(in, strategies);
  });
  in.process().modules()[ModuleId::kTorchDynamoEvalFrame]->SetAttr(
      "set_code_exec_strategy",
      MakeBuiltin(in, "set_code_exec_strategy", [&in, strategies](CallArgs& args) {
        return SetCodeExecStrategy(in, *strategies, args);
      }));
}

}  // namespace tdc::runtime
