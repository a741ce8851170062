#include "conformance/runner/shrink_generated.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "conformance/runner/generated.h"
#include "fuzz/generators.h"
#include "fuzz/shrink.h"
#include "reference/base/case_id.h"
#include "reference/graph/golden_json.h"

namespace tdc::conformance {

namespace {

bool Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// The program written at `file` with the reference's outcome beside it; false when the
// reference cannot run it (a candidate that is no program any more) or it cannot be written.
bool WriteCase(const fuzz::Program& program, const std::string& file) {
  auto golden = ReferenceGolden(program, file);
  if (!std::holds_alternative<graph::Golden>(golden)) return false;
  const std::string stem = file.substr(0, file.size() - 3);
  return Write(file, fuzz::PrintFixture(program)) &&
         Write(stem + ".golden.json", graph::WriteGolden(std::get<graph::Golden>(golden)));
}

}  // namespace

bool WorthShrinking(const std::string& id, const Verdict& verdict) {
  return id.starts_with("fuzz:") &&
         (verdict.status == CaseStatus::kFail || verdict.status == CaseStatus::kCrash);
}

std::variant<Shrunk, std::string> ShrinkGenerated(const LoadedBackend& backend,
                                                  const std::string& id, const Verdict& failed,
                                                  const ExecutorOptions& options,
                                                  const std::string& scratch,
                                                  const std::string& folder) {
  CaseIdParse parsed = ParseCaseId(id);
  if (!parsed.id || parsed.id->suite != "fuzz" || !parsed.id->name.starts_with("seed_"))
    return fmt::format("{}: no generated case", id);
  uint64_t seed = 0;
  try {
    seed = std::stoull(parsed.id->name.substr(5));
  } catch (const std::exception&) {
    return fmt::format("{}: no generated case", id);
  }
  // Each candidate is the case `fuzz:reference:seed_<n>` of the scratch folder, whatever the
  // failing case expected: the backend's failure is against the reference's graphs' values.
  CaseId candidate_id = *parsed.id;
  candidate_id.group = "reference";
  const std::string candidate = FormatCaseId(candidate_id);
  std::error_code error;
  std::filesystem::create_directories(scratch + "/reference", error);
  const std::string file = fmt::format("{}/reference/seed_{}.py", scratch, seed);
  Shrunk shrunk;
  auto still_fails = [&](const fuzz::Program& program) {
    if (!WriteCase(program, file)) return false;
    auto spec = ResolveCase(candidate, scratch);
    if (!std::holds_alternative<CaseSpec>(spec)) return false;
    ++shrunk.runs;
    const Verdict v = RunCase(backend, std::get<CaseSpec>(spec), options);
    return v.status == failed.status && v.reason == failed.reason;
  };
  const fuzz::Program program = fuzz::SampleProgram(seed);
  const fuzz::Program small = fuzz::Shrink(program, still_fails);
  std::filesystem::create_directories(folder, error);
  shrunk.program = folder + "/shrunk.py";
  if (!WriteCase(small, shrunk.program))
    return fmt::format("tdconform: error: cannot write {}", shrunk.program);
  shrunk.statements = fuzz::StatementCount(small);
  shrunk.statements_before = fuzz::StatementCount(program);
  return shrunk;
}

}  // namespace tdc::conformance
