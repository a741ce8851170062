// libFuzzer entry point: any byte string parses to an AST or a located diagnostic, and a
// successful parse dumps without crashing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reference/lang/ast_dump.h"
#include "reference/lang/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  tdc::lang::ParseResult result = tdc::lang::ParseSubset(source, "fuzz.py");
  if (result.module != nullptr) {
    std::string dump = tdc::lang::DumpAst(*result.module);
    if (dump.empty()) __builtin_trap();
  } else if (!result.error || result.error->line < 1 || result.error->column < 0) {
    // Column 0 is possible: CPython reports "unexpected unindent" at offset 0.
    __builtin_trap();
  }
  return 0;
}
