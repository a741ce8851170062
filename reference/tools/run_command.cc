#include "reference/tools/run_command.h"

#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reference/compare/comparator.h"
#include "reference/graph/golden_json.h"
#include "reference/runtime/interp/run_program.h"
#include "reference/tools/read_file.h"

namespace tdc::tools {
namespace {

// The name code objects and messages show: the path relative to the working directory
// (the repository root, where ctest and the README run tdref), as the oracle records it.
std::string DisplayName(const std::string& file) {
  std::error_code ec;
  std::filesystem::path rel = std::filesystem::relative(file, ec);
  if (ec || rel.empty() || rel.native().starts_with("..")) return file;
  return rel.generic_string();
}

std::optional<runtime::RunMode> ParseRunMode(const std::string& mode) {
  if (mode == "eager") return runtime::RunMode::kEager;
  return std::nullopt;
}

// Runs `file`; a golden document, or an error printed on `err`.
std::optional<graph::Golden> RunToGolden(const std::string& file, const std::string& mode,
                                         std::ostream& err) {
  std::optional<runtime::RunMode> run_mode = ParseRunMode(mode);
  if (!run_mode) {
    fmt::print(err, "error: unknown mode '{}' (the reference runs: eager)\n", mode);
    return std::nullopt;
  }
  std::optional<std::string> source = ReadFile(file);
  if (!source) {
    fmt::print(err, "{}:1:1: error: cannot read file\n", file);
    return std::nullopt;
  }
  std::string name = DisplayName(file);
  auto result = runtime::RunProgram(*source, name, *run_mode);
  if (const auto* diagnostic = std::get_if<std::string>(&result)) {
    fmt::print(err, "{}\n", *diagnostic);
    return std::nullopt;
  }
  graph::Golden golden;
  golden.meta.fixture = name;
  golden.eager = std::get<graph::Outcome>(std::move(result));
  return golden;
}

}  // namespace

int RunRun(const std::string& file, const std::string& mode, bool json, std::ostream& out,
           std::ostream& err) {
  std::optional<graph::Golden> golden = RunToGolden(file, mode, err);
  if (!golden) return 2;
  if (json) {
    out << graph::WriteGolden(*golden);
    return 0;
  }
  for (const auto& [name, value] : golden->eager.outs) {
    fmt::print(out, "{} = {}\n", name, graph::ToJson(value).dump());
  }
  if (golden->eager.exception) {
    fmt::print(out, "exception {}: {}\n", golden->eager.exception->type, golden->eager.exception->message);
  }
  return 0;
}

namespace {

// 0 when `file` matches its golden, 1 when it differs, 2 on an error.
int VerifyOne(const std::string& file, const std::string& mode, std::ostream& out, std::ostream& err) {
  std::filesystem::path golden_path = std::filesystem::path(file).replace_extension(".golden.json");
  std::optional<std::string> text = ReadFile(golden_path.string());
  if (!text) {
    fmt::print(err, "{}:1:1: error: cannot read the golden\n", golden_path.string());
    return 2;
  }
  graph::GoldenReadResult expected = graph::ReadGolden(*text);
  if (!expected.golden) {
    fmt::print(err, "{}\n", graph::FormatJsonError(golden_path.string(), *expected.error));
    return 2;
  }
  std::optional<graph::Golden> actual = RunToGolden(file, mode, err);
  if (!actual) return 2;
  compare::CompareOptions options;
  options.mode = compare::ParseMode(mode);
  compare::CompareResult result = compare::Compare(*expected.golden, *actual, options);
  for (const compare::Difference& d : result.differences) fmt::print(out, "{}\n", compare::FormatDifference(d));
  if (!result.differences.empty()) fmt::print(out, "{}: differs from its golden\n", DisplayName(file));
  return result.differences.empty() ? 0 : 1;
}

}  // namespace

int RunVerify(const std::vector<std::string>& files, const std::string& mode, std::ostream& out,
              std::ostream& err) {
  int passed = 0, failed = 0, status = 0;
  for (const std::string& file : files) {
    int rc = VerifyOne(file, mode, out, err);
    (rc == 0 ? passed : failed) += 1;
    status = std::max(status, rc);
  }
  fmt::print(out, "{} passed, {} failed\n", passed, failed);
  return status;
}

}  // namespace tdc::tools
