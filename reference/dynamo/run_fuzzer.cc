// libFuzzer entry point: any byte string run as a fixture program, eagerly and compiled
// (torch-2.13 profile), ends in an outcome or a located diagnostic, never a crash, a hang or
// unbounded memory. A small step budget keeps each input short; the reference's tensor budget
// (runtime/tensor_budget.h) bounds memory.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "reference/dynamo/run_compiled.h"
#include "reference/runtime/interp/run_program.h"

namespace {

// Steps a program may take: every fixture runs compiled in fewer than 2,000, so a mutated one
// mostly does too, and a loop the fuzzer makes endless ends in the budget's outcome. Not more:
// in compile mode a step can cost 40 us (0.9 ms under this build's ASan) and keep 0.7 KB (a
// while loop on a tensor that graph-breaks each pass, fuzz/regressions/run/), so 200,000 steps
// hit libFuzzer's 10 s timeout.
constexpr int64_t kFuzzSteps = 2'000;

template <typename Outcome>
void CheckAnswered(const std::variant<Outcome, std::string>& result) {
  if (const auto* diagnostic = std::get_if<std::string>(&result); diagnostic && diagnostic->empty())
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  const tdc::runtime::ParsedProgram parsed = tdc::runtime::ParseProgram(source, "fuzz.py");
  CheckAnswered(
      tdc::runtime::RunProgram(parsed, "fuzz.py", tdc::runtime::RunMode::kEager, {}, kFuzzSteps));
  tdc::dynamo::CompileRunOptions options;
  options.max_steps = kFuzzSteps;
  CheckAnswered(tdc::dynamo::RunCompiled(parsed, "fuzz.py", options));
  return 0;
}
