// tdconform-core-set PROFILE=LIST...: prints the must-pass core set (executor/core_set.h)
// of the fixtures each LIST names (one path a line: build/fixtures/compile_verify_<p>.args)
// at PROFILE. conformance/core-set.txt is its output, pinned; ctest
// conformance.core_set_is_current fails when the goldens say otherwise.
#include <fmt/format.h>

#include <fstream>
#include <string>
#include <vector>

#include "conformance/executor/core_set.h"

int main(int argc, char** argv) {
  fmt::print(
      "# The must-pass core set (conformance/executor/core_set.h), written by "
      "tdconform-core-set.\n");
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      fmt::print(stderr, "tdconform-core-set: error: {}: expected PROFILE=LIST\n", arg);
      return 2;
    }
    std::ifstream list(arg.substr(eq + 1));
    if (!list) {
      fmt::print(stderr, "tdconform-core-set: error: cannot read {}\n", arg.substr(eq + 1));
      return 2;
    }
    std::vector<std::string> fixtures;
    for (std::string line; std::getline(list, line);) {
      if (line.ends_with(".py")) fixtures.push_back(line);
    }
    for (const std::string& id : tdc::conformance::CoreSet(fixtures, arg.substr(0, eq)))
      fmt::print("{}\n", id);
  }
  return 0;
}
