// Test-only: files of the source tree, for tests built with TDC_SOURCE_DIR defined.
#ifndef TDCONFORM_REFERENCE_GRAPH_TEST_FILES_H_
#define TDCONFORM_REFERENCE_GRAPH_TEST_FILES_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tdc::graph::testing {

inline std::filesystem::path SourcePath(const std::string& relative) {
  return std::filesystem::path(TDC_SOURCE_DIR) / relative;
}

// The file's bytes, or nullopt when it does not exist.
inline std::optional<std::string> ReadSourceFile(const std::string& relative) {
  std::ifstream in(SourcePath(relative), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A hand-written document of SCHEMA.md v1 that uses every field, value kind and arg
// kind (testdata/sample_golden.json, formatted by Python's json.dumps(indent=1)).
inline std::string SampleGoldenText() {
  return ReadSourceFile("reference/graph/testdata/sample_golden.json").value_or("");
}

// The goldens the oracle has recorded (fixtures/**/*.golden.json), sorted.
inline std::vector<std::filesystem::path> RecordedGoldens() {
  std::vector<std::filesystem::path> goldens;
  std::filesystem::path root = SourcePath("fixtures");
  if (!std::filesystem::is_directory(root)) return goldens;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.ends_with(".golden.json")) goldens.push_back(entry.path());
  }
  std::sort(goldens.begin(), goldens.end());
  return goldens;
}

}  // namespace tdc::graph::testing

#endif  // TDCONFORM_REFERENCE_GRAPH_TEST_FILES_H_
