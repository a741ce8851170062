#include "reference/tools/compare_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "reference/base/read_file.h"
#include "reference/graph/golden_json.h"

namespace tdc::tools {
namespace {

// The document in `file`, or nullopt after printing why it cannot be used.
std::optional<graph::Golden> Load(const std::string& file, std::ostream& err) {
  FileContents text = ReadRegularFile(file);
  if (!text.bytes) {
    fmt::print(err, "{}: error: {}\n", file, text.error);
    return std::nullopt;
  }
  graph::GoldenReadResult read = graph::ReadGolden(*text.bytes);
  if (read.error) {
    fmt::print(err, "{}\n", graph::FormatJsonError(file, *read.error));
    return std::nullopt;
  }
  return std::move(read.golden);
}

}  // namespace

bool AddMasks(const std::vector<std::string>& masks, std::string_view tool,
              compare::CompareOptions* options, std::ostream& err) {
  for (const std::string& mask : masks) {
    std::optional<std::vector<graph::Field>> fields = compare::MaskFields(mask);
    if (!fields) {
      fmt::print(err, "{}: error: --mask {}: not a golden field name (nor \"aten\")\n", tool, mask);
      return false;
    }
    options->masked.insert(options->masked.end(), fields->begin(), fields->end());
  }
  return true;
}

int RunCompare(const CompareCommand& command, std::ostream& out, std::ostream& err) {
  compare::CompareOptions options;
  options.profile = command.profile;
  options.mode = command.mode;
  if (!AddMasks(command.masks, "tdcompare", &options, err)) return kCompareError;
  std::optional<graph::Golden> expected = Load(command.expected_file, err);
  std::optional<graph::Golden> actual = Load(command.actual_file, err);
  if (!expected || !actual) return kCompareError;

  compare::CompareResult result = compare::Compare(*expected, *actual, options);
  if (result.error) {
    fmt::print(err, "{}: error: {}\n", command.expected_file, *result.error);
    return kCompareError;
  }
  for (const compare::Difference& difference : result.differences) {
    fmt::print(out, "{}\n", compare::FormatDifference(difference));
  }
  size_t count = result.differences.size();
  fmt::print(out, "{} difference{}\n", count, count == 1 ? "" : "s");
  return count == 0 ? kCompareEqual : kCompareDifferent;
}

}  // namespace tdc::tools
