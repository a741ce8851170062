// Reading a whole file for the command-line verbs.
#ifndef TDCONFORM_REFERENCE_TOOLS_READ_FILE_H_
#define TDCONFORM_REFERENCE_TOOLS_READ_FILE_H_

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace tdc::tools {

// The file's bytes, or nullopt when it cannot be read.
inline std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace tdc::tools

#endif  // TDCONFORM_REFERENCE_TOOLS_READ_FILE_H_
