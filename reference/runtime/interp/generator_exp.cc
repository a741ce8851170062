// Generator expressions (CPython's GeneratorExp) as the runtime models them: the only
// argument of a builtin that consumes it at once, where making its items as the builtin asks
// for them is all CPython does with the generator. any() and all() stop at the item that
// decides them, as CPython's do (the items after it are never made), and sum() adds each item
// as it comes. Anything else is refused (DESIGN D13): a generator object kept, passed on,
// iterated by a for loop or next(), or made in a compiled region (Dynamo's generator
// tracing is not modeled).
#include <fmt/format.h>

#include <array>
#include <string_view>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The builtins that consume a generator at once, one row each.
enum class Consumer { kAny, kAll, kSum, kCollect };
constexpr std::array<std::pair<std::string_view, Consumer>, 6> kConsumers = {{
    {"any", Consumer::kAny},
    {"all", Consumer::kAll},
    {"sum", Consumer::kSum},
    {"sorted", Consumer::kCollect},  // list(iterable), then sorted
    {"list", Consumer::kCollect},
    {"tuple", Consumer::kCollect},
}};

}  // namespace

std::optional<Value> Interpreter::ConsumeGenerator(Frame& f, const Value& callee,
                                                   const lang::ListComp& comp) {
  RefuseInCompiledRegion(*this, "a generator expression");
  const Consumer* consumer = nullptr;
  for (const auto& [name, c] : kConsumers) {
    if (process_.builtins()->GetAttr(name) == callee) consumer = &c;
  }
  if (consumer == nullptr) return std::nullopt;
  switch (*consumer) {
    case Consumer::kAny:
    case Consumer::kAll: {
      // any() stops at the first true item, all() at the first false one.
      const bool stop_at = *consumer == Consumer::kAny;
      const bool finished = ForEachComprehensionItem(
          f, comp, [&](Value item) { return Truth(*this, item) != stop_at; });
      return heap().Bool(finished != stop_at);
    }
    case Consumer::kSum: {
      Value total = heap().Int(0);
      ForEachComprehensionItem(f, comp, [&](Value item) {
        total = BinaryOperation(*this, lang::BinaryOp::kAdd, total, item);
        return true;
      });
      return total;
    }
    case Consumer::kCollect: {
      Ref<PyList> items = heap().NewList();
      ForEachComprehensionItem(f, comp, [&](Value item) {
        items->items().push_back(std::move(item));
        return true;
      });
      CallArgs args;
      args.positional.push_back(items);
      return Call(callee, std::move(args));
    }
  }
  return std::nullopt;
}

}  // namespace tdc::runtime
