// tdconform: conformance of a compiler backend (conformance/README.md). This stage runs one
// case: `tdconform --case ID --backend LIB` prints the case's verdict (DESIGN.md D7) and,
// for anything but PASS, the command that reproduces it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <set>
#include <string>

#include "conformance/executor/executor.h"

namespace {

// The ids of conformance/core-set.txt (one a line, `#` comments).
std::set<std::string> ReadCoreSet(const std::string& path) {
  std::set<std::string> ids;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') ids.insert(line);
  }
  return ids;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tdconform: runs conformance cases on a compiler backend loaded through the tdconform C ABI"};
  std::string case_id, library, core_set = "conformance/core-set.txt";
  double timeout = 60;
  app.add_option("--case", case_id, "the case: fixtures:<group>:<name>:profile=<p>:level=<dynamo|aten>")->required();
  app.add_option("--backend", library, "the backend's shared library")->required();
  app.add_option("--timeout", timeout, "seconds a case may take (default 60)");
  app.add_option("--core-set", core_set, "the must-pass case list (default conformance/core-set.txt)");
  CLI11_PARSE(app, argc, argv);

  auto spec = tdc::conformance::ResolveCase(case_id);
  if (auto* error = std::get_if<std::string>(&spec)) {
    fmt::print(stderr, "tdconform: error: --case {}: {}\n", case_id, *error);
    return 2;
  }
  tdc::conformance::Verdict verdict;
  auto loaded = tdc::conformance::LoadBackend(library);
  if (auto* failure = std::get_if<tdc::conformance::LoadFailure>(&loaded)) {
    verdict = tdc::conformance::LoadVerdict(*failure);
  } else {
    tdc::conformance::ExecutorOptions options;
    options.timeout_seconds = timeout;
    options.required = ReadCoreSet(core_set).contains(case_id);
    verdict = tdc::conformance::RunCase(*std::get<0>(loaded), std::get<tdc::conformance::CaseSpec>(spec), options);
  }
  fmt::print("{}: {}\n", case_id, tdc::conformance::FormatVerdict(verdict));
  if (verdict.status == tdc::conformance::CaseStatus::kPass) return 0;
  fmt::print("repro: {} --case '{}' --backend '{}'\n", argv[0], case_id, library);
  return tdc::conformance::CountsAs(verdict.status) == tdc::conformance::Counts::kSkipped ? 0 : 1;
}
