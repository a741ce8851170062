// libFuzzer entry point: any byte string reads as a golden or as a located error, never a
// crash; a golden that reads writes back to a document that reads again and writes the same
// text (the writer's output is the reader's fixed point).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "reference/graph/golden_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  tdc::graph::GoldenReadResult read = tdc::graph::ReadGolden(text);
  if (read.golden.has_value() == read.error.has_value()) __builtin_trap();
  if (read.error) {
    if (tdc::graph::FormatJsonError("fuzz.golden.json", *read.error).empty()) __builtin_trap();
    return 0;
  }
  const std::string written = tdc::graph::WriteGolden(*read.golden);
  tdc::graph::GoldenReadResult again = tdc::graph::ReadGolden(written);
  if (!again.golden || tdc::graph::WriteGolden(*again.golden) != written) __builtin_trap();
  return 0;
}
